import { Box, useApp, useStdout } from 'ink';
import { useState } from 'react';
import type { Session } from '../session/create-session.js';
import type { OpenRequest } from './commands.js';
import { ConversationView } from './ConversationView.js';
import type { InputHistory } from './input-history.js';
import { Panels, type Picker } from './Panels.js';
import { Prompt } from './Prompt.js';
import { type StartingInfo, StatusLine } from './StatusLine.js';
import type { TtyConfirmer } from './tty-confirmer.js';
import { useApproval } from './use-approval.js';
import { useConversation } from './use-conversation.js';
import { useKeys, useModeHotkey } from './use-keys.js';
import { useSlashCommand, useSubmit } from './use-prompt.js';
import { useSessionStart, useSwitchSession } from './use-session.js';
import { useSessionShown } from './use-session-shown.js';
import { useStopSignal } from './use-stop-signal.js';
import { useQueue } from './use-queue.js';
import { useRedrawOnResize, useTerminalSize } from './use-terminal-size.js';
import { useTurns } from './use-turns.js';

export type { StartingInfo };

export interface AppProps {
  /**
   * The first session, opening while the first frame is on screen (its tools, database and
   * sandbox probe load after the prompt is drawn). Until it opens, what is typed waits, as it
   * does while the model works: nothing runs before the session's gate, assessors and sandbox
   * are ready. When it fails, the app exits with its error.
   */
  readonly initial: Session | Promise<Session>;
  /** The status line until `initial` has opened. */
  readonly starting: StartingInfo;
  readonly confirmer: TtyConfirmer;
  /** Opens another conversation (/sql, /chat, /db, /resume). */
  readonly openSession: (request: OpenRequest & { readonly continueFrom?: Session }) => Promise<Session>;
  /** Ms a second Ctrl-C has to follow the first to exit. */
  readonly exitWindowMs?: number;
  readonly guardMs?: number;
  /** What the config left out of an untrusted project (docs/trust.md): the first line shown. */
  readonly configNotice?: string;
  /** What the organisation's managed policy overrode (docs/policy.md): shown before configNotice. */
  readonly policyNotice?: string;
  /** The prompt's ↑/↓ history (persisted per project by the caller). */
  readonly history?: InputHistory;
  /** Aborted on SIGTERM/SIGHUP: cancel what runs and exit. */
  readonly stop?: AbortSignal;
}

export function App({
  initial,
  starting,
  confirmer,
  openSession,
  exitWindowMs = 2_000,
  guardMs,
  configNotice,
  policyNotice,
  history,
  stop,
}: AppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = useTerminalSize().columns;
  const { session, setSession, views } = useSessionStart(initial, exit);
  const { conversation, dispatch, clearScreen, notice } = useConversation([policyNotice, configNotice], stdout);
  useRedrawOnResize(width, stdout, dispatch);
  const [input, setInput] = useState('');
  const { runTurn, controller, grants, setGrants } = useTurns(session, dispatch);
  useStopSignal(stop, controller, exit);
  const { pending, answer, suggested } = useApproval(confirmer, session);
  const [picker, setPicker] = useState<Picker | undefined>(undefined);
  useSessionShown(session, dispatch, clearScreen);
  const switchTo = useSwitchSession(session, setSession, setGrants, openSession, notice);
  const command = useSlashCommand({
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
  });
  const submit = useSubmit(session, setInput, command, runTurn);
  const queue = useQueue({ busy: conversation.busy, held: pending !== undefined, submit, input, setInput });
  const { interrupted } = queue;
  useKeys({ controller, pending, answer, input, setInput, exitWindowMs, exit, notice, interrupted });
  useModeHotkey({ session, views, setSession, notice, isActive: pending === undefined && picker === undefined });

  return (
    <Box flexDirection="column">
      <ConversationView
        conversation={conversation}
        waitingForApproval={pending !== undefined}
        width={width}
        views={views}
      />
      <Panels
        views={views}
        pending={pending}
        suggested={suggested}
        answer={answer}
        guardMs={guardMs}
        picker={picker}
        setPicker={setPicker}
        switchTo={switchTo}
      />
      <Prompt
        value={input}
        onChange={setInput}
        onSubmit={queue.enter}
        onEndOfInput={exit}
        queued={queue.queued}
        onRecall={queue.recall}
        onEditorError={(message) => notice(message, 'error')}
        width={width}
        history={history}
        isActive={pending === undefined && picker === undefined}
        busy={conversation.busy}
      />
      <StatusLine session={session} starting={starting} busy={conversation.busy} configNotice={configNotice} />
    </Box>
  );
}
