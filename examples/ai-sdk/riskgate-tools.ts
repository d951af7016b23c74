// riskgate's gated tools in the Vercel AI SDK. The gate decides the SDK's toolApproval (run,
// refuse, or ask the person), and execute runs the call through the same gate.
import { createGatedExecutor, type GatedExecutorOptions } from '@riskgate/core';
import { toolFunctionDefinition } from '@riskgate/tools-sql';
import { jsonSchema, type ToolApprovalConfiguration, type ToolSet, tool } from 'ai';

export function riskgateForAiSdk(
  options: GatedExecutorOptions & { tools: Parameters<typeof toolFunctionDefinition>[0][] },
) {
  const gate = createGatedExecutor(options);
  const approvedByPerson = new Set<string>(); // calls the SDK's approval flow put to the person
  const toolApproval: ToolApprovalConfiguration<ToolSet, unknown> = async ({ toolCall }) => {
    const decision = await gate.check({ id: toolCall.toolCallId, name: toolCall.toolName, arguments: toolCall.input });
    if (decision?.action === 'deny') return { type: 'denied', reason: decision.reasons[0] };
    if (decision?.action !== 'confirm') return 'not-applicable';
    approvedByPerson.add(toolCall.toolCallId);
    return { type: 'user-approval', reason: decision.reasons.join('; ') };
  };
  const execute =
    (name: string) =>
    async (input: unknown, { toolCallId }: { toolCallId: string }) => {
      const confirm = async () => ({ type: 'approve' }) as const; // the SDK calls execute only after the person approved
      return (
        await gate.run({ id: toolCallId, name, arguments: input }, approvedByPerson.has(toolCallId) ? { confirm } : {})
      ).forModel;
    };
  const definitions = options.tools.map(toolFunctionDefinition);
  const tools: ToolSet = Object.fromEntries(
    definitions.map((d) => [
      d.name,
      tool({ description: d.description, inputSchema: jsonSchema(d.parameters), execute: execute(d.name) }),
    ]),
  );
  return { tools, toolApproval };
}
