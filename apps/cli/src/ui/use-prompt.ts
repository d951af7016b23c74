import { join } from 'node:path';
import type { Rule } from '@riskgate/risk';
import { useCallback, useEffect, useRef } from 'react';
import type { Session } from '../session/create-session.js';
import type { OpenRequest } from './commands.js';
import type { ConversationState } from './conversation.js';
import type { Notice } from './use-conversation.js';
import type { Picker } from './Panels.js';
import type { Views } from './use-session.js';

/** What a slash command may reach, besides the session and views it needs. */
export interface SlashCommandParts {
  readonly session: Session | undefined;
  readonly views: Views | undefined;
  readonly setSession: (session: Session) => void;
  readonly grants: readonly Rule[];
  readonly setGrants: (grants: readonly Rule[]) => void;
  readonly conversation: ConversationState;
  readonly notice: Notice;
  readonly exit: () => void;
  readonly clearScreen: () => void;
  readonly switchTo: (request: OpenRequest) => Promise<void>;
  readonly setPicker: (picker: Picker) => void;
  readonly runTurn: (text: string) => Promise<void>;
}

/** Runs a slash command (views.ts); does nothing until the session and its views are open. */
export function useSlashCommand({
  session,
  views,
  setSession,
  grants,
  setGrants,
  conversation,
  notice,
  exit,
  clearScreen,
  switchTo,
  setPicker,
  runTurn,
}: SlashCommandParts) {
  return useCallback(
    (line: string) =>
      session !== undefined &&
      views !== undefined &&
      views.runSlashCommand(line, {
        session,
        setSession,
        grants,
        setGrants,
        conversation,
        notice,
        exit,
        clearScreen,
        switchTo,
        openPicker: () => {
          const sessions = views
            .listSessions(join(views.stateDirectory(), 'sessions'))
            .filter((candidate) => candidate.id !== session.id);
          if (sessions.length === 0) notice('no earlier conversation to resume', 'error');
          else setPicker({ kind: 'sessions', sessions });
        },
        openModelPicker: (models, pick) => setPicker({ kind: 'models', models, current: session.agent.model, pick }),
        sendMessage: (text) => void runTurn(text),
      }),
    [
      exit,
      notice,
      session,
      views,
      grants,
      switchTo,
      conversation,
      clearScreen,
      runTurn,
      setSession,
      setGrants,
      setPicker,
    ],
  );
}

/** Sends what Enter submits: a slash command or the person's message to the model. */
export function useSubmit(
  session: Session | undefined,
  setInput: (value: string) => void,
  command: (line: string) => unknown,
  runTurn: (text: string) => Promise<void>,
) {
  // Enter pressed while the first session still opens: the text stays in the prompt and is sent
  // the moment the session is ready (a fast typist's first question is not dropped).
  const sentWhileStarting = useRef<string | undefined>(undefined);
  const submit = useCallback(
    (value: string) => {
      if (session === undefined) {
        sentWhileStarting.current = value;
        return;
      }
      const text = value.trim();
      setInput('');
      if (text === '') return;
      if (text.startsWith('/')) command(text);
      else void runTurn(text);
    },
    [session, command, runTurn, setInput],
  );
  useEffect(() => {
    const waiting = sentWhileStarting.current;
    if (session === undefined || waiting === undefined) return;
    sentWhileStarting.current = undefined;
    submit(waiting);
  }, [session, submit]);
  return submit;
}
