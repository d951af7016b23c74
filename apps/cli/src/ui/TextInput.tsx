import { Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { terminalText } from '../terminal-text.js';
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  isOnFirstLine,
  isOnLastLine,
  normaliseNewlines,
} from './editor.js';
import { lazyGraphemeSegmenter } from './graphemes.js';
import type { InputHistory } from './input-history.js';

const segmenter = lazyGraphemeSegmenter();

export interface TextInputProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onCancel?: () => void;
  /** Ctrl-D on an empty input (as in a shell). */
  readonly onEndOfInput?: () => void;
  readonly isActive: boolean;
  /** When false, typing still fills the box but Enter waits (the assistant is busy). */
  readonly canSubmit?: boolean;
  readonly placeholder?: string;
  /** ↑/↓ on the first/last line walk this history; submitted entries are added to it. */
  readonly history?: InputHistory;
  /** ↑ on an empty input: a text to edit instead of the history's (the queued messages), if any. */
  readonly onRecall?: () => string | undefined;
  /** Ctrl-G: edit the text in $VISUAL/$EDITOR (external-editor.ts); told when the editor failed. */
  readonly onEditorError?: (message: string) => void;
  /** The temporary file's ending for Ctrl-G (an editor highlights by it): `.sql` for SQL. */
  readonly editorSuffix?: string;
}

/** Bracketed paste (xterm, tmux, every modern terminal): Ink passes the markers as these inputs. */
const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** Control characters that edit when they arrive inside a chunk of text. */
const CONTROL_KEYS: Record<string, EditorAction> = {
  '\u007F': { type: 'backspace' },
  '\b': { type: 'backspace' },
  '\u0017': { type: 'delete-word-back' },
  '\u0001': { type: 'line-start' },
  '\u0005': { type: 'line-end' },
  '\u0002': { type: 'left' },
  '\u0006': { type: 'right' },
  '\u0015': { type: 'kill-to-line-start' },
  '\u000B': { type: 'kill-to-line-end' },
};

/**
 * The prompt editor: multi-line (a paste keeps its lines; Alt+Enter or `\` then Enter adds a
 * line), cursor and word movement (←/→, Ctrl/Alt+←/→, Home/End, Ctrl-A/E/B/F, Alt-B/F),
 * deletion (Backspace, Ctrl-D, Ctrl-W, Alt+Backspace, Ctrl-U, Ctrl-K), ↑/↓ through lines and
 * then the history, Ctrl-G in $VISUAL/$EDITOR. State is read through a ref, so keys arriving before React re-renders are
 * never applied to a stale value.
 */
export function TextInput({
  value,
  onChange,
  onSubmit,
  onCancel,
  onEndOfInput,
  isActive,
  canSubmit = true,
  placeholder,
  history,
  ...more
}: TextInputProps) {
  const state = useRef<EditorState>({ text: value, cursor: value.length });
  const pasting = useRef(false);
  // The parent owns the text (it clears it after a submit): follow it when it changes.
  if (state.current.text !== value) state.current = { text: value, cursor: value.length };
  // The cursor lives here: a move that leaves the text alone still has to redraw.
  const [, redraw] = useState(0);
  const apply = (action: EditorAction) => {
    const next = editorReducer(state.current, action);
    const changed = next.text !== state.current.text;
    state.current = next;
    if (changed) onChange(next.text);
    redraw((tick) => tick + 1);
  };
  const submit = (text: string) => {
    if (!canSubmit) return;
    history?.add(text);
    // What follows in the same chunk belongs to the next message.
    state.current = { text: '', cursor: 0 };
    onSubmit(text);
  };

  /** Enter: sends the text, unless the line ends in `\\`, which continues it on a new line. */
  const enter = () => {
    const { text, cursor } = state.current;
    if (text.slice(0, cursor).endsWith('\\')) {
      apply({ type: 'backspace' });
      apply({ type: 'insert', text: '\n' });
    } else submit(text);
  };

  useInput(
    (input, key) => {
      const current = state.current;
      if (input === PASTE_START) {
        pasting.current = true;
        return;
      }
      if (input === PASTE_END) {
        pasting.current = false;
        return;
      }
      if (pasting.current) {
        // Inside a paste every newline is text: a pasted question never sends itself half-way.
        apply({ type: 'insert', text: key.return ? '\n' : input });
        return;
      }
      if (outsideKey(input, key, current.text, more, (text) => apply({ type: 'set', text }))) return;
      const result = keyAction(input, key, current, history);
      if (result === undefined) return;
      if (result.kind === 'apply') apply(result.action);
      else if (result.kind === 'enter') enter();
      else if (result.kind === 'cancel') onCancel?.();
      else if (result.kind === 'end-of-input') onEndOfInput?.();
      else if (result.kind === 'typed')
        for (const step of chunkSteps(result.text)) step === 'enter' ? enter() : apply(step);
    },
    { isActive },
  );
  return <EditorText state={state.current} placeholder={placeholder} isActive={isActive} />;
}

/**
 * The cursor: the character under it in reverse video, written as the terminal's own SGR 7/27
 * rather than through chalk, which drops every attribute when colours are off. NO_COLOR asks
 * for no colour (https://no-color.org); reverse video is not a colour, and without it the
 * person would type blind.
 */
const cursorText = (under: string): string => `\u001B[7m${under}\u001B[27m`;

/** Ctrl-G (the text in $EDITOR) and ↑ on an empty input (the queue): texts from outside the editor. */
function outsideKey(
  input: string,
  key: Key,
  text: string,
  { onRecall, onEditorError, editorSuffix }: Pick<TextInputProps, 'onRecall' | 'onEditorError' | 'editorSuffix'>,
  set: (text: string) => void,
): boolean {
  if (key.ctrl && input === 'g') {
    openEditor(text, editorSuffix, set, onEditorError);
    return true;
  }
  const recalled = key.upArrow && text === '' ? onRecall?.() : undefined;
  if (recalled !== undefined) set(recalled);
  return recalled !== undefined;
}

/** Ctrl-G: the text in $EDITOR, loaded on first use (the first frame does not pay for child_process). */
function openEditor(
  text: string,
  suffix: string | undefined,
  done: (text: string) => void,
  failed: ((message: string) => void) | undefined,
): void {
  void import('./external-editor.js').then(({ editInEditor }) => {
    const edited = editInEditor(text, suffix === undefined ? {} : { suffix });
    if ('text' in edited) done(edited.text);
    else failed?.(edited.error);
  });
}

/** The text with its cursor (a placeholder when empty). */
function EditorText({
  state,
  placeholder,
  isActive,
}: {
  readonly state: EditorState;
  readonly placeholder: string | undefined;
  readonly isActive: boolean;
}) {
  const { text, cursor } = state;
  if (text === '' && placeholder !== undefined && isActive) {
    return (
      <Text>
        {cursorText(' ')}
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  if (text === '' && placeholder !== undefined) return <Text dimColor>{placeholder}</Text>;
  // A text to edit may come from the model (the panel's `e`): its control characters show as codes.
  if (!isActive) return <Text>{terminalText(text)}</Text>;
  const at = segmenter.segment(text.slice(cursor)).containing(0)?.segment ?? '';
  const under = at === '' || at === '\n' ? ' ' : at;
  return (
    <Text>
      {terminalText(text.slice(0, cursor))}
      {cursorText(terminalText(under))}
      {at === '\n' ? '\n' : ''}
      {terminalText(text.slice(cursor + at.length))}
    </Text>
  );
}

type Key = Parameters<Parameters<typeof useInput>[0]>[1];

type KeyResult =
  | { readonly kind: 'apply'; readonly action: EditorAction }
  | { readonly kind: 'enter' | 'cancel' | 'end-of-input' }
  | { readonly kind: 'typed'; readonly text: string }
  | undefined;

/** Ctrl+letter keys that edit. */
const CTRL_ACTIONS: Readonly<Record<string, EditorAction>> = {
  a: { type: 'line-start' },
  e: { type: 'line-end' },
  b: { type: 'left' },
  f: { type: 'right' },
  u: { type: 'kill-to-line-start' },
  k: { type: 'kill-to-line-end' },
  w: { type: 'delete-word-back' },
};

/** What one key (outside a paste) does to the editor. */
function keyAction(input: string, key: Key, current: EditorState, history: TextInputProps['history']): KeyResult {
  const apply = (action: EditorAction) => ({ kind: 'apply', action }) as const;
  if (key.return) return key.meta ? apply({ type: 'insert', text: '\n' }) : { kind: 'enter' };
  if (key.escape) return { kind: 'cancel' };
  if (key.backspace || key.delete) return apply({ type: key.meta ? 'delete-word-back' : 'backspace' });
  if (key.leftArrow) return apply({ type: key.ctrl || key.meta ? 'word-left' : 'left' });
  if (key.rightArrow) return apply({ type: key.ctrl || key.meta ? 'word-right' : 'right' });
  if (key.upArrow) {
    const entry = history !== undefined && isOnFirstLine(current) ? history.previous(current.text) : undefined;
    return apply(entry === undefined ? { type: 'up' } : { type: 'set', text: entry });
  }
  if (key.downArrow) {
    const entry = history !== undefined && isOnLastLine(current) ? history.next() : undefined;
    return apply(entry === undefined ? { type: 'down' } : { type: 'set', text: entry });
  }
  if (key.home) return apply({ type: 'line-start' });
  if (key.end) return apply({ type: 'line-end' });
  if (key.ctrl) {
    if (input === 'd') return current.text === '' ? { kind: 'end-of-input' } : apply({ type: 'delete-forward' });
    const action = CTRL_ACTIONS[input];
    return action === undefined ? undefined : apply(action);
  }
  if (key.meta && (input === 'b' || input === 'f')) return apply({ type: input === 'b' ? 'word-left' : 'word-right' });
  if (!key.meta && !key.tab && input !== '') return { kind: 'typed', text: normaliseNewlines(input) };
  return undefined;
}

/**
 * Text that arrived in one piece: fast typing, a slow frame, or a paste without paste markers.
 * Control keys inside it still edit; newlines between text are a paste's lines (a paste never
 * sends itself), a newline at either end is Enter.
 */
function chunkSteps(text: string): (EditorAction | 'enter')[] {
  const pasted = /[^\n]\n+[^\n]/.test(text);
  const steps: (EditorAction | 'enter')[] = [];
  for (const [piece] of text.matchAll(/[\u0000-\u001F\u007F]|[^\u0000-\u001F\u007F]+/g)) {
    if (piece === '\n') steps.push(pasted ? { type: 'insert', text: '\n' } : 'enter');
    else if (CONTROL_KEYS[piece] !== undefined) steps.push(CONTROL_KEYS[piece]);
    else if (piece.length > 1 || piece >= ' ') steps.push({ type: 'insert', text: piece });
  }
  return steps;
}
