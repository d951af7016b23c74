import type { Rule } from '@riskgate/risk';
import { useCallback, useEffect, useState } from 'react';
import type { Session } from '../session/create-session.js';
import type { OpenRequest } from './commands.js';
import type { Notice } from './use-conversation.js';

/** The views loaded with the session, after the first frame (views.ts). */
export type Views = typeof import('./views.js');

/**
 * The session and the views, opening while the first frame is on screen. When the session fails
 * to open, the app exits with its error.
 */
export function useSessionStart(initial: Session | Promise<Session>, exit: (error?: Error) => void) {
  // Set together, once both have loaded: no item, panel or command shows before its view has.
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [views, setViews] = useState<Views | undefined>(undefined);
  useEffect(() => {
    let current = true;
    Promise.all([initial, import('./views.js')]).then(
      ([opened, loaded]) => {
        if (!current) return;
        setViews(loaded);
        setSession(opened);
      },
      (error: unknown) => {
        if (current) exit(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return () => {
      current = false;
    };
  }, [initial, exit]);
  return { session, setSession, views };
}

/** Opens another conversation in place of this one, in the same safety mode. */
export function useSwitchSession(
  session: Session | undefined,
  setSession: (session: Session) => void,
  setGrants: (grants: readonly Rule[]) => void,
  openSession: (request: OpenRequest & { readonly continueFrom?: Session }) => Promise<Session>,
  notice: Notice,
) {
  return useCallback(
    async (request: OpenRequest) => {
      if (session === undefined) return;
      try {
        const opened = await openSession(request.keep === true ? { ...request, continueFrom: session } : request);
        // The safety mode is the person's choice for the whole sitting: a new conversation keeps it.
        const mode = session.agent.currentPolicy.mode;
        opened.agent.setPolicy({ ...opened.agent.currentPolicy, mode });
        const next = { ...opened, info: { ...opened.info, mode } };
        // A conversation that goes on keeps its transcript open; a new one closes the old.
        await (request.keep === true ? session.handOver() : session.close());
        setSession(next);
        setGrants([]);
        notice(`${next.info.kind === 'sql' ? `SQL mode on ${next.info.database}` : 'chat mode'} (${mode})`);
      } catch (error) {
        notice((error as Error).message, 'error');
      }
    },
    [openSession, session, notice, setSession, setGrants],
  );
}
