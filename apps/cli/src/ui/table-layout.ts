import { formatCell, isNumericColumn } from '@riskgate/tools-sql';
import stringWidth from 'string-width';
import { revealText } from './panel-lines.js';
import { lazyGraphemeSegmenter } from './graphemes.js';

export interface TableLayout {
  /** `records`: one block per row, a line per column (psql's \\x), for rows too wide for a table. */
  readonly kind: 'table' | 'records';
  readonly header: string;
  readonly rule: string;
  readonly rows: readonly string[];
  /** The same rows in pieces: `null` marks an SQL NULL (drawn dimmed; its words differ from the text 'NULL' too). */
  readonly styledRows: readonly (readonly TableSegment[])[];
  readonly footer: string;
}

export interface TableSegment {
  readonly text: string;
  readonly null?: true;
}

/** A column as the driver reported it: its name, and its type when the engine knows it. */
export type TableColumn = string | { readonly name: string; readonly type?: string | null };

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

/** Cut or padded to exactly `width` terminal columns: CJK and emoji take two. Numbers pad on the left. */
function cut(text: string, width: number, right = false): string {
  const columns = stringWidth(text);
  if (columns <= width) return right ? ' '.repeat(width - columns) + text : text + ' '.repeat(width - columns);
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
  allColumns: readonly TableColumn[],
  rows: readonly (readonly unknown[])[],
  options: { width: number; maxRows: number; truncated: boolean },
): TableLayout {
  const shown = rows.slice(0, options.maxRows);
  const columns = allColumns.slice(0, MAX_SCREEN_COLUMNS);
  const cells = shown.map((row) => row.slice(0, MAX_SCREEN_COLUMNS).map((value) => cellText(formatCell(value))));
  const nulls = shown.map((row) =>
    row.slice(0, MAX_SCREEN_COLUMNS).map((value) => value === null || value === undefined),
  );
  const names = columns.map((column) => cellText(typeof column === 'string' ? column : column.name));
  // Right-aligned where the driver says the column holds numbers (its values' types, or its declared type).
  const numeric = columns.map((column, index) =>
    isNumericColumn(
      typeof column === 'string' ? null : column.type,
      shown.map((row) => row[index]),
    ),
  );
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
    return layoutRecords(names, cells, nulls, options.width, footer);
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
  const segments = (values: readonly string[], rowNulls?: readonly boolean[]) =>
    trimSegments(
      values.flatMap((value, index): TableSegment[] => [
        ...(index === 0 ? [] : [{ text: ' │ ' }]),
        {
          text: cut(value, widths[index]!, numeric[index] && rowNulls !== undefined),
          ...(rowNulls?.[index] === true ? { null: true as const } : {}),
        },
      ]),
    );
  const styledRows = cells.map((row, index) => segments(row, nulls[index]));
  return {
    kind: 'table',
    header: joined(segments(names)),
    rule: widths.map((width) => '─'.repeat(width)).join('─┼─'),
    rows: styledRows.map(joined),
    styledRows,
    footer,
  };
}

const joined = (segments: readonly TableSegment[]): string => segments.map((segment) => segment.text).join('');

/** The line's trailing spaces dropped (from its last segments). */
function trimSegments(segments: readonly TableSegment[]): TableSegment[] {
  const out = [...segments];
  while (out.length > 0) {
    const last = out.at(-1)!;
    const text = last.text.trimEnd();
    if (text !== '') {
      out[out.length - 1] = { ...last, text };
      break;
    }
    out.pop();
  }
  return out;
}

function layoutRecords(
  names: readonly string[],
  cells: readonly (readonly string[])[],
  nulls: readonly (readonly boolean[])[],
  width: number,
  footer: string,
): TableLayout {
  const nameWidth = Math.max(...names.map((name) => stringWidth(name)));
  const valueWidth = Math.max(10, width - nameWidth - 3);
  const styledRows = cells.flatMap((row, index): TableSegment[][] => {
    const title = `─[ RECORD ${index + 1} ]`;
    return [
      [{ text: title + '─'.repeat(Math.max(0, Math.min(width, 40) - stringWidth(title))) }],
      ...names.map((name, column) =>
        trimSegments([
          { text: `${cut(name, nameWidth)} │ ` },
          {
            text: cut(row[column] ?? '', valueWidth),
            ...(nulls[index]?.[column] === true ? { null: true as const } : {}),
          },
        ]),
      ),
    ];
  });
  return { kind: 'records', header: '', rule: '', rows: styledRows.map(joined), styledRows, footer };
}
