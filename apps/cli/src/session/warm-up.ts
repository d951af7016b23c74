import type { ChatToolKind } from './tools-from-config.js';

/**
 * Loads in the background what the first call of these tools needs — the bash grammar for
 * commands, PostgreSQL's parser (libpg-query, which every SQL dialect's assessor reads with) —
 * while the model thinks about its first reply or the MCP client about its first call. It only
 * loads: nothing is assessed or run here, and a call still awaits the same loaders itself, so a
 * call that comes first simply waits for them. A failure here is the first call's to report.
 */
export function warmFirstCall(tools: readonly (ChatToolKind | 'sql')[]): Promise<void> {
  const loads: Promise<unknown>[] = [];
  if (tools.includes('commands'))
    loads.push(import('@riskgate/tools-command').then(({ loadBashParser }) => loadBashParser()));
  if (tools.includes('sql')) loads.push(import('@riskgate/tools-sql').then(({ loadSqlParser }) => loadSqlParser()));
  return Promise.allSettled(loads).then(() => undefined);
}
