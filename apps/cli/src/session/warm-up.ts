import type { SqlConnection } from '@riskgate/tools-sql';
import type { ChatToolKind } from './tools-from-config.js';

/**
 * Loads in the background what the first call of these tools needs — the bash grammar for
 * commands, PostgreSQL's parser (libpg-query, which every SQL dialect's assessor reads with) —
 * while the model thinks about its first reply or the MCP client about its first call. It only
 * loads: nothing is assessed or run here, and a call still awaits the same loaders itself, so a
 * call that comes first simply waits for them. A failure here is the first call's to report.
 */
export function warmFirstCall(
  tools: readonly (ChatToolKind | 'sql')[],
  options: { readonly connection?: SqlConnection } = {},
): Promise<void> {
  const loads: Promise<unknown>[] = [];
  if (tools.includes('commands'))
    loads.push(import('@riskgate/tools-command').then(({ loadBashParser }) => loadBashParser()));
  if (tools.includes('sql')) loads.push(import('@riskgate/tools-sql').then(({ loadSqlParser }) => loadSqlParser()));
  // SQLite reads run in a reader process (a Node process with a read-only handle, started on the
  // first read): a constant `SELECT 1` on the read-only path starts it. It reads no table, writes
  // nothing, and is not a tool call (no gate, no audit line).
  const { connection } = options;
  if (connection?.dialect === 'sqlite')
    loads.push(
      connection.run('SELECT 1', {
        readOnly: true,
        signal: AbortSignal.timeout(30_000),
        timeoutMs: 30_000,
        maxRows: 1,
      }),
    );
  return Promise.allSettled(loads).then(() => undefined);
}
