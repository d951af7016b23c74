import { defineTool, report, toolFailure } from '@riskgate/risk';
import { z } from 'zod/v4';
import { formatFailureForModel, formatSchemaForModel } from './format-results.js';
import { isSqlFailure, type SchemaDescription, type SqlConnection } from './sql-connection.js';

export const DESCRIBE_SCHEMA_TOOL_NAME = 'describe_schema';

export const describeSchemaParameters = z.object({
  table: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .optional()
    .describe('One table or view to describe; omit to describe every table.'),
});

/** describe_schema reads the catalog only, on a read-only connection or transaction. */
export function createDescribeSchemaTool(options: { connection?: SqlConnection } = {}) {
  const { connection } = options;
  return defineTool({
    name: DESCRIBE_SCHEMA_TOOL_NAME,
    description:
      'Describe the selected database: tables and views with their columns and types, primary and foreign keys, indexes and row counts (estimates on PostgreSQL). Always read-only.',
    noun: 'operation',
    // Reads the catalog only, on a read-only connection or transaction.
    hints: {
      title: 'Describe the database schema',
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    },
    title: ({ table }) => `describe ${table ?? 'every table'}`,
    parameters: describeSchemaParameters,
    ruleStyle: 'text',
    assess: ({ table }) =>
      report(
        [{ kind: 'read-db', object: table === undefined ? 'the schema' : `the schema of ${table}` }],
        [table ?? '*'],
      ),
    describe: ({ table }) => ({ kind: 'generic', summary: `describe ${table ?? 'every table'}`, details: [] }),
    execute: async ({ table }) => {
      if (connection === undefined) return toolFailure('sql-no-database', 'no database is selected');
      const schema = await connection.describeSchema(table);
      if (isSqlFailure(schema)) return toolFailure(schema.code, formatFailureForModel(schema));
      return {
        type: 'tool-success',
        forModel: formatSchemaForModel(schema),
        data: schema as SchemaDescription,
      } as const;
    },
  });
}
