// A consumer of @riskgate/tools-sql alone, on plain Node: schema, verdicts, a SELECT on SQLite,
// and the clear failure for a driver that is not installed.
import assert from 'node:assert/strict';
import {
  createExecuteSqlTool,
  DEFAULT_POLICY,
  evaluateToolCall,
  isSqlFailure,
  openSqlConnection,
  toolFunctionDefinition,
} from '@riskgate/tools-sql';
import Database from 'better-sqlite3';

const file = process.argv[2];
const setup = new Database(file);
setup.exec(
  "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('cake');",
);
setup.close();

const connection = await openSqlConnection(file);
assert.ok(!isSqlFailure(connection), connection.message);
const tool = createExecuteSqlTool({ connection });
const schema = { type: 'function', function: toolFunctionDefinition(tool) };
assert.equal(schema.function.name, 'execute_sql');
assert.deepEqual(Object.keys(schema.function.parameters.properties).sort(), ['risk_level', 'sql']);

const context = { cwd: process.cwd(), dialect: 'sqlite' };
const drop = await evaluateToolCall(tool, { sql: 'SELECT 1; DROP TABLE orders' }, context, DEFAULT_POLICY);
assert.equal(drop.assessment.whitelisted, false);
assert.equal(drop.decision.action, 'confirm');
const select = await evaluateToolCall(tool, { sql: 'SELECT item FROM orders ORDER BY id' }, context, DEFAULT_POLICY);
assert.equal(select.decision.action, 'execute');
const result = await tool.execute(
  select.args,
  { ...context, signal: AbortSignal.timeout(10_000), readOnly: select.assessment.whitelisted },
  select.assessment.plan?.value, // what the assessor worked out for the run
);
assert.equal(result.type, 'tool-success');
assert.match(result.forModel, /tea[\s\S]*cake/);
await connection.close();

// pg is an optional peer and not installed here: opening PostgreSQL says which package to install.
const postgres = await openSqlConnection('postgres://127.0.0.1:5432/test');
assert.ok(isSqlFailure(postgres));
assert.equal(postgres.code, 'sql-driver-missing');
assert.match(postgres.message, /npm install pg/);
console.log(`sql-alone ok: ${result.forModel.split('\n').length} lines for the model`);
