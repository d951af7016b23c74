import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type ClientCapabilities,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type ApprovalAnswer, type ApprovalRequest, type AuditLog, createGatedExecutor } from '@riskgate/core';
import {
  type AnyTool,
  type AssessContext,
  type GatePolicy,
  type OperationDescription,
  toolFunctionDefinition,
} from '@riskgate/risk';

export interface McpServerOptions {
  readonly tools: readonly AnyTool[];
  readonly policy: GatePolicy;
  readonly assess: AssessContext;
  readonly audit?: AuditLog;
  readonly version: string;
}

/** How long a confirmation may wait for the person at the client (an MCP request's own default is 60 s). */
const CONFIRMATION_TIMEOUT_MS = 15 * 60_000;

/**
 * The gated tools as an MCP server. Every tools/call goes through the one gated executor;
 * what the gate would ask about is asked through elicitation when the client supports it, and
 * refused with the reason when it does not (a client that cannot ask never runs it).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'riskgate', version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'riskgate runs these tools through a risk gate: read-only operations run at once, anything else is confirmed by the person ' +
        '(or refused when this client cannot ask). Rate each call with risk_level (low | medium | high) where you can.',
    },
  );
  const executor = createGatedExecutor({
    tools: options.tools,
    policy: options.policy,
    assess: options.assess,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    session: `mcp-${process.pid}`,
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: options.tools.map(toMcpTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const canAsk = supportsFormElicitation(server.getClientCapabilities());
    const outcome = await executor.run(
      { id: `mcp-${String(extra.requestId)}`, name: request.params.name, arguments: request.params.arguments ?? {} },
      {
        signal: extra.signal,
        ...(canAsk
          ? {
              confirm: (approval: ApprovalRequest, signal: AbortSignal) =>
                askThroughElicitation(server, approval, signal),
            }
          : {}),
      },
    );
    return {
      content: [{ type: 'text' as const, text: outcome.forModel }],
      isError: outcome.state !== 'succeeded',
      _meta: {
        'riskgate/state': outcome.state,
        ...(outcome.decision === undefined
          ? {}
          : {
              'riskgate/decision': {
                action: outcome.decision.action,
                source: outcome.decision.source,
                level: outcome.decision.level,
                reasons: outcome.decision.reasons,
              },
            }),
      },
    };
  });
  return server;
}

function toMcpTool(tool: AnyTool): Tool {
  const definition = toolFunctionDefinition(tool);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.parameters as Tool['inputSchema'],
  };
}

/** As the SDK's client decides it: an empty elicitation capability means form mode. */
function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

async function askThroughElicitation(
  server: Server,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const question = request.question.replace(/\s*\[y\/N\]$/, '');
  const result = await server.elicitInput(
    {
      mode: 'form',
      message: elicitationMessage(request),
      requestedSchema: {
        type: 'object',
        properties: {
          approve: {
            type: 'boolean',
            title: question,
            description: 'Yes runs it as shown; no refuses it.',
            default: false,
          },
        },
        required: ['approve'],
      },
    },
    { signal, timeout: CONFIRMATION_TIMEOUT_MS },
  );
  if (result.action === 'accept' && result.content?.approve === true) return { type: 'approve' };
  return {
    type: 'deny',
    note:
      result.action === 'accept'
        ? 'the person answered no'
        : `the person ${result.action === 'decline' ? 'declined' : 'cancelled'} the confirmation`,
  };
}

/** What the person reads before answering: the operation in full, then why riskgate asks. */
export function elicitationMessage(request: ApprovalRequest): string {
  const lines = [
    `riskgate: ${request.toolName} wants to run this, and it needs your confirmation.`,
    '',
    ...operationLines(request.description),
    '',
  ];
  lines.push('Why it asks:', ...request.decision.reasons.map((reason) => `  - ${reason}`));
  return lines.join('\n');
}

function operationLines(description: OperationDescription): string[] {
  const details = description.details.map((detail) => `  ${detail}`);
  switch (description.kind) {
    case 'sql':
      return [description.sql, ...details];
    case 'command':
      return [`$ ${description.command}`, `  (in ${description.cwd})`, ...details];
    case 'file':
      return [
        `${description.operation} ${description.path}`,
        ...(description.diff === undefined ? [] : [description.diff]),
        ...details,
      ];
    case 'http':
      return [
        description.requestLine,
        ...description.headers.map((header) => `  ${header}`),
        ...(description.bodyPreview === undefined ? [] : [description.bodyPreview]),
        ...details,
      ];
    case 'generic':
      return [description.summary, ...details];
    default: {
      const unreachable: never = description;
      return [String(unreachable)];
    }
  }
}
