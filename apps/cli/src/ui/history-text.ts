import type { Item } from './conversation.js';
import { terminalText } from '../terminal-text.js';
import { layoutTable } from './table-layout.js';

export { foldLines, HISTORY_LINES } from '../fold.js';

type ToolItem = Extract<Item, { kind: 'tool' }>;

/** What an execute_sql result holds for the screen: its statements with their rows. */
export interface SqlData {
  readonly statements: readonly {
    statement: string;
    columns: readonly { name: string; type?: string | null }[];
    rows: readonly (readonly unknown[])[];
    truncated: boolean;
    affectedRows: number | null;
  }[];
}

/** The SQL result of a tool call, when it is one (it is drawn as tables). */
export function sqlData(item: ToolItem): SqlData | undefined {
  const data = item.result?.data as SqlData | undefined;
  return item.toolName === 'execute_sql' && Array.isArray(data?.statements) ? data : undefined;
}

/** The whole of a tool call and its result as plain text, for `/view N` in $PAGER. */
export function fullText(item: ToolItem): string {
  const data = sqlData(item);
  const body =
    data !== undefined
      ? data.statements
          .map((statement) => {
            if (statement.columns.length === 0)
              return `${statement.statement}\n${statement.affectedRows ?? 0} rows changed`;
            const table = layoutTable(statement.columns, statement.rows, {
              width: Number.MAX_SAFE_INTEGER,
              maxRows: Number.MAX_SAFE_INTEGER,
              truncated: statement.truncated,
            });
            return [statement.statement, table.header, table.rule, ...table.rows, table.footer].join('\n');
          })
          .join('\n\n')
      : (item.result?.forModel ?? item.output);
  const asked = item.asked?.kind === 'file' && item.asked.diff !== undefined ? `${item.asked.diff}\n\n` : '';
  // The pager shows codes too: `less -R` would pass an escape sequence on to the terminal.
  return terminalText(`${item.toolName} ${item.argumentsText}\n\n${asked}${body}`);
}
