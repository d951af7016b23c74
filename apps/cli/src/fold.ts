/** Lines of a result shown in the history before the middle is folded. */
export const HISTORY_LINES = 20;
/** How many of those come from the end: the exit code and the last error sit there. */
const TAIL_LINES = 8;

export interface Folded {
  readonly head: readonly string[];
  /** Lines not shown between head and tail; 0 when everything is shown. */
  readonly hidden: number;
  readonly tail: readonly string[];
}

/**
 * A long result folded for the history: its beginning and its end (where `[exit code 1]` is),
 * with the number of lines left out, never a silent cut. `/view N` shows it whole.
 */
export function foldLines(text: string, limit = HISTORY_LINES): Folded {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= limit) return { head: lines, hidden: 0, tail: [] };
  const tail = Math.min(TAIL_LINES, limit - 1);
  const head = limit - tail;
  return { head: lines.slice(0, head), hidden: lines.length - head - tail, tail: lines.slice(-tail) };
}
