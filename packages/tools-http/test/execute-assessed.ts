import type { ExecuteContext } from '@riskgate/risk';
import type { createHttpRequestTool } from '../src/index.js';

type HttpTool = ReturnType<typeof createHttpRequestTool>;

/**
 * What the gated executor does once a call may run, without the gate: the assessor's plan for
 * these arguments handed to execute.
 */
export async function executeAssessed(
  tool: HttpTool,
  args: Parameters<HttpTool['execute']>[0],
  context: ExecuteContext,
) {
  const { plan } = await tool.assess(args, context);
  return tool.execute(args, context, plan);
}
