import { lazyGraphemeSegmenter } from './graphemes.js';

/**
 * The prompt's text and cursor as a pure state, with the editing a terminal user expects
 * (readline's keys): tested without a terminal, driven by TextInput.
 */
export interface EditorState {
  readonly text: string;
  /** Offset into text, in UTF-16 units, always on a grapheme boundary. */
  readonly cursor: number;
}

export type EditorAction =
  | { readonly type: 'insert'; readonly text: string }
  | { readonly type: 'backspace' }
  | { readonly type: 'delete-forward' }
  | { readonly type: 'left' }
  | { readonly type: 'right' }
  | { readonly type: 'line-start' }
  | { readonly type: 'line-end' }
  | { readonly type: 'word-left' }
  | { readonly type: 'word-right' }
  | { readonly type: 'delete-word-back' }
  | { readonly type: 'kill-to-line-start' }
  | { readonly type: 'kill-to-line-end' }
  | { readonly type: 'up' }
  | { readonly type: 'down' }
  | { readonly type: 'set'; readonly text: string };

const segmenter = lazyGraphemeSegmenter();

/** Grapheme boundaries of a text: an emoji or an accented letter moves and deletes as one. */
function boundaries(text: string): number[] {
  const result = [0];
  for (const { index, segment } of segmenter.segment(text)) result.push(index + segment.length);
  return result;
}

function previousBoundary(text: string, cursor: number): number {
  const all = boundaries(text);
  for (let index = all.length - 1; index >= 0; index--) if (all[index]! < cursor) return all[index]!;
  return 0;
}

function nextBoundary(text: string, cursor: number): number {
  for (const boundary of boundaries(text)) if (boundary > cursor) return boundary;
  return text.length;
}

const lineStart = (text: string, cursor: number) => text.lastIndexOf('\n', cursor - 1) + 1;
const lineEnd = (text: string, cursor: number) => {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
};

function wordLeft(text: string, cursor: number): number {
  let position = cursor;
  while (position > 0 && /\s/.test(text[position - 1]!)) position--;
  while (position > 0 && !/\s/.test(text[position - 1]!)) position--;
  return position;
}

function wordRight(text: string, cursor: number): number {
  let position = cursor;
  while (position < text.length && /\s/.test(text[position]!)) position++;
  while (position < text.length && !/\s/.test(text[position]!)) position++;
  return position;
}

/** Terminals send CR for Enter and CRLF/CR in pastes: the text keeps plain newlines. */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function isOnFirstLine(state: EditorState): boolean {
  return !state.text.slice(0, state.cursor).includes('\n');
}

export function isOnLastLine(state: EditorState): boolean {
  return !state.text.slice(state.cursor).includes('\n');
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { text, cursor } = state;
  const splice = (from: number, to: number, insert = ''): EditorState => ({
    text: text.slice(0, from) + insert + text.slice(to),
    cursor: from + insert.length,
  });
  switch (action.type) {
    case 'insert':
      return splice(cursor, cursor, normaliseNewlines(action.text));
    case 'backspace':
      return cursor === 0 ? state : splice(previousBoundary(text, cursor), cursor);
    case 'delete-forward':
      return cursor === text.length ? state : splice(cursor, nextBoundary(text, cursor));
    case 'left':
      return { text, cursor: previousBoundary(text, cursor) };
    case 'right':
      return { text, cursor: nextBoundary(text, cursor) };
    case 'line-start':
      return { text, cursor: lineStart(text, cursor) };
    case 'line-end':
      return { text, cursor: lineEnd(text, cursor) };
    case 'word-left':
      return { text, cursor: wordLeft(text, cursor) };
    case 'word-right':
      return { text, cursor: wordRight(text, cursor) };
    case 'delete-word-back':
      return splice(wordLeft(text, cursor), cursor);
    case 'kill-to-line-start':
      return splice(lineStart(text, cursor), cursor);
    case 'kill-to-line-end': {
      const end = lineEnd(text, cursor);
      // At the end of a line, Ctrl-K joins the next one (as readline and emacs do).
      return splice(cursor, end === cursor && end < text.length ? end + 1 : end);
    }
    case 'up':
    case 'down': {
      const start = lineStart(text, cursor);
      const column = cursor - start;
      if (action.type === 'up') {
        if (start === 0) return state;
        const previousStart = lineStart(text, start - 1);
        return { text, cursor: Math.min(previousStart + column, start - 1) };
      }
      const end = lineEnd(text, cursor);
      if (end === text.length) return state;
      const nextStart = end + 1;
      return { text, cursor: Math.min(nextStart + column, lineEnd(text, nextStart)) };
    }
    case 'set':
      return { text: action.text, cursor: action.text.length };
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
