import { useStdout } from 'ink';
import { type Dispatch, useEffect, useRef, useState } from 'react';
import type { ConversationAction } from './conversation.js';
import { clearTerminal } from './static-output.js';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

const sizeOf = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || 100,
  rows: stdout.rows || 40,
});

/**
 * The terminal's size, read again on every resize: what is wrapped or cut to the width (the
 * panel's lines, tables, spinners) is laid out anew, never kept at the width it first had.
 */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const update = () =>
      setSize((current) => {
        const next = sizeOf(stdout);
        return next.columns === current.columns && next.rows === current.rows ? current : next;
      });
    stdout.on('resize', update);
    update();
    return () => {
      stdout.off('resize', update);
    };
  }, [stdout]);
  return size;
}

/** How long the width must stay still before the transcript is printed again (a dragged window sends many). */
export const REDRAW_DEBOUNCE_MS = 150;

/**
 * What <Static> printed stays at the width it was printed at: the terminal cuts or re-flows
 * it, and a shrink leaves pieces of old frames behind. When the width changes (and then stays
 * for REDRAW_DEBOUNCE_MS), the screen and its scrollback are cleared and the transcript is
 * printed again at the new width, as other terminal assistants do.
 */
export function useRedrawOnResize(
  columns: number,
  stdout: NodeJS.WriteStream,
  dispatch: Dispatch<ConversationAction>,
): void {
  const drawnAt = useRef(columns);
  useEffect(() => {
    if (columns === drawnAt.current) return undefined;
    const timer = setTimeout(() => {
      drawnAt.current = columns;
      clearTerminal(stdout);
      dispatch({ type: 'redraw' });
    }, REDRAW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [columns, stdout, dispatch]);
}
