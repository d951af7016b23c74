import { evaluateToolCall } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { createExecuteSqlTool } from '../src/index.js';

/**
 * Guarded mode with a model that says "low" to everything: what the SQL assessor knows to be
 * dangerous is confirmed whatever the model said (without a database: the dialect's rules).
 */
const tool = createExecuteSqlTool({});
const guarded = { mode: 'guarded' as const, rules: [] };

describe.each([
  [
    'postgres',
    [
      "SELECT pg_read_file('/etc/passwd')",
      "SELECT pg_read_binary_file('/etc/passwd')",
      "SELECT pg_ls_dir('.')",
      "SELECT pg_stat_file('postgresql.conf')",
      "SELECT lo_export(1234, '/tmp/x')",
      "SELECT lo_import('/etc/passwd')",
      'SELECT pg_terminate_backend(1234)',
      'SELECT (1234).pg_terminate_backend',
      'SELECT pg_advisory_lock(1)',
      'SELECT pg_sleep(3600)',
      'SELECT rolpassword FROM pg_authid',
      "COPY t FROM '/etc/passwd'",
      'DELETE FROM orders WHERE id = 1',
      'SET standard_conforming_strings = off',
    ],
  ],
  [
    'mysql',
    [
      "SELECT 'a\\''; DROP TABLE t; -- '",
      'SELECT 1 /*! ; DROP TABLE t */',
      'SELECT 1 /*M! ; DELETE FROM t */',
      "SELECT LOAD_FILE('/etc/passwd')",
      'SELECT SLEEP(100)',
      "SELECT GET_LOCK('x', 10)",
      'SELECT authentication_string FROM mysql.user',
    ],
  ],
  [
    'sqlite',
    [
      "SELECT readfile('/etc/passwd')",
      "SELECT * FROM fsdir('.')",
      'SELECT zeroblob(1000000000)',
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
      "ATTACH DATABASE '/tmp/other.db' AS o",
    ],
  ],
] as const)('%s', (dialect, statements) => {
  it.each(statements)('confirms %s even when the model says low', async (sql) => {
    const evaluation = await evaluateToolCall(
      tool,
      { sql, risk_level: 'low' },
      { cwd: process.cwd(), dialect },
      guarded,
    );
    expect(evaluation.decision.action).toBe('confirm');
    expect(evaluation.decision.source).toBe('guard');
  });
});
