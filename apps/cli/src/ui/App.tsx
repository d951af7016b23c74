import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest, AuditEntry } from '@riskgate/core';
import { formatRule, type Rule, SAFETY_MODES, type SafetyMode } from '@riskgate/risk';
import { Box, Static, Text, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { argumentsSummary, narrowestRule } from '../operation-text.js';
import type { ConversationKind, Session } from '../session/create-session.js';
import { ConfirmPanel } from './ConfirmPanel.js';
import { conversationReducer, INITIAL_CONVERSATION, type Item, type NoticeTone } from './conversation.js';
import { fullText } from './history-text.js';
import { Markdown } from './Markdown.js';
import { openInPager } from './pager.js';
import { Spinner } from './Spinner.js';
import { TextInput } from './TextInput.js';
import { ToolView } from './ToolView.js';
import type { TtyConfirmer } from './tty-confirmer.js';

export interface AppProps {
  readonly initial: Session;
  readonly confirmer: TtyConfirmer;
  /** Opens another conversation (/sql, /chat, /db, /resume). */
  readonly openSession: (request: { kind: ConversationKind; database?: string; resume?: string | true }) => Promise<Session>;
  /** Ms a second Ctrl-C has to follow the first to exit. */
  readonly exitWindowMs?: number;
  readonly guardMs?: number;
  /** What the config left out of an untrusted project (docs/trust.md): the first line shown. */
  readonly configNotice?: string;
}

export const HELP_TEXT = `Commands:
  /sql [db]      SQL mode, on a database (a SQLite file or postgres:// URL) or the demo
  /chat          chat mode: commands, files, HTTP
  /db <target>   SQL mode on another database
  /mode <m>      safety mode: strict | smart | guarded
  /rules         list rules; /rules revoke N removes an "always allow" grant
  /audit         the last decisions and why
  /view [N]      show tool result N (the last without N) whole, in $PAGER
  /resume [id]   continue an earlier session (the latest without an id)
  /clear         clear the screen
  /help          this help
  /exit          quit (or Ctrl-C twice at an empty prompt)
Panels: y yes · n, Enter or Esc no · m no with a note · a always allow · e edit
        ↑↓ PgUp PgDn Home End scroll a long operation · v read it in $PAGER`;

const NOTICE_COLOR: Record<NoticeTone, string> = { info: 'gray', warning: 'yellow', error: 'red' };

/** The operation of an audit line in a few words. */
function auditSubject(args: unknown): string {
  const flat = argumentsSummary(args).replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

function ItemView({ item, width }: { readonly item: Item; readonly width: number }) {
  switch (item.kind) {
    case 'user':
      return (
        <Text bold color="blue">
          › {item.text}
        </Text>
      );
    case 'assistant':
      return item.question ? (
        <Box borderStyle="single" borderColor="yellow" paddingX={1} flexDirection="column">
          <Text color="yellow" bold>
            The model asks:
          </Text>
          <Markdown text={item.text} />
        </Box>
      ) : (
        <Markdown text={item.text} />
      );
    case 'tool':
      return <ToolView item={item} width={width} />;
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

export function App({ initial, confirmer, openSession, exitWindowMs = 2_000, guardMs, configNotice }: AppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = stdout.columns ?? 100;
  const [session, setSession] = useState(initial);
  const [conversation, dispatch] = useReducer(conversationReducer, INITIAL_CONVERSATION, (initialState) =>
    configNotice === undefined ? initialState : conversationReducer(initialState, { type: 'notice', tone: 'warning', text: `riskgate: ${configNotice}` }),
  );
  const [input, setInput] = useState('');
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  const [grants, setGrants] = useState<readonly Rule[]>([]);
  const controller = useRef<AbortController | undefined>(undefined);
  const lastCtrlC = useRef(0);

  useEffect(() => {
    confirmer.setHandler((request, answer) => setPending({ request, answer }));
    return () => confirmer.setHandler(undefined);
  }, [confirmer]);

  useEffect(() => {
    if (session.restored.length > 0) {
      dispatch({ type: 'notice', tone: 'info', text: `resumed ${basename(session.info.transcriptPath)}: ${session.restored.length} messages` });
    }
  }, [session]);

  const notice = useCallback((text: string, tone: 'info' | 'error' = 'info') => dispatch({ type: 'notice', tone, text }), []);

  const runTurn = useCallback(
    async (text: string) => {
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'user', text });
      try {
        await session.agent.runTurn(text, { signal: abort.signal, onEvent: (event) => {
          if (event.type === 'rule-added') setGrants((current) => [...current, ...session.agent.currentPolicy.rules.filter((rule) => rule.text === event.rule).slice(-1)]);
          dispatch({ type: 'event', event, now: Date.now() });
        } });
      } catch (error) {
        dispatch({ type: 'event', event: { type: 'error', kind: 'internal', message: (error as Error).message }, now: Date.now() });
        dispatch({ type: 'event', event: { type: 'turn-end', reason: 'error', text: '' }, now: Date.now() });
      } finally {
        controller.current = undefined;
      }
    },
    [session],
  );

  const switchTo = useCallback(
    async (request: Parameters<AppProps['openSession']>[0]) => {
      try {
        const next = await openSession(request);
        await session.close();
        setSession(next);
        setGrants([]);
        notice(`${next.info.kind === 'sql' ? `SQL mode on ${next.info.database}` : 'chat mode'} (${next.info.mode})`);
      } catch (error) {
        notice((error as Error).message, 'error');
      }
    },
    [openSession, session, notice],
  );

  const command = useCallback(
    (line: string) => {
      const [name, ...rest] = line.slice(1).trim().split(/\s+/);
      const argument = rest.join(' ');
      switch (name) {
        case 'help':
          notice(HELP_TEXT);
          return;
        case 'exit':
        case 'quit':
          exit();
          return;
        case 'clear':
          dispatch({ type: 'clear' });
          return;
        case 'mode': {
          if (!(SAFETY_MODES as readonly string[]).includes(argument) || argument === 'yolo') {
            notice(`/mode takes strict, smart or guarded (yolo only with --yolo at start); now ${session.agent.currentPolicy.mode}`, 'error');
            return;
          }
          session.agent.setPolicy({ ...session.agent.currentPolicy, mode: argument as SafetyMode });
          setSession({ ...session, info: { ...session.info, mode: argument as SafetyMode } });
          notice(`safety mode: ${argument}`);
          return;
        }
        case 'rules': {
          const [verb, index] = rest;
          if (verb === 'revoke') {
            const grant = grants[Number(index) - 1];
            if (grant === undefined) {
              notice(`no grant number ${index ?? ''}; /rules lists them`, 'error');
              return;
            }
            session.agent.setPolicy({ ...session.agent.currentPolicy, rules: session.agent.currentPolicy.rules.filter((rule) => rule !== grant) });
            setGrants(grants.filter((rule) => rule !== grant));
            notice(`revoked: ${grant.text}`);
            return;
          }
          const configured = session.agent.currentPolicy.rules.filter((rule) => !grants.includes(rule));
          notice(
            [
              `"always allow" grants this session: ${grants.length === 0 ? 'none' : ''}`,
              ...grants.map((rule, position) => `  ${position + 1}. ${rule.text}   (/rules revoke ${position + 1})`),
              `rules from the config: ${configured.length === 0 ? 'none' : ''}`,
              ...configured.map((rule) => `  ${rule.effect} ${formatRule(rule.tool, rule.pattern)}`),
            ].join('\n'),
          );
          return;
        }
        case 'audit': {
          let entries: AuditEntry[] = [];
          try {
            entries = readFileSync(session.auditPath, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEntry);
          } catch {
            entries = [];
          }
          const last = entries.slice(-10);
          notice(
            last.length === 0
              ? 'no decisions yet'
              : last
                  .map((entry) => {
                    const ran = auditSubject(entry.args);
                    const edited = entry.proposedArgs === undefined ? '' : ` (edited from: ${auditSubject(entry.proposedArgs)})`;
                    const note = entry.note === undefined ? '' : ` · note: ${entry.note}`;
                    return `${entry.time.slice(11, 19)} ${entry.tool} ${ran}${edited} · ${entry.decision.action} by ${entry.decision.source}${entry.disagreement ? ' (model said low, code found it high)' : ''} → ${entry.outcome}${note}: ${entry.decision.reasons.join('; ')}`;
                  })
                  .join('\n'),
          );
          return;
        }
        case 'sql':
          void switchTo({ kind: 'sql', ...(argument === '' ? {} : { database: argument }) });
          return;
        case 'db':
          if (argument === '') notice(`database: ${session.info.database ?? 'none (chat mode)'}; /db <file or postgres:// URL> to switch`);
          else void switchTo({ kind: 'sql', database: argument });
          return;
        case 'chat':
          void switchTo({ kind: 'chat' });
          return;
        case 'view': {
          const items = [...conversation.done, ...conversation.live];
          const wanted = argument === '' ? items.findLast((item) => item.kind === 'tool') : items.find((item) => item.id === Number(argument));
          if (wanted?.kind !== 'tool') {
            notice(argument === '' ? 'no tool result yet' : `no tool result number ${argument}`, 'error');
            return;
          }
          const failure = openInPager(fullText(wanted));
          if (failure !== undefined) notice(failure, 'error');
          return;
        }
        case 'resume':
          void switchTo({ kind: session.info.kind, resume: argument === '' ? true : argument });
          return;
        default:
          notice(`unknown command /${name}; /help lists them`, 'error');
      }
    },
    [exit, notice, session, grants, switchTo, conversation],
  );

  const submit = useCallback(
    (value: string) => {
      const text = value.trim();
      setInput('');
      if (text === '') return;
      if (text.startsWith('/')) command(text);
      else void runTurn(text);
    },
    [command, runTurn],
  );

  // Ctrl-C cancels what runs, not the session; twice at an empty prompt exits.
  useInput((typed, key) => {
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
  const suggested = pending === undefined ? undefined : narrowestRule(pending.request.toolName, pending.request.ruleStyle, pending.request.subjects);
  const lastLive = conversation.live.at(-1);
  const thinking = conversation.busy && pending === undefined && !(lastLive?.kind === 'tool' && lastLive.state === 'executing') && lastLive?.kind !== 'assistant';
  const { info } = session;

  return (
    <Box flexDirection="column">
      <Static items={conversation.done as Item[]}>
        {(item) => (
          <Box key={item.id} marginBottom={item.kind === 'assistant' ? 1 : 0}>
            <ItemView item={item} width={width} />
          </Box>
        )}
      </Static>
      {conversation.live.map((item) => (
        <ItemView key={item.id} item={item} width={width} />
      ))}
      {thinking ? <Spinner since={Date.now()} label="thinking" /> : null}
      {pending === undefined ? null : <ConfirmPanel key={pending.request.toolCallId} request={pending.request} {...(suggested === undefined ? {} : { suggestedRule: suggested })} onAnswer={answer} {...(guardMs === undefined ? {} : { guardMs })} />}
      <Box>
        <Text color="blue" bold>
          {'› '}
        </Text>
        <TextInput
          value={input}
          onChange={setInput}
          onSubmit={submit}
          isActive={pending === undefined}
          canSubmit={!conversation.busy}
          placeholder={conversation.busy ? '' : 'Ask anything, or /help'}
        />
      </Box>
      <Text dimColor>
        {info.kind === 'sql' ? 'SQL' : 'chat'} · {info.mode}
        {info.database === undefined ? '' : ` · ${info.database.startsWith('postgres') ? info.database : basename(info.database)}`} · {info.model}
        {configNotice === undefined ? '' : ' · project settings ignored until "riskgate trust"'}
      </Text>
    </Box>
  );
}
