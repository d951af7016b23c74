import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { type ApprovalRequest, type AuditLog, createGatedExecutor } from '@riskgate/core';
import { type AnyTool, type AssessContext, evaluateToolCall, type GatePolicy } from '@riskgate/risk';
import { askThroughElicitation, supportsFormElicitation } from './mcp-elicitation.js';
import { reportProgress } from './mcp-progress.js';
import { type RequestExtra, serveSchemaResources } from './mcp-resources.js';
import { workspaceFromRoots } from './mcp-roots.js';
import { toCallResult, toMcpTool } from './mcp-tools.js';

export { elicitationMessage } from './mcp-elicitation.js';

/** Where calls run and under which policy: the --cwd folder's, or a client root's. */
export interface McpWorkspace {
  readonly policy: GatePolicy;
  readonly assess: AssessContext;
}

export interface McpServerOptions {
  readonly tools: readonly AnyTool[];
  readonly workspace: McpWorkspace;
  /**
   * Given when the person named no --cwd: the workspace for a client's root directory (its
   * config loaded with workspace trust), or undefined after saying why there is none.
   */
  readonly workspaceAt?: (directory: string) => McpWorkspace | undefined;
  /** With --db: the schema is served as resources, read through this tool (describe_schema). */
  readonly schema?: { readonly tool: string; readonly tables: () => Promise<readonly string[]> };
  readonly notice?: (message: string) => void;
  /** After the client's `notifications/initialized` (the warm-up of what the first call needs). */
  readonly onInitialized?: () => void;
  readonly audit?: AuditLog;
  readonly version: string;
}

let sessions = 0;

/** How long a tools/call may wait for the client's roots/list answer. */
const ROOTS_TIMEOUT_MS = 10_000;

/**
 * The gated tools as an MCP server (one per client session). Every tools/call goes through one
 * gated executor; what the gate would ask about is asked through elicitation when the client
 * supports it, and refused with the reason when it does not (a client that cannot ask never runs it).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'riskgate', version: options.version },
    {
      capabilities: { tools: {}, ...(options.schema === undefined ? {} : { resources: {} }) },
      instructions:
        'riskgate runs these tools through a risk gate: read-only operations run at once, anything else is confirmed by the person ' +
        '(or refused when this client cannot ask). Rate each call with risk_level (low | medium | high) where you can.',
    },
  );
  let workspace = options.workspace;
  // The session's untrusted-content state lives in the executor and outlasts a change of root.
  const executor = createGatedExecutor({
    tools: options.tools,
    policy: workspace.policy,
    assess: workspace.assess,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    session: `mcp-${process.pid}-${++sessions}`,
  });
  const confirm = (approval: ApprovalRequest, signal: AbortSignal) => askThroughElicitation(server, approval, signal);
  const canAsk = () => supportsFormElicitation(server.getClientCapabilities());

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => toMcpTool(tool, workspace.policy.mode)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A call that comes while the client's roots are being read runs in the workspace they name.
    await rootsRead(extra);
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? undefined : reportProgress(token, extra.sendNotification);
    try {
      const outcome = await executor.run(
        { id: `mcp-${String(extra.requestId)}`, name: request.params.name, arguments: request.params.arguments ?? {} },
        {
          policy: workspace.policy,
          assess: workspace.assess,
          signal: extra.signal,
          ...(progress === undefined ? {} : { onEvent: progress.onEvent }),
          ...(canAsk() ? { confirm } : {}),
        },
      );
      return toCallResult(outcome);
    } finally {
      progress?.stop();
    }
  });

  const { schema } = options;
  const schemaTool = schema === undefined ? undefined : options.tools.find((tool) => tool.name === schema.tool);
  if (schema !== undefined && schemaTool !== undefined) {
    let reads = 0;
    serveSchemaResources(server, {
      // In the workspace's policy (a root's deny rule counts): a deny on describe_schema hides the names too.
      tables: async (extra) => {
        await rootsRead(extra);
        const { decision } = await evaluateToolCall(schemaTool, {}, workspace.assess, workspace.policy);
        return decision.action === 'deny' ? [] : schema.tables();
      },
      describe: async (table, extra) => {
        await rootsRead(extra);
        return executor.run(
          { id: `mcp-resource-${++reads}`, name: schema.tool, arguments: table === undefined ? {} : { table } },
          {
            policy: workspace.policy,
            assess: workspace.assess,
            signal: extra.signal,
            ...(canAsk() ? { confirm } : {}),
          },
        );
      },
    });
  }

  const rootsRead = followRoots(server, options, (next) => {
    workspace = next;
  });
  server.oninitialized = () => options.onInitialized?.();
  return server;
}

/**
 * Roots as the workspace (without --cwd). The roots are read when a call needs the workspace
 * and the client declared roots: first after `initialized`, then after each
 * `notifications/roots/list_changed`. They are asked for inside that call, so the request goes
 * on the call's own stream (over HTTP a request sent outside one could be lost before the client
 * opens its event stream). The first file:// root that is a local directory becomes the
 * workspace (its config loaded with workspace trust). Never throws: a client that fails to
 * answer leaves the workspace as it was.
 */
function followRoots(
  server: Server,
  options: McpServerOptions,
  setWorkspace: (workspace: McpWorkspace) => void,
): (extra: RequestExtra) => Promise<void> {
  const { workspaceAt } = options;
  let stale = workspaceAt !== undefined;
  let reading: Promise<void> | undefined;
  const read = async (extra: RequestExtra) => {
    if (workspaceAt === undefined || server.getClientCapabilities()?.roots === undefined) return;
    try {
      // Read loosely: the SDK's own schema rejects the whole list for one root that is not
      // file://, where each such root is only passed over with a notice.
      const { roots } = await extra.sendRequest({ method: 'roots/list' }, LooseRootsSchema, {
        timeout: ROOTS_TIMEOUT_MS,
      });
      const chosen = workspaceFromRoots(roots);
      for (const notice of chosen.notices) options.notice?.(notice);
      if (chosen.directory === undefined) return;
      const next = workspaceAt(chosen.directory);
      if (next !== undefined) setWorkspace(next);
    } catch (error) {
      options.notice?.(`the client's roots could not be read: ${(error as Error).message}`);
    }
  };
  if (workspaceAt !== undefined)
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      stale = true;
    });
  return async (extra) => {
    if (stale) {
      stale = false;
      reading = read(extra);
    }
    await reading;
  };
}

const LooseRootsSchema = z.object({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});
