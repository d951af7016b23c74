import { basename, join } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest, SessionSummary } from '@riskgate/core';
import type { Rule } from '@riskgate/risk';
import { Box, Static, Text, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { narrowestRule } from '../operation-text.js';
import type { Session, SessionInfo } from '../session/create-session.js';
import type { OpenRequest } from './commands.js';
import { conversationReducer, INITIAL_CONVERSATION, type Item, type NoticeTone } from './conversation.js';
import type { InputHistory } from './input-history.js';
import { itemsFromMessages } from './restore.js';
import { Spinner } from './Spinner.js';
import { TextInput } from './TextInput.js';
import type { TtyConfirmer } from './tty-confirmer.js';

/** The views loaded with the session, after the first frame (views.ts). */
type Views = typeof import('./views.js');

/**
 * What the status line shows while the first session opens, from the flags and config. The
 * model is named once the session that talks to it is open: until then the line says "starting…".
 */
export type StartingInfo = Pick<SessionInfo, 'kind' | 'mode'> & { readonly database?: string };

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
  readonly openSession: (request: OpenRequest) => Promise<Session>;
  /** Ms a second Ctrl-C has to follow the first to exit. */
  readonly exitWindowMs?: number;
  readonly guardMs?: number;
  /** What the config left out of an untrusted project (docs/trust.md): the first line shown. */
  readonly configNotice?: string;
  /** The prompt's ↑/↓ history (persisted per project by the caller). */
  readonly history?: InputHistory;
  /** Aborted on SIGTERM/SIGHUP: cancel what runs and exit. */
  readonly stop?: AbortSignal;
}

const NOTICE_COLOR: Record<NoticeTone, string> = { info: 'gray', warning: 'yellow', error: 'red' };

/** "≈3.2k tokens": the conversation's characters / 4, the usual estimate for English and code. */
function contextSize(session: Session): string {
  const characters = session.agent.conversation.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  const tokens = Math.round(characters / 4);
  return `≈${tokens < 1000 ? tokens : `${(tokens / 1000).toFixed(1)}k`} tokens`;
}

function ItemView({
  item,
  width,
  views,
}: {
  readonly item: Item;
  readonly width: number;
  readonly views: Views | undefined;
}) {
  switch (item.kind) {
    case 'user':
      return (
        <Text bold color="blue">
          › {item.text}
        </Text>
      );
    case 'assistant':
      // Answers and tool calls come from turns, which need the session; it is set with the views.
      if (views === undefined) return null;
      return item.question ? (
        <Box borderStyle="single" borderColor="yellow" paddingX={1} flexDirection="column">
          <Text color="yellow" bold>
            The model asks:
          </Text>
          <views.Markdown text={item.text} />
        </Box>
      ) : (
        <views.Markdown text={item.text} />
      );
    case 'tool':
      return views === undefined ? null : <views.ToolView item={item} width={width} />;
    case 'notice':
      return <Text color={NOTICE_COLOR[item.tone]}>{item.text}</Text>;
    default: {
      const unreachable: never = item;
      return <Text>{String(unreachable)}</Text>;
    }
  }
}

interface Pending {
  readonly request: ApprovalRequest;
  readonly answer: (reply: ApprovalAnswer) => void;
}

export function App({
  initial,
  starting,
  confirmer,
  openSession,
  exitWindowMs = 2_000,
  guardMs,
  configNotice,
  history,
  stop,
}: AppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = stdout.columns ?? 100;
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
  const [conversation, dispatch] = useReducer(conversationReducer, INITIAL_CONVERSATION, (initialState) =>
    configNotice === undefined
      ? initialState
      : conversationReducer(initialState, { type: 'notice', tone: 'warning', text: `riskgate: ${configNotice}` }),
  );
  const [input, setInput] = useState('');
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  const [grants, setGrants] = useState<readonly Rule[]>([]);
  const [picker, setPicker] = useState<readonly SessionSummary[] | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  const lastCtrlC = useRef(0);

  useEffect(() => {
    if (stop === undefined) return undefined;
    const onStop = () => {
      controller.current?.abort();
      exit();
    };
    if (stop.aborted) onStop();
    stop.addEventListener('abort', onStop, { once: true });
    return () => stop.removeEventListener('abort', onStop);
  }, [stop, exit]);

  useEffect(() => {
    confirmer.setHandler((request, answer) => setPending({ request, answer }));
    return () => confirmer.setHandler(undefined);
  }, [confirmer]);

  const clearScreen = useCallback(() => {
    // The screen and its scrollback: what <Static> printed is not Ink's to take back.
    stdout.write('\u001B[2J\u001B[3J\u001B[H');
    dispatch({ type: 'clear' });
  }, [stdout]);

  // A resumed conversation is redrawn as it was, then says where it came from.
  const shownSession = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (session === undefined || shownSession.current === session.id) return;
    const switched = shownSession.current !== undefined;
    shownSession.current = session.id;
    if (!switched && session.info.sandboxNotice !== undefined)
      dispatch({ type: 'notice', tone: 'info', text: session.info.sandboxNotice });
    session.storage.listen((text) => dispatch({ type: 'notice', tone: 'warning', text: `riskgate: ${text}` }));
    if (session.restored.length > 0) {
      // Switching to it mid-sitting replaces what is on screen; at start-up the shell's screen stays.
      if (switched) clearScreen();
      dispatch({ type: 'restore', items: itemsFromMessages(session.restored, session.restoredEvents) });
      dispatch({
        type: 'notice',
        tone: 'info',
        text: `resumed ${basename(session.info.transcriptPath)}: ${session.restored.length} messages`,
      });
    }
  }, [session, clearScreen]);

  const notice = useCallback(
    (text: string, tone: 'info' | 'error' = 'info') => dispatch({ type: 'notice', tone, text }),
    [],
  );

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
        controller.current = undefined;
      }
    },
    [session],
  );

  const switchTo = useCallback(
    async (request: OpenRequest) => {
      if (session === undefined) return;
      try {
        const opened = await openSession(request);
        // The safety mode is the person's choice for the whole sitting: a new conversation keeps it.
        const mode = session.agent.currentPolicy.mode;
        opened.agent.setPolicy({ ...opened.agent.currentPolicy, mode });
        const next = { ...opened, info: { ...opened.info, mode } };
        await session.close();
        setSession(next);
        setGrants([]);
        notice(`${next.info.kind === 'sql' ? `SQL mode on ${next.info.database}` : 'chat mode'} (${mode})`);
      } catch (error) {
        notice((error as Error).message, 'error');
      }
    },
    [openSession, session, notice],
  );

  const command = useCallback(
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
          else setPicker(sessions);
        },
        sendMessage: (text) => void runTurn(text),
      }),
    [exit, notice, session, views, grants, switchTo, conversation, clearScreen, runTurn],
  );

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
    [session, command, runTurn],
  );
  useEffect(() => {
    const waiting = sentWhileStarting.current;
    if (session === undefined || waiting === undefined) return;
    sentWhileStarting.current = undefined;
    submit(waiting);
  }, [session, submit]);

  // Ctrl-C cancels what runs, not the session; twice at an empty prompt exits. Esc interrupts
  // the model or a running tool (in a panel, Esc is the panel's "no").
  useInput((typed, key) => {
    if (key.escape && pending === undefined && controller.current !== undefined) {
      controller.current.abort();
      return;
    }
    if (!(key.ctrl && typed === 'c')) return;
    if (controller.current !== undefined) {
      controller.current.abort();
      if (pending !== undefined) {
        pending.answer({ type: 'deny', note: 'cancelled' });
        setPending(undefined);
      }
      return;
    }
    if (input !== '') {
      setInput('');
      return;
    }
    const now = Date.now();
    if (now - lastCtrlC.current < exitWindowMs) {
      exit();
      return;
    }
    lastCtrlC.current = now;
    notice('press Ctrl-C again to exit');
  });

  const answer = (reply: ApprovalAnswer) => {
    pending?.answer(reply);
    setPending(undefined);
  };
  // Strict mode asks about everything, rules or not: offering "always allow" there would be a lie.
  const suggested =
    pending === undefined || session === undefined || session.agent.currentPolicy.mode === 'strict'
      ? undefined
      : narrowestRule(pending.request.toolName, pending.request.ruleStyle, pending.request.subjects);
  const lastLive = conversation.live.at(-1);
  const thinking =
    conversation.busy &&
    pending === undefined &&
    !(lastLive?.kind === 'tool' && lastLive.state === 'executing') &&
    lastLive?.kind !== 'assistant';
  const info: StartingInfo & { readonly model?: string } = session?.info ?? starting;
  // The conversation's size as the model will see it, counted when a turn ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: recounted when a turn ends (busy flips).
  const context = useMemo(
    () => (session === undefined ? 'starting…' : contextSize(session)),
    [session, conversation.busy],
  );

  return (
    <Box flexDirection="column">
      <Static key={conversation.generation} items={conversation.done as Item[]}>
        {(item) => (
          <Box key={item.id} marginBottom={item.kind === 'assistant' ? 1 : 0}>
            <ItemView item={item} width={width} views={views} />
          </Box>
        )}
      </Static>
      {conversation.live.map((item) => (
        <ItemView key={item.id} item={item} width={width} views={views} />
      ))}
      {thinking ? <Spinner since={Date.now()} label="thinking" /> : null}
      {pending === undefined || views === undefined ? null : (
        <views.ConfirmPanel
          key={pending.request.toolCallId}
          request={pending.request}
          {...(suggested === undefined ? {} : { suggestedRule: suggested })}
          onAnswer={answer}
          {...(guardMs === undefined ? {} : { guardMs })}
        />
      )}
      {picker === undefined || views === undefined ? null : (
        <views.SessionPicker
          sessions={picker}
          onPick={(picked) => {
            setPicker(undefined);
            void switchTo({ kind: picked.kind, resume: picked.id });
          }}
          onCancel={() => setPicker(undefined)}
        />
      )}
      <Box>
        <Text color="blue" bold>
          {'› '}
        </Text>
        <TextInput
          value={input}
          onChange={setInput}
          onSubmit={submit}
          onEndOfInput={exit}
          {...(history === undefined ? {} : { history })}
          isActive={pending === undefined && picker === undefined}
          canSubmit={!conversation.busy}
          placeholder={conversation.busy ? '' : 'Ask anything, or /help'}
        />
      </Box>
      <Text dimColor>
        {info.kind === 'sql' ? 'SQL' : 'chat'} · {info.mode}
        {info.database === undefined
          ? ''
          : ` · ${info.database.startsWith('postgres') ? info.database : basename(info.database)}`}{' '}
        · {info.model === undefined ? '' : `${info.model} · `}
        {context}
        {configNotice === undefined ? '' : ' · project settings ignored until "riskgate trust"'}
      </Text>
    </Box>
  );
}
