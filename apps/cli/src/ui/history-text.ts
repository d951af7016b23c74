import type { Item } from './conversation.js';
import { layoutTable } from './table-layout.js';

type ToolItem = Extract<Item, { kind: 'tool' }>;

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

interface SqlData {
  readonly statements: readonly { statement: string; columns: readonly { name: string }[]; rows: readonly (readonly unknown[])[]; truncated: boolean; affectedRows: number | null }[];
}

/** The whole of a tool call and its result as plain text, for `/view N` in $PAGER. */
export function fullText(item: ToolItem): string {
  const data = item.result?.data as SqlData | undefined;
  const body =
    item.toolName === 'execute_sql' && data?.statements !== undefined
      ? data.statements
          .map((statement) => {
            if (statement.columns.length === 0) return `${statement.statement}\n${statement.affectedRows ?? 0} rows changed`;
            const table = layoutTable(
              statement.columns.map((column) => column.name),
              statement.rows,
              { width: Number.MAX_SAFE_INTEGER, maxRows: Number.MAX_SAFE_INTEGER, truncated: statement.truncated },
            );
            return [statement.statement, table.header, table.rule, ...table.rows, table.footer].join('\n');
          })
          .join('\n\n')
      : (item.result?.forModel ?? item.output);
  return `${item.toolName} ${item.argumentsText}\n\n${body}`;
}
