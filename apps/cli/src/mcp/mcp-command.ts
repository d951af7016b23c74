import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AuditLog,
  ConfigError,
  type ConfigFile,
  loadConfig,
  type ResolvedConfig,
  stateDirectory,
} from '@riskgate/core';
import type { AnyTool } from '@riskgate/risk';
import type { SqlConnection } from '@riskgate/tools-sql';
import {
  assessContextFromConfig,
  type ChatToolKind,
  createChatTools,
  createSqlTools,
  sandboxFromConfig,
} from '../session/tools-from-config.js';
import { warmFirstCall } from '../session/warm-up.js';
import { decisionExporterFor } from '../telemetry.js';
import { VERSION } from '../version.js';
import { modeFromFlags } from '../mode-flag.js';

export const MCP_HELP = `riskgate mcp — the gated tools as an MCP server over stdio

Usage:
  riskgate mcp [tools] [options]

Tools (without any of these: --commands --files --http):
  --db <file|url>     execute_sql and describe_schema on this SQLite file, postgres:// or mysql:// URL
  --commands          execute_command
  --files             file_operations
  --http              http_request

Options:
  --cwd <dir>         the workspace commands and file paths resolve against (default: .)
  --mode <m>          strict | smart | guarded (default: guarded, unless your config
                      or RISKGATE_MODE names a mode: the client's model rates its own
                      calls, so its "low" runs only what the code found no effect in)
  --yolo              run everything unasked (deny rules still hold); never the default;
                      an organisation's managed policy still holds (docs/policy.md)
  --allow <rule>      a user allow rule, e.g. 'execute_sql(SELECT *)'   (repeatable)
  --ask <rule>        a user ask rule                                   (repeatable)
  --deny <rule>       a user deny rule                                  (repeatable)

Every tools/call passes the same gate as in the assistant. What the gate would ask about is
asked through MCP elicitation when the client supports it; otherwise it is refused and the
reason goes back as the tool result. The config files and their rules apply (docs/agent.md);
each call is written to the audit log. Nothing but MCP messages is written to stdout.
`;

export interface McpArgs {
  readonly database?: string;
  readonly chatTools: readonly ChatToolKind[];
  readonly cwd: string;
  readonly flags: ConfigFile;
}

export function parseMcpArgs(argv: readonly string[]): McpArgs | { help: true } | { error: string } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse([...argv]);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { help: true };
  if (positionals.length > 0) return { error: `unexpected argument "${positionals[0]}"` };
  const chosenMode = modeFromFlags(values);
  if ('error' in chosenMode) return chosenMode;
  const chosen = (['commands', 'files', 'http'] as const).filter((kind) => values[kind] === true);
  const chatTools = chosen.length === 0 && values.db === undefined ? (['commands', 'files', 'http'] as const) : chosen;
  const { mode } = chosenMode;
  const rules = { allow: values.allow ?? [], ask: values.ask ?? [], deny: values.deny ?? [] };
  return {
    ...(values.db === undefined ? {} : { database: values.db }),
    chatTools,
    cwd: resolve(values.cwd ?? '.'),
    flags: { ...(mode === undefined ? {} : { mode }), rules },
  };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      db: { type: 'string' },
      commands: { type: 'boolean' },
      files: { type: 'boolean' },
      http: { type: 'boolean' },
      cwd: { type: 'string' },
      mode: { type: 'string' },
      yolo: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      ask: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** `riskgate mcp`: serves until the client closes stdin. */
export async function runMcp(
  argv: readonly string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const args = parseMcpArgs(argv);
  if ('help' in args) {
    io.stdout.write(MCP_HELP);
    return 0;
  }
  if ('error' in args) {
    io.stderr.write(`riskgate mcp: ${args.error}\nRun "riskgate mcp --help" for usage.\n`);
    return 1;
  }
  const config = await mcpConfig(args, io.stderr);
  if (config === undefined) return 1;
  const tools: AnyTool[] = [];
  let connection: SqlConnection | undefined;
  if (args.database !== undefined) {
    const { isSqlFailure, openSqlConnection } = await import('@riskgate/tools-sql');
    const opened = await openSqlConnection(args.database);
    if (isSqlFailure(opened)) {
      io.stderr.write(`riskgate mcp: ${opened.message}\n`);
      return 1;
    }
    connection = opened;
    tools.push(...(await createSqlTools(config, connection)));
  }
  tools.push(...(await createChatTools(config, args.chatTools)));
  const sandbox = args.chatTools.includes('commands') ? await sandboxFromConfig(config) : { available: false };
  if (sandbox.notice !== undefined) io.stderr.write(`riskgate mcp: ${sandbox.notice}\n`);

  const [{ BoundedStdioTransport }, { createMcpServer }] = await Promise.all([
    import('./bounded-stdio.js'),
    import('./mcp-server.js'),
  ]);
  const assess = assessContextFromConfig(config, args.cwd, connection, sandbox.available);
  const exporter = await decisionExporterFor(config, (message) => io.stderr.write(`riskgate mcp: ${message}\n`));
  const server = createMcpServer({
    tools,
    policy: config.policy,
    assess,
    // A full or read-only disk is said once on stderr; the server goes on serving.
    audit: new AuditLog(join(stateDirectory(), 'audit.jsonl'), {
      onFault: (message) => io.stderr.write(`riskgate mcp: ${message}\n`),
      ...(exporter === undefined ? {} : { forward: (entry) => exporter.record(entry) }),
    }),
    version: VERSION,
  });
  const closed = new Promise<void>((resolveClosed) => {
    server.onclose = () => resolveClosed();
  });
  // Requests are bounded (MAX_MCP_REQUEST_BYTES): an oversized one is answered with an error and said on stderr.
  const transport = new BoundedStdioTransport(process.stdin, process.stdout, (message) =>
    io.stderr.write(`riskgate mcp: ${message}\n`),
  );
  // The transport does not notice the end of stdin by itself: the client hanging up ends the server.
  process.stdin.once('end', () => void server.close());
  // What the first call needs (the parsers, SQLite's reader process) loads once the client has
  // its `initialize` reply, so the handshake never waits for it; a call that comes first waits
  // for the same loaders itself.
  server.oninitialized = () =>
    void warmFirstCall([...(connection === undefined ? [] : (['sql'] as const)), ...args.chatTools], {
      ...(connection === undefined ? {} : { connection }),
      gate: { tools, context: assess, policy: config.policy },
    });
  await server.connect(transport);
  io.stderr.write(
    `riskgate mcp ${VERSION}: serving ${tools.map((tool) => tool.name).join(', ')} in ${config.policy.mode} mode\n`,
  );
  await closed;
  await connection?.close();
  return 0;
}

/**
 * The configuration the server runs with (guarded unless the person named a mode), or
 * undefined after saying on stderr why there is none: a broken config or a rule that does not
 * parse is an error here, not silently dropped (the person typed it).
 */
async function mcpConfig(
  args: Extract<ReturnType<typeof parseMcpArgs>, { flags: unknown }>,
  stderr: NodeJS.WritableStream,
): Promise<ResolvedConfig | undefined> {
  let config: ResolvedConfig;
  try {
    config = loadConfig({ projectDirectory: args.cwd, flags: args.flags, defaultMode: 'guarded' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    stderr.write(`riskgate mcp: ${error.message}\n`);
    return undefined;
  }
  // An untrusted project's .riskgate/ may only tighten; what it asked for and did not get is named.
  if (config.project.notice !== undefined) stderr.write(`riskgate mcp: ${config.project.notice}\n`);
  if (config.managedNotice !== undefined) stderr.write(`riskgate mcp: ${config.managedNotice}\n`);
  const { parseRule } = await import('@riskgate/risk');
  for (const [effect, texts] of Object.entries(args.flags.rules ?? {})) {
    for (const text of texts ?? []) {
      const rule = parseRule(text, effect as 'allow');
      if (!rule.ok) {
        stderr.write(`riskgate mcp: --${effect} ${JSON.stringify(text)}: ${rule.error}\n`);
        return undefined;
      }
    }
  }
  return config;
}
