import type { Rule } from '@riskgate/risk';
import { type Dispatch, useCallback, useRef, useState } from 'react';
import type { Session } from '../session/create-session.js';
import type { ConversationAction } from './conversation.js';

/**
 * Runs the model's turns: the controller that cancels the running one, and the "always allow"
 * rules granted in this conversation.
 */
export function useTurns(session: Session | undefined, dispatch: Dispatch<ConversationAction>) {
  const [grants, setGrants] = useState<readonly Rule[]>([]);
  const controller = useRef<AbortController | undefined>(undefined);
  const runTurn = useCallback(
    async (text: string) => {
      if (session === undefined) return;
      // What the first call needs loads while the model thinks about this turn.
      session.warmUp();
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'user', text });
      try {
        await session.agent.runTurn(text, {
          signal: abort.signal,
          onEvent: (event) => {
            if (event.type === 'rule-added')
              setGrants((current) => [
                ...current,
                ...session.agent.currentPolicy.rules.filter((rule) => rule.text === event.rule).slice(-1),
              ]);
            dispatch({ type: 'event', event, now: Date.now() });
          },
        });
      } catch (error) {
        dispatch({
          type: 'event',
          event: { type: 'error', kind: 'internal', message: (error as Error).message },
          now: Date.now(),
        });
        dispatch({ type: 'event', event: { type: 'turn-end', reason: 'error', text: '' }, now: Date.now() });
      } finally {
        // A queued message may have started the next turn already: its controller stays.
        if (controller.current === abort) controller.current = undefined;
      }
    },
    [session, dispatch],
  );
  return { runTurn, controller, grants, setGrants };
}
