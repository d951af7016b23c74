import { formatCell } from '@riskgate/tools-sql';
import stringWidth from 'string-width';
import { revealText } from './panel-lines.js';
import { lazyGraphemeSegmenter } from './graphemes.js';

export interface TableLayout {
  /** `records`: one block per row, a line per column (psql's \\x), for rows too wide for a table. */
  readonly kind: 'table' | 'records';
  readonly header: string;
  readonly rule: string;
  readonly rows: readonly string[];
  readonly footer: string;
}

const segmenter = lazyGraphemeSegmenter();

/**
 * Columns of a result drawn on the screen: a 1,600-column result took 1.6 GB as a record per
 * row with a line per column. The rest are counted in the footer (`--output json` has them
 * all; a query can select the ones wanted).
 */
export const MAX_SCREEN_COLUMNS = 50;
/** Characters of one cell laid out: no terminal line shows more, and a 10 MB value is not measured whole. */
const MAX_SCREEN_CELL = 1_000;

/** A cell on one line, its control characters visible (a database value cannot draw on the screen). */
function cellText(text: string): string {
  const capped = text.length > MAX_SCREEN_CELL ? `${text.slice(0, MAX_SCREEN_CELL)}…` : text;
  return revealText(capped.replace(/[\t\n\r]+/g, ' '));
}

/** Cut or padded to exactly `width` terminal columns: CJK and emoji take two. */
function cut(text: string, width: number): string {
  const columns = stringWidth(text);
  if (columns <= width) return text + ' '.repeat(width - columns);
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const cells = stringWidth(segment);
    if (used + cells > width - 1) break;
    out += segment;
    used += cells;
  }
  return `${out}…${' '.repeat(Math.max(0, width - 1 - used))}`;
}

/** Fewer columns than this always stay a table (cut cells read well enough). */
const RECORD_VIEW_MIN_COLUMNS = 4;

/**
 * A result table that fits the terminal: columns share the width in proportion to what they
 * hold, long cells are cut with …, and the footer says how much is shown.
 */
export function layoutTable(
  allColumns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: { width: number; maxRows: number; truncated: boolean },
): TableLayout {
  const shown = rows.slice(0, options.maxRows);
  const columns = allColumns.slice(0, MAX_SCREEN_COLUMNS);
  const cells = shown.map((row) => row.slice(0, MAX_SCREEN_COLUMNS).map((value) => cellText(formatCell(value))));
  const names = columns.map(cellText);
  const natural = names.map((name, index) =>
    Math.max(stringWidth(name), ...cells.map((row) => stringWidth(row[index] ?? '')), 1),
  );
  const separators = Math.max(0, columns.length - 1) * 3;
  const available = Math.max(columns.length * 3, options.width - separators);
  const total = rows.length;
  const footer =
    (shown.length < total || options.truncated
      ? `showing ${shown.length.toLocaleString('en-US')} of ${options.truncated ? 'more than ' : ''}${total.toLocaleString('en-US')} rows`
      : `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'}`) +
    (columns.length < allColumns.length
      ? ` · ${columns.length} of ${allColumns.length.toLocaleString('en-US')} columns shown`
      : '');
  // A wide row would be cut to slivers: show each row as a record instead, as psql's \\x does.
  if (columns.length >= RECORD_VIEW_MIN_COLUMNS && natural.reduce((a, b) => a + b, 0) > available)
    return layoutRecords(names, cells, options.width, footer);
  let widths = natural;
  if (natural.reduce((a, b) => a + b, 0) > available) {
    // Narrow the widest columns first, never below 3 characters.
    widths = [...natural];
    while (widths.reduce((a, b) => a + b, 0) > available) {
      const widest = widths.indexOf(Math.max(...widths));
      if (widths[widest]! <= 3) break;
      widths[widest] = widths[widest]! - 1;
    }
  }
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => cut(value, widths[index]!))
      .join(' │ ')
      .trimEnd();
  return {
    kind: 'table',
    header: line(names),
    rule: widths.map((width) => '─'.repeat(width)).join('─┼─'),
    rows: cells.map(line),
    footer,
  };
}

function layoutRecords(
  names: readonly string[],
  cells: readonly (readonly string[])[],
  width: number,
  footer: string,
): TableLayout {
  const nameWidth = Math.max(...names.map((name) => stringWidth(name)));
  const valueWidth = Math.max(10, width - nameWidth - 3);
  const lines = cells.flatMap((row, index) => {
    const title = `─[ RECORD ${index + 1} ]`;
    return [
      title + '─'.repeat(Math.max(0, Math.min(width, 40) - stringWidth(title))),
      ...names.map((name, column) => `${cut(name, nameWidth)} │ ${cut(row[column] ?? '', valueWidth)}`.trimEnd()),
    ];
  });
  return { kind: 'records', header: '', rule: '', rows: lines, footer };
}
