import { readFileSync } from 'node:fs';
import { type AuditEntry, isStricterMode, withheldOriginal } from '@riskgate/core';
import { disagreementText, formatRule, type Rule, SAFETY_MODES, type SafetyMode } from '@riskgate/risk';
import type { ConversationKind, Session } from '../session/create-session.js';
import { ARCHIVED_TOOL_CALLS, type ConversationState } from './conversation.js';
import { fullText } from './history-text.js';
import { undoCommand } from './undo-command.js';
import { terminalText } from '../terminal-text.js';
import { openInPager } from './pager.js';
import { compactionText } from './use-turns.js';

export const HELP_TEXT = `Commands:
  /sql [db]      SQL mode, on a database (a SQLite file or postgres:// URL) or the demo;
                 the conversation and the model go on
  /chat          chat mode: commands, files, HTTP (the conversation goes on)
  /db <target>   SQL mode on another database (the conversation goes on)
  /mode <m>      safety mode: strict | smart | guarded (kept when you switch conversations)
  /model [name]  pick from the endpoint's models (or /model N from the list), or switch by name
  /rules         list rules; /rules revoke N removes an "always allow" grant
  /audit         the last decisions and why
  /view [N]      tool call N (the last without N) whole, in $PAGER: the diff you approved
                 and its result (the history shows them collapsed); also the model's
                 reasoning N (folded on screen)
  /send [N]      send the model the original of result N, of which secrets were withheld
                 (the last such result without N)
  /undo [N]      put back the files the last change (or change N of /undo list) wrote,
                 deleted or moved; refused when they changed since (/undo N --force)
  /undo list     what each kept change would restore (time, tool, paths)
  /compact       replace the earlier turns by a summary the model writes (also done when the context runs low)
  /resume [id]   continue an earlier conversation (a picker without an id)
  /clear         clear the screen and start a new conversation (the old one can be resumed)
  /help          this help
  /exit          quit (or Ctrl-D, or Ctrl-C twice at an empty prompt)
Prompt: Enter sends (queues while the model works; ↑ on an empty prompt edits the queue)
        Alt+Enter or \\ then Enter: new line · ↑/↓ history · Ctrl-G: $EDITOR · Esc interrupts
        Shift+Tab: next safety mode (smart → strict → guarded)
Panels: y yes · n, Enter or Esc no · m no with a note · a always allow · e edit (Ctrl-G: $EDITOR)
        ↑↓ PgUp PgDn Home End scroll a long operation · v read it in $PAGER`;

export interface OpenRequest {
  readonly kind: ConversationKind;
  readonly database?: string;
  readonly resume?: string | true;
  /** The conversation goes on in the new mode (/sql, /db, /chat): its messages, model and transcript are kept. */
  readonly keep?: boolean;
}

/** What a slash command may touch in the app. */
export interface CommandContext {
  readonly session: Session;
  readonly setSession: (session: Session) => void;
  readonly grants: readonly Rule[];
  readonly setGrants: (grants: readonly Rule[]) => void;
  readonly conversation: ConversationState;
  readonly notice: (text: string, tone?: 'info' | 'error') => void;
  readonly exit: () => void;
  /** Clears the screen and the conversation shown. */
  readonly clearScreen: () => void;
  readonly switchTo: (request: OpenRequest) => Promise<void>;
  readonly openPicker: () => void;
  /** Opens the model picker over the prompt; `pick` is called with the chosen model. */
  readonly openModelPicker?: (models: readonly string[], pick: (model: string) => void) => void;
  /** Starts a turn with this text as the person's message. */
  readonly sendMessage: (text: string) => void;
}

type ToolItem = Extract<ConversationState['done'][number], { kind: 'tool' }>;

/**
 * The person's message that hands the model the original of a result the output guard withheld
 * from: `/send` (the last such result) or `/send N`. The person chose to; like an approval, what
 * they send is not guarded. Undefined with the reason when there is nothing to send.
 */
export function sendWithheldText(
  conversation: ConversationState,
  argument: string,
): { text: string } | { error: string } {
  const items = [...conversation.archive, ...conversation.done, ...conversation.live].filter(
    (item): item is ToolItem => item.kind === 'tool',
  );
  const withheld = (item: ToolItem) => (item.result === undefined ? undefined : withheldOriginal(item.result.forModel));
  const wanted =
    argument === ''
      ? items.findLast((item) => withheld(item) !== undefined)
      : items.find((item) => item.id === Number(argument));
  if (wanted === undefined)
    return {
      error: argument === '' ? 'no result had anything withheld from the model' : `no tool result number ${argument}`,
    };
  const found = withheld(wanted);
  if (found === undefined) return { error: `nothing of result ${wanted.id} was withheld from the model` };
  return {
    text: `Here is the whole result of ${wanted.toolName} (#${wanted.id}), with what was withheld from you (${found.withheld}):\n\n${found.original}`,
  };
}

/** The operation of an audit line in a few words: its title (older logs: its arguments). */
function auditSubject(entry: AuditEntry): string {
  return flatArguments(entry.args, entry.title);
}

function flatArguments(args: unknown, title?: string): string {
  const flat = (title ?? JSON.stringify(args) ?? '').replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

export function auditText(path: string): string {
  let lines: string[] = [];
  try {
    lines = readFileSync(path, 'utf8').split('\n');
  } catch {
    lines = [];
  }
  const entries: AuditEntry[] = [];
  for (const line of lines) {
    try {
      if (line.trim() !== '') entries.push(JSON.parse(line) as AuditEntry);
    } catch {
      // A line cut short by a crash: the others are still worth showing.
    }
  }
  // One line per call: its outcome, or — for a call that started and never ended — that it was interrupted.
  const ended = new Set(entries.filter((entry) => entry.outcome !== 'started').map((entry) => entry.toolCallId));
  const last = entries.filter((entry) => entry.outcome !== 'started' || !ended.has(entry.toolCallId)).slice(-10);
  if (last.length === 0) return 'no decisions yet';
  return last
    .map((entry) => {
      const edited =
        entry.proposedArgs === undefined
          ? ''
          : ` (edited from: ${flatArguments(entry.proposedArgs, entry.proposedTitle)})`;
      const note =
        (entry.note === undefined ? '' : ` · note: ${entry.note}`) +
        (entry.refusal === undefined ? '' : ` · refused for lack of consent: ${entry.refusal}`);
      const disagreement = entry.disagreement
        ? ` (${disagreementText({ llmLevel: entry.llmLevel, codeLevel: entry.code.level })})`
        : '';
      const outcome =
        (entry.outcome === 'started'
          ? 'interrupted (may have partly run)'
          : entry.outcome === 'unknown'
            ? 'outcome unknown (may have run)'
            : entry.outcome) + (entry.partial === true ? ' (stopped part-way: partly ran)' : '');
      return `${entry.time.slice(11, 19)} ${entry.tool} ${auditSubject(entry)}${edited} · ${entry.decision.action} by ${entry.decision.managed === true ? "your organisation's policy" : entry.decision.source}${disagreement} → ${outcome}${note}: ${entry.decision.reasons.join('; ')}`;
    })
    .join('\n');
}

function rulesText(session: Session, grants: readonly Rule[]): string {
  const configured = session.agent.currentPolicy.rules.filter((rule) => !grants.includes(rule));
  return [
    `"always allow" grants this session: ${grants.length === 0 ? 'none' : ''}`,
    ...grants.map((rule, position) => `  ${position + 1}. ${rule.text}   (/rules revoke ${position + 1})`),
    `rules from the config: ${configured.length === 0 ? 'none' : ''}`,
    ...configured.map((rule) => `  ${rule.effect} ${formatRule(rule.tool, rule.pattern)}`),
    ...(session.agent.currentPolicy.managed?.rules ?? []).map(
      (rule) => `  ${rule.effect} ${formatRule(rule.tool, rule.pattern)}   (your organisation's policy)`,
    ),
  ].join('\n');
}

type Handler = (argument: string, words: readonly string[], context: CommandContext) => void;

/** Each slash command, by name; /help lists them (HELP_TEXT). */
const COMMANDS: Readonly<Record<string, Handler>> = {
  help: (_argument, _words, { notice }) => notice(HELP_TEXT),
  exit: (_argument, _words, context) => context.exit(),
  quit: (_argument, _words, context) => context.exit(),
  clear: (_argument, _words, context) => {
    const { info } = context.session;
    context.clearScreen();
    void context.switchTo({ kind: info.kind, ...(info.database === undefined ? {} : { database: info.database }) });
  },
  mode: setMode,
  compact: (_argument, _words, { session, notice }) => {
    notice('compacting the earlier conversation…');
    void session.agent
      .compact()
      .then((outcome) => notice(compactionText(outcome), outcome.compacted ? 'info' : 'error'));
  },
  model: setModel,
  rules: rulesCommand,
  audit: (_argument, _words, { notice, session }) => notice(auditText(session.auditPath)),
  sql: (argument, _words, context) =>
    void context.switchTo({ kind: 'sql', keep: true, ...(argument === '' ? {} : { database: argument }) }),
  db: (argument, _words, context) => {
    if (argument !== '') void context.switchTo({ kind: 'sql', database: argument, keep: true });
    else
      context.notice(
        `database: ${context.session.info.database ?? 'none (chat mode)'}; /db <file or postgres:// URL> to switch`,
      );
  },
  chat: (_argument, _words, context) => void context.switchTo({ kind: 'chat', keep: true }),
  view: viewResult,
  send: (argument, _words, context) => {
    const sent = sendWithheldText(context.conversation, argument);
    if ('error' in sent) context.notice(sent.error, 'error');
    else context.sendMessage(sent.text);
  },
  undo: (_argument, words, { session, notice, conversation }) =>
    // Files put back while a call may be writing them would race it: the turn ends first.
    conversation.busy && words[0] !== 'list'
      ? notice('/undo waits until the model has finished (Esc stops it)', 'error')
      : void undoCommand(words, {
          checkpoints: session.checkpoints,
          audit: session.audit,
          sessionId: session.id,
          addNote: (text) => session.agent.addNote(text),
          notice,
        }),
  resume: (argument, _words, context) => {
    if (argument === '') context.openPicker();
    else void context.switchTo({ kind: context.session.info.kind, resume: argument });
  },
};

export function runSlashCommand(line: string, context: CommandContext): void {
  const [name = '', ...words] = line.slice(1).trim().split(/\s+/);
  const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (handler === undefined) context.notice(`unknown command /${name}; /help lists them`, 'error');
  else handler(words.join(' '), words, context);
}

function setMode(argument: string, _words: readonly string[], context: CommandContext): void {
  applyMode(argument, context);
}

/** The order Shift+Tab walks: yolo is never in it (only --yolo at start turns it on). */
export const HOTKEY_MODES: readonly SafetyMode[] = ['smart', 'strict', 'guarded'];

/**
 * The mode after `current` in HOTKEY_MODES that the organisation's floor allows (the floor
 * itself when none is, as /mode does). From yolo the walk starts at smart.
 */
export function nextHotkeyMode(current: SafetyMode, floor: SafetyMode | undefined): SafetyMode {
  const start = HOTKEY_MODES.indexOf(current);
  for (let step = 1; step <= HOTKEY_MODES.length; step++) {
    const candidate = HOTKEY_MODES[(start + step) % HOTKEY_MODES.length]!;
    if (floor === undefined || !isStricterMode(floor, candidate)) return candidate;
  }
  return floor ?? 'smart';
}

/** Shift+Tab: the next safety mode, through the same checks as /mode. */
export function cycleMode(context: Pick<CommandContext, 'session' | 'notice' | 'setSession'>): void {
  const { currentPolicy } = context.session.agent;
  applyMode(nextHotkeyMode(currentPolicy.mode, currentPolicy.managed?.floor), context);
}

/** /mode and Shift+Tab: one place checks a mode against the managed floor and sets it. */
function applyMode(
  argument: string,
  { session, notice, setSession }: Pick<CommandContext, 'session' | 'notice' | 'setSession'>,
): void {
  const floor = session.agent.currentPolicy.managed?.floor;
  if (
    floor !== undefined &&
    (SAFETY_MODES as readonly string[]).includes(argument) &&
    isStricterMode(floor, argument as SafetyMode)
  ) {
    notice(
      `your organisation's policy sets the mode to at least ${floor}; now ${session.agent.currentPolicy.mode}`,
      'error',
    );
    return;
  }
  if (!(SAFETY_MODES as readonly string[]).includes(argument) || argument === 'yolo') {
    notice(
      `/mode takes strict, smart or guarded (yolo only with --yolo at start); now ${session.agent.currentPolicy.mode}`,
      'error',
    );
    return;
  }
  session.agent.setPolicy({ ...session.agent.currentPolicy, mode: argument as SafetyMode });
  setSession({ ...session, info: { ...session.info, mode: argument as SafetyMode } });
  notice(`safety mode: ${argument}`);
}

/** The models /model listed last, per agent: `/model N` picks the Nth of them. */
const listedModels = new WeakMap<object, readonly string[]>();

/**
 * /model lists the endpoint's models (the current one marked) and /model <name or number>
 * switches; the conversation goes on with the new model.
 */
function setModel(argument: string, _words: readonly string[], context: CommandContext): void {
  const { session, notice } = context;
  if (argument === '') {
    notice(`model: ${session.agent.model}; listing the endpoint's models…`);
    void listModelsNotice(context);
    return;
  }
  const listed = listedModels.get(session.agent);
  const picked = /^\d+$/.test(argument) && listed !== undefined ? listed[Number(argument) - 1] : argument;
  if (picked === undefined) {
    notice(`no model number ${argument}; /model lists them`, 'error');
    return;
  }
  switchModel(picked, context);
}

function switchModel(model: string, { session, notice, setSession }: CommandContext): void {
  session.agent.setModel(model);
  session.transcript.retarget({
    kind: session.info.kind,
    model,
    ...(session.transcript.session.database === undefined ? {} : { database: session.transcript.session.database }),
  });
  setSession({ ...session, info: { ...session.info, model } });
  notice(`model: ${model}`);
}

async function listModelsNotice(context: CommandContext): Promise<void> {
  const { session, notice } = context;
  const listed = await session.agent.listModels();
  if ('error' in listed) {
    notice(terminalText(listed.error), 'error');
    return;
  }
  if (listed.models.length === 0) {
    notice('the endpoint lists no models; /model <name> switches by name', 'error');
    return;
  }
  listedModels.set(session.agent, listed.models);
  const current = session.agent.model;
  context.openModelPicker?.(listed.models, (model) => switchModel(model, context));
  notice(
    [
      `models at the endpoint (${listed.models.length}); /model <number or name> switches:`,
      ...listed.models.map(
        (model, index) =>
          // Names come from the endpoint: control characters show as codes, never reach the terminal.
          `${model === current ? '*' : ' '} ${String(index + 1).padStart(2)}. ${terminalText(model)}${model === current ? '   (current)' : ''}`,
      ),
      ...(listed.models.includes(current) ? [] : [`  current: ${current} (not in the endpoint's list)`]),
    ].join('\n'),
  );
}

/** /rules lists the rules and this session's grants; /rules revoke N takes a grant back. */
function rulesCommand(_argument: string, words: readonly string[], context: CommandContext): void {
  const { session, notice, grants } = context;
  const [verb, index] = words;
  if (verb !== 'revoke') {
    notice(rulesText(session, grants));
    return;
  }
  const grant = grants[Number(index) - 1];
  if (grant === undefined) {
    notice(`no grant number ${index ?? ''}; /rules lists them`, 'error');
    return;
  }
  session.agent.setPolicy({
    ...session.agent.currentPolicy,
    rules: session.agent.currentPolicy.rules.filter((rule) => rule !== grant),
  });
  context.setGrants(grants.filter((rule) => rule !== grant));
  notice(`revoked: ${grant.text}`);
}

/** /view [N]: a tool result whole, in the pager. */
function viewResult(argument: string, _words: readonly string[], { conversation, notice }: CommandContext): void {
  const items = [...conversation.archive, ...conversation.done, ...conversation.live];
  const wanted =
    argument === ''
      ? items.findLast((item) => item.kind === 'tool')
      : items.find((item) => item.id === Number(argument));
  // The model's reasoning, folded to one line on screen, opens whole too.
  if (wanted?.kind === 'reasoning') {
    const failure = openInPager(wanted.text);
    if (failure !== undefined) notice(failure, 'error');
    return;
  }
  if (wanted?.kind !== 'tool') {
    notice(
      argument === ''
        ? 'no tool result yet'
        : `no tool result number ${argument} (the last ${ARCHIVED_TOOL_CALLS} are kept)`,
      'error',
    );
    return;
  }
  const failure = openInPager(fullText(wanted));
  if (failure !== undefined) notice(failure, 'error');
}
