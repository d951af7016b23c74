import type { AgentEvent, ToolCallState } from '@riskgate/core';
import type { Decision, OperationDescription } from '@riskgate/risk';
import { retryText } from '../retry-text.js';
import { terminalText } from '../terminal-text.js';

/** warning: something the person should know before the first turn, such as an untrusted project. */
export type NoticeTone = 'info' | 'warning' | 'error';

export type Item =
  | { readonly kind: 'user'; readonly id: number; readonly text: string }
  | { readonly kind: 'assistant'; readonly id: number; readonly text: string; readonly question: boolean }
  | {
      readonly kind: 'tool';
      readonly id: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly argumentsText: string;
      /** One line naming the call (the tool's `title`). */
      readonly title: string;
      readonly state: ToolCallState;
      readonly decision?: Decision;
      readonly output: string;
      readonly result?: { readonly forModel: string; readonly data?: unknown; readonly durationMs: number };
      readonly startedAt: number;
      /** What the person was asked about (a file's diff): it stays in the history after the answer. */
      readonly asked?: OperationDescription;
    }
  | { readonly kind: 'notice'; readonly id: number; readonly tone: NoticeTone; readonly text: string }
  /** What the model thought before it answered: dimmed, its last lines while it comes, one line once it is done. */
  | { readonly kind: 'reasoning'; readonly id: number; readonly text: string; readonly done: boolean };

export interface ConversationState {
  /** Finished turns: rendered once, in <Static>. */
  readonly done: readonly Item[];
  /** The turn in progress. */
  readonly live: readonly Item[];
  readonly busy: boolean;
  readonly nextId: number;
  /** Bumped when the screen is cleared or redrawn: <Static> starts over with a new key. */
  readonly generation: number;
  /** The last tool calls already printed, for /view. */
  readonly archive: readonly ToolItem[];
  /** The last items already printed and let go of `done`: printed again when a resize redraws the screen. */
  readonly printed: readonly Item[];
}

type ToolItem = Extract<Item, { kind: 'tool' }>;

/** Tool calls /view can still open once they scrolled by. */
export const ARCHIVED_TOOL_CALLS = 50;
/** Items a resize prints again (older ones stay as the terminal re-flowed them): memory stays flat. */
export const REDRAWN_ITEMS = 60;

export const INITIAL_CONVERSATION: ConversationState = {
  done: [],
  live: [],
  busy: false,
  nextId: 1,
  generation: 0,
  archive: [],
  printed: [],
};

export type ConversationAction =
  | { readonly type: 'user'; readonly text: string }
  | { readonly type: 'event'; readonly event: AgentEvent; readonly now: number }
  | { readonly type: 'notice'; readonly tone: NoticeTone; readonly text: string }
  | { readonly type: 'clear' }
  /** The screen was cleared for a new width: print the kept transcript again. */
  | { readonly type: 'redraw' }
  /** A resumed conversation, redrawn from its messages. */
  | { readonly type: 'restore'; readonly items: readonly Item[] };

const OUTPUT_KEPT = 4_000;

/** The conversation on screen, as a pure function of what happened: tested without rendering. */
export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'user': {
      // What <Static> printed is on the screen for good: the state lets it go (a long session's
      // memory stays flat), keeping the last tool calls for /view. A new <Static> (generation)
      // prints only what was not printed yet.
      const printed = state.done.filter((item): item is ToolItem => item.kind === 'tool');
      const again = new Set(printed.map((item) => item.id));
      return {
        ...state,
        archive: [...state.archive.filter((item) => !again.has(item.id)), ...printed].slice(-ARCHIVED_TOOL_CALLS),
        printed: [...state.printed, ...state.done].slice(-REDRAWN_ITEMS),
        done: state.live,
        live: [{ kind: 'user', id: state.nextId, text: action.text }],
        busy: true,
        nextId: state.nextId + 1,
        generation: state.generation + 1,
      };
    }
    case 'notice': {
      const notice: Item = { kind: 'notice', id: state.nextId, tone: action.tone, text: action.text };
      return state.busy
        ? { ...state, live: [...state.live, notice], nextId: state.nextId + 1 }
        : { ...state, done: [...state.done, notice], nextId: state.nextId + 1 };
    }
    case 'redraw':
      return { ...state, done: [...state.printed, ...state.done], printed: [], generation: state.generation + 1 };
    case 'clear':
      return {
        ...INITIAL_CONVERSATION,
        nextId: state.nextId,
        generation: state.generation + 1,
        archive: state.archive,
      };
    case 'restore': {
      const items = action.items.map((item, index) => ({ ...item, id: state.nextId + index }));
      return {
        ...INITIAL_CONVERSATION,
        done: items,
        nextId: state.nextId + items.length,
        generation: state.generation + 1,
      };
    }
    case 'event':
      return applyEvent(state, action.event, action.now);
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

function updateTool(
  state: ConversationState,
  toolCallId: string,
  update: (item: Extract<Item, { kind: 'tool' }>) => Item,
): ConversationState {
  return {
    ...state,
    live: state.live.map((item) => (item.kind === 'tool' && item.toolCallId === toolCallId ? update(item) : item)),
  };
}

/** A new item at the end of the live turn, with the next id. */
function appended(state: ConversationState, item: DistributiveOmit<Item, 'id'>): ConversationState {
  return { ...state, live: [...state.live, { ...item, id: state.nextId } as Item], nextId: state.nextId + 1 };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A notice line in the live turn (errors, retries, trimmed context, rules added). */
function notice(state: ConversationState, tone: NoticeTone, text: string): ConversationState {
  return appended(state, { kind: 'notice', tone, text });
}

/**
 * Text from the model and from tools is kept as it will be drawn: every control and escape
 * sequence shown as its code (terminalText), so nothing it holds reaches the person's terminal.
 */
function applyEvent(state: ConversationState, event: AgentEvent, now: number): ConversationState {
  switch (event.type) {
    case 'reasoning-delta': {
      const text = terminalText(event.text);
      const last = state.live.at(-1);
      if (last?.kind === 'reasoning' && !last.done)
        return { ...state, live: [...state.live.slice(0, -1), { ...last, text: last.text + text }] };
      return appended(state, { kind: 'reasoning', text, done: false });
    }
    case 'refusal':
      return notice(closeReasoning(state), 'warning', `The model refused: ${terminalText(event.text)}`);
    case 'text-delta': {
      const text = terminalText(event.text);
      const current = closeReasoning(state);
      const last = current.live.at(-1);
      if (last?.kind === 'assistant') {
        return { ...current, live: [...current.live.slice(0, -1), { ...last, text: last.text + text }] };
      }
      return appended(current, { kind: 'assistant', text, question: false });
    }
    case 'tool-call': {
      const { toolCallId, toolName, argumentsText, title } = event;
      const item = { kind: 'tool', toolCallId, toolName, argumentsText, title, output: '', startedAt: now } as const;
      return appended(closeReasoning(state), { ...item, state: 'validating' });
    }
    case 'tool-state':
    case 'decision':
    case 'tool-output':
    case 'tool-result':
      return updateTool(state, event.toolCallId, (item) => applyToolEvent(item, event, now));
    case 'tool-approval-request':
      return updateTool(state, event.request.toolCallId, (item) => ({ ...item, asked: event.request.description }));
    case 'tool-approval-answer':
      // An edit runs other arguments: the diff asked about is not what ran.
      return event.answer.type === 'edit'
        ? updateTool(state, event.toolCallId, ({ asked: _asked, ...item }) => item)
        : state;
    case 'error':
      return notice(state, 'error', terminalText(event.message));
    case 'retry':
      return notice(state, 'info', terminalText(`${retryText(event)} — Esc to stop`));
    case 'context-trimmed': {
      const tokens = event.tokensSaved.toLocaleString('en-US');
      const results = `${event.results} old tool ${event.results === 1 ? 'result' : 'results'}`;
      const text = `kept the conversation within the model's context (≈${Math.round(event.budget / 1000)}k tokens): ${results} replaced by a note (≈${tokens} tokens)`;
      return notice(state, 'info', text);
    }
    case 'rule-added':
      return notice(state, 'info', `always allowed from now on: ${terminalText(event.rule)}`);
    case 'turn-end':
      return endTurn(closeReasoning(state), event.reason);
    // Headless JSON reports it; the screen does not.
    case 'usage':
    // Shown where it matters: guarded mode's decisions name the untrusted source in their reasons.
    case 'untrusted-content':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The model's reasoning is done once its answer, a tool call or the turn's end comes: it folds to one line. */
function closeReasoning(state: ConversationState): ConversationState {
  const last = state.live.at(-1);
  if (last?.kind !== 'reasoning' || last.done) return state;
  return { ...state, live: [...state.live.slice(0, -1), { ...last, done: true }] };
}

type ToolEvent = Extract<AgentEvent, { type: 'tool-state' | 'decision' | 'tool-output' | 'tool-result' }>;

function applyToolEvent(item: ToolItem, event: ToolEvent, now: number): ToolItem {
  switch (event.type) {
    case 'tool-state':
      return { ...item, state: event.state, ...(event.state === 'executing' ? { startedAt: now } : {}) };
    case 'decision':
      return { ...item, decision: event.decision };
    case 'tool-output':
      return { ...item, output: (item.output + terminalText(event.chunk)).slice(-OUTPUT_KEPT) };
    case 'tool-result':
      return {
        ...item,
        state: event.state,
        // Kept as it came (/send hands it to the model); ToolView and /view show it through terminalText.
        result: {
          forModel: event.forPerson ?? event.forModel,
          ...(event.data === undefined ? {} : { data: event.data }),
          durationMs: event.durationMs,
        },
      };
  }
}

/** The turn moves to `done`; a reply that ends in a question is shown as one (the answer continues the turn). */
function endTurn(
  state: ConversationState,
  reason: Extract<AgentEvent, { type: 'turn-end' }>['reason'],
): ConversationState {
  const live = state.live.map((item, index) =>
    item.kind === 'assistant' && index === state.live.length - 1 && reason === 'answered'
      ? { ...item, question: /\?\s*$/.test(item.text) }
      : item,
  );
  // A cancelled call's own line already says so: the turn adds no second "cancelled".
  const cancelled: Item[] =
    reason === 'cancelled' && !live.some((item) => item.kind === 'tool' && item.state === 'cancelled')
      ? [{ kind: 'notice', id: state.nextId, tone: 'info', text: cancelledText(live.at(-1)) }]
      : [];
  return {
    ...state,
    done: [...state.done, ...live, ...cancelled],
    live: [],
    busy: false,
    nextId: state.nextId + cancelled.length,
  };
}

/** The one line a cancelled turn ends with: what is above it, when an answer was cut short. */
function cancelledText(last: Item | undefined): string {
  return last?.kind === 'assistant' && last.text !== '' ? 'cancelled: the answer above was interrupted' : 'cancelled';
}
