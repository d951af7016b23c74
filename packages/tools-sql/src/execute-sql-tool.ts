import {
  notAssessed,
  type AnyTool,
  defineTool,
  type OperationDescription,
  type SqlDialect,
  toolFailure,
} from '@riskgate/risk';
import { z } from 'zod/v4';
import { formatFailureForModel, formatRunForModel } from './format-results.js';
import { assessSql, type SqlAssessment } from './sql-assessor.js';
import { formatPreviewLine, isPreviewSkipped, isSqlFailure, type SqlConnection } from './sql-connection.js';
import type { SqlPlan } from './sql-plan.js';
import { isReadOnly } from './statement-analysis.js';
import { DEFAULT_SQL_LIMITS, type SqlLimits, type SqlRunResult } from './sql-results.js';
import { withholdSecretColumns } from './withhold-columns.js';

export const SQL_TOOL_NAME = 'execute_sql';

export const executeSqlParameters = z.object({
  sql: z
    .string()
    .trim()
    .min(1, 'the SQL text is empty')
    .max(1_000_000)
    .describe('The SQL to run: one statement, or several separated by semicolons.'),
});

export type ExecuteSqlArgs = z.output<typeof executeSqlParameters>;

export interface SqlToolOptions {
  /** The selected database. Without one the tools can be assessed but not run. */
  readonly connection?: SqlConnection;
  readonly limits?: Partial<SqlLimits>;
}

export function createExecuteSqlTool(options: SqlToolOptions = {}) {
  const { connection } = options;
  const limits: SqlLimits = { ...DEFAULT_SQL_LIMITS, ...options.limits };
  const assess = (sql: string, dialect: SqlDialect | undefined): Promise<SqlAssessment> =>
    connection === undefined ? assessSql(sql, { dialect: dialect ?? 'sqlite' }) : connection.assess(sql);

  return defineTool<typeof executeSqlParameters, SqlRunResult, SqlPlan>({
    name: SQL_TOOL_NAME,
    description:
      'Run SQL against the selected database and return the result rows (the first rows only) or the number of rows changed. ' +
      'Read-only statements run at once; statements that change data or schema are shown to the user, who must confirm them.',
    noun: 'query',
    // DROP TABLE, DELETE, TRUNCATE: one call may destroy data, whatever the gate asks first.
    hints: { title: 'Run SQL', readOnly: false, destructive: true, idempotent: false, openWorld: false },
    title: ({ sql }) => sql,
    editable: 'sql',
    parameters: executeSqlParameters,
    ruleStyle: 'sql',
    // Assessed once per call: the plan (the statements as judged, with their spans) is what
    // describe previews and execute sends.
    assess: async ({ sql }, context) => {
      const { effects, subjects, plan } = await assess(sql, context.dialect);
      return { effects, subjects, plan };
    },
    describe: async ({ sql }, _context, plan): Promise<OperationDescription> => {
      const details: string[] = [];
      if (connection !== undefined) {
        details.push(`database: ${connection.label}`);
        const preview = await previewPlan(connection, plan, limits);
        if (preview !== undefined) details.push(...preview);
      }
      return { kind: 'sql', sql, details };
    },
    execute: async (_args, context, plan) => {
      if (connection === undefined) return toolFailure('sql-no-database', 'no database is selected');
      // What runs is what was assessed: without the assessment's plan nothing runs (a caller of
      // plain JavaScript may leave it out; the gated executor never does).
      if (plan === undefined) return notAssessed(SQL_TOOL_NAME, 'sql-not-assessed');
      const result = await connection.run(plan, {
        readOnly: context.readOnly,
        signal: context.signal,
        timeoutMs: limits.statementTimeoutMs,
        maxRows: limits.maxRows,
      });
      if (isSqlFailure(result))
        return toolFailure(result.code, formatFailureForModel(result), {
          outcomeUnknown: result.code === 'sql-outcome-unknown',
        });
      // A cancel that came after the last statement (during COMMIT) did not stop it: the change was made.
      const late = context.signal.aborted
        ? 'The cancel came too late to stop it: it completed, and its changes were made.\n'
        : '';
      // What the tool knows to be secret (a credential column's values): the gate gives the model this copy when the call ran unasked.
      const withheld = withholdSecretColumns(result);
      return {
        type: 'tool-success',
        forModel: late + formatRunForModel(result, limits.modelRows),
        ...(withheld === undefined
          ? {}
          : {
              withheldForModel: {
                text: late + formatRunForModel(withheld.result, limits.modelRows),
                withheld: withheld.withheld,
              },
            }),
        data: result,
        completed: true,
      } as const;
    },
  });
}

/** The panel's preview lines for the plan's writes; undefined when nothing is previewed. */
async function previewPlan(connection: SqlConnection, plan: SqlPlan, limits: SqlLimits): Promise<string[] | undefined> {
  const writes = plan.statements.filter((statement) => !isReadOnly(statement.analysis));
  // Only DML is previewed, and only when a rolled-back run cannot act beyond the transaction.
  if (writes.length === 0 || !writes.every((statement) => statement.analysis.writeTarget !== undefined))
    return undefined;
  const blocked = writes.find((statement) => !statement.analysis.previewable);
  const preview =
    blocked === undefined
      ? await connection.preview(plan, { timeoutMs: limits.previewTimeoutMs })
      : await connection.estimate(plan, blocked.analysis.previewBlocker ?? 'a statement cannot be previewed safely');
  if (isSqlFailure(preview))
    return [
      preview.code === 'sql-constraint-violation'
        ? `preview: this would fail — ${preview.message}`
        : `preview unavailable: ${preview.message}`,
    ];
  if (isPreviewSkipped(preview))
    return [`preview skipped: ${preview.reason}`, ...preview.estimates.map(formatPreviewLine)];
  return preview.map(formatPreviewLine);
}

export type ExecuteSqlTool = ReturnType<typeof createExecuteSqlTool>;
export type ExecuteSqlData = SqlRunResult;
export type { AnyTool };
