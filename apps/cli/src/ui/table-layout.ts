import { formatCell } from '@riskgate/tools-sql';

export interface TableLayout {
  readonly header: string;
  readonly rule: string;
  readonly rows: readonly string[];
  readonly footer: string;
}

function cut(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if ([...flat].length <= width) return flat.padEnd(width);
  return `${[...flat].slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * A result table that fits the terminal: columns share the width in proportion to what they
 * hold, long cells are cut with …, and the footer says how much is shown.
 */
export function layoutTable(columns: readonly string[], rows: readonly (readonly unknown[])[], options: { width: number; maxRows: number; truncated: boolean }): TableLayout {
  const shown = rows.slice(0, options.maxRows);
  const cells = shown.map((row) => row.map(formatCell));
  const natural = columns.map((name, index) => Math.max(name.length, ...cells.map((row) => (row[index] ?? '').length), 1));
  const separators = Math.max(0, columns.length - 1) * 3;
  const available = Math.max(columns.length * 3, options.width - separators);
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
  const line = (values: readonly string[]) => values.map((value, index) => cut(value, widths[index]!)).join(' │ ').trimEnd();
  const total = rows.length;
  const footer =
    shown.length < total || options.truncated
      ? `showing ${shown.length.toLocaleString('en-US')} of ${options.truncated ? 'more than ' : ''}${total.toLocaleString('en-US')} rows`
      : `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'}`;
  return { header: line(columns), rule: widths.map((width) => '─'.repeat(width)).join('─┼─'), rows: cells.map(line), footer };
}
