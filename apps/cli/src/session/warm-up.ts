import type { AnyTool, AssessContext, GatePolicy } from '@riskgate/risk';
import type { SqlConnection } from '@riskgate/tools-sql';
import type { ChatToolKind } from './tools-from-config.js';

export interface WarmUpOptions {
  /** SQLite's reader process is started on it. */
  readonly connection?: SqlConnection;
  /** The session's gate: one harmless call per tool is judged (never run) as the first call would be. */
  readonly gate?: { readonly tools: readonly AnyTool[]; readonly context: AssessContext; readonly policy: GatePolicy };
}

/** A call of each tool that only reads nothing: judged, never run, to load and compile what judging needs. */
const HARMLESS_CALLS: Readonly<Record<string, Record<string, unknown>>> = {
  execute_command: { command: 'true' },
  execute_sql: { sql: 'SELECT 1' },
};

/**
 * Loads in the background what the first call of these tools needs — the bash grammar for
 * commands, PostgreSQL's parser (libpg-query, which every SQL dialect's assessor reads with), the
 * knowledge the judge compiles on first use, the secret engine (the output guard's, and its
 * verdicts on the environment a command inherits) — while the model thinks about its first reply or the MCP client about its
 * first call. Nothing is run and nothing is audited here: a harmless call of each tool is only
 * judged, through the same evaluateToolCall the gate uses. A call that comes first awaits the
 * same loaders itself; a failure here is the first call's to report.
 */
export async function warmFirstCall(
  tools: readonly (ChatToolKind | 'sql')[],
  options: WarmUpOptions = {},
): Promise<void> {
  const loads: Promise<unknown>[] = [];
  if (tools.includes('commands'))
    loads.push(
      import('@riskgate/tools-command').then(({ childEnvironment, loadBashParser }) => {
        // Verdicts on the inherited environment are remembered per value (child-environment.ts).
        childEnvironment(process.env);
        return loadBashParser();
      }),
    );
  if (tools.includes('sql')) loads.push(import('@riskgate/tools-sql').then(({ loadSqlParser }) => loadSqlParser()));
  // SQLite reads run in a reader process (a Node process with a read-only handle, started on the
  // first read): a constant `SELECT 1` on the read-only path starts it. It reads no table, writes
  // nothing, and is not a tool call (no gate, no audit line).
  const { connection, gate } = options;
  if (connection?.dialect === 'sqlite')
    loads.push(
      connection
        .assess('SELECT 1')
        .then(({ plan }) =>
          connection.run(plan, { readOnly: true, signal: AbortSignal.timeout(30_000), timeoutMs: 30_000, maxRows: 1 }),
        ),
    );
  await Promise.allSettled(loads);
  const { evaluateToolCall, findSecretsIn } = await import('@riskgate/risk');
  // The output guard reads every unasked result with the secret engine: its rules compile on first use.
  findSecretsIn('id | customer | total\n42 | customer 42 | 63.0');
  if (gate === undefined) return;
  for (const tool of gate.tools) {
    const args = HARMLESS_CALLS[tool.name];
    if (args !== undefined) await evaluateToolCall(tool, args, gate.context, gate.policy).catch(() => undefined);
  }
}
