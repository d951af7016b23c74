// @riskgate/tools-sql on its own: the tool's schema for a model API, the gate's verdict, and a
// SELECT that runs read-only. Usage: node index.mjs <sqlite-file> "<sql>"
import {
  createExecuteSqlTool,
  DEFAULT_POLICY,
  evaluateToolCall,
  isSqlFailure,
  openSqlConnection,
  toolFunctionDefinition,
} from '@riskgate/tools-sql';

const [file = ':memory:', sql = 'SELECT 1 AS one'] = process.argv.slice(2);
const connection = await openSqlConnection(file);
if (isSqlFailure(connection)) throw new Error(connection.message);
const tool = createExecuteSqlTool({ connection });
console.log(JSON.stringify({ type: 'function', function: toolFunctionDefinition(tool) })); // for `tools` in chat completions
const context = { cwd: process.cwd(), dialect: connection.dialect };
const verdict = await evaluateToolCall(tool, { sql }, context, DEFAULT_POLICY);
console.log(`${verdict.decision.action}: ${verdict.decision.reasons.join('; ')}`);
if (verdict.decision.action === 'execute') {
  // The assessor's plan (the statements as judged) is what runs: nothing is split or assessed again.
  const result = await tool.execute(
    verdict.args,
    { ...context, signal: AbortSignal.timeout(10_000), readOnly: verdict.assessment.whitelisted },
    verdict.assessment.plan?.value,
  );
  console.log(result.type === 'tool-success' ? result.forModel : `error: ${result.message}`);
}
await connection.close();
