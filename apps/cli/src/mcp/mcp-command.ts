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
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
import { isLoopback, type ListenAddress, parseListen } from './listen-address.js';

export const MCP_HELP = `riskgate mcp — the gated tools as an MCP server, over stdio or Streamable HTTP

Usage:
  riskgate mcp [tools] [options]

Tools (without any of these: --commands --files --http):
  --db <file|url>     execute_sql and describe_schema on this SQLite file or a
                      postgres://, postgresql://, mysql:// or mariadb:// URL; the schema
                      is also served as resources (riskgate://schema, one per table)
  --commands          execute_command
  --files             file_operations
  --http              http_request (the tool; the transport is --listen)

Options:
  --cwd <dir>         the workspace commands and file paths resolve against (default: the
                      client's first file:// root when it declares roots, else .)
  --mode <m>          strict | smart | guarded (default: guarded, unless your config
                      or RISKGATE_MODE names a mode: the client's model rates its own
                      calls, so its "low" runs only what the code found no effect in)
  --yolo              run everything unasked (deny rules still hold); never the default;
                      an organisation's managed policy still holds (docs/policy.md)
  --allow <rule>      a user allow rule, e.g. 'execute_sql(SELECT *)'   (repeatable)
  --ask <rule>        a user ask rule                                   (repeatable)
  --deny <rule>       a user deny rule                                  (repeatable)
  --listen <[host:]port>
                      serve over Streamable HTTP at http://host:port/mcp instead of stdio;
                      the host is 127.0.0.1 unless named (another address warns: anyone
                      who has the token can reach it). Every request needs the header
                      "Authorization: Bearer <token>": RISKGATE_MCP_TOKEN (16+ characters),
                      else a new token written to $XDG_STATE_HOME/riskgate/mcp-token (0600)
  -h, --help          this help

Every tools/call passes the same gate as in the assistant. What the gate would ask about is
asked through MCP elicitation when the client supports it; otherwise it is refused and the
reason goes back as the tool result. The config files and their rules apply (docs/agent.md);
each call is written to the audit log. Over stdio nothing but MCP messages is written to
stdout; the server ends when the client closes stdin (--listen: on SIGINT or SIGTERM).
`;

export interface McpArgs {
  readonly database?: string;
  readonly chatTools: readonly ChatToolKind[];
  readonly cwd: string;
  /** The person named --cwd: the client's roots do not move the workspace then. */
  readonly cwdGiven: boolean;
  readonly listen?: ListenAddress;
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
  const listen = values.listen === undefined ? undefined : parseListen(values.listen);
  if (listen !== undefined && 'error' in listen) return listen;
  const rules = { allow: values.allow ?? [], ask: values.ask ?? [], deny: values.deny ?? [] };
  return {
    ...(values.db === undefined ? {} : { database: values.db }),
    chatTools,
    cwd: resolve(values.cwd ?? '.'),
    cwdGiven: values.cwd !== undefined,
    ...(listen === undefined ? {} : { listen }),
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
      listen: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** `riskgate mcp`: serves until the client closes stdin (--listen: until SIGINT or SIGTERM). */
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
  const notice = (message: string) => void io.stderr.write(`riskgate mcp: ${message}\n`);
  const config = await mcpConfig(args, notice);
  if (config === undefined) return 1;
  const served = await openTools(args, config, notice);
  if (served === undefined) return 1;
  const { tools, connection, schemaTool, sandbox } = served;
  const { createMcpServer } = await import('./mcp-server.js');
  const workspaceFor = (resolved: ResolvedConfig, directory: string) => ({
    policy: resolved.policy,
    assess: assessContextFromConfig(resolved, directory, connection, sandbox),
  });
  // A full or read-only disk is said once on stderr; the server goes on serving.
  // Telemetry (docs/policy.md) hears every decision after the audit log's redaction.
  const exporter = await decisionExporterFor(config, notice);
  const audit = new AuditLog(join(stateDirectory(), 'audit.jsonl'), {
    onFault: notice,
    ...(exporter === undefined ? {} : { forward: (entry) => exporter.record(entry) }),
  });
  const newServer = () =>
    createMcpServer({
      tools,
      workspace: workspaceFor(config, args.cwd),
      ...(args.cwdGiven
        ? {}
        : { workspaceAt: (directory: string) => rootWorkspace(args, directory, notice, workspaceFor) }),
      ...(connection === undefined || schemaTool === undefined
        ? {}
        : { schema: { tool: schemaTool, tables: () => tableNames(connection) } }),
      notice,
      audit,
      version: VERSION,
      // What the first call needs (the parsers, SQLite's reader process) loads once the client has
      // its `initialize` reply, so the handshake never waits for it; a call that comes first waits
      // for the same loaders itself.
      onInitialized: () =>
        void warmFirstCall([...(connection === undefined ? [] : (['sql'] as const)), ...args.chatTools], {
          ...(connection === undefined ? {} : { connection }),
          gate: { tools, context: workspaceFor(config, args.cwd).assess, policy: config.policy },
        }),
    });
  const serving = `serving ${tools.map((tool) => tool.name).join(', ')} in ${config.policy.mode} mode`;
  const code =
    args.listen === undefined
      ? await serveStdio(newServer(), () => io.stderr.write(`riskgate mcp ${VERSION}: ${serving}\n`), notice)
      : await serveHttp(
          args.listen,
          newServer,
          (url) => io.stderr.write(`riskgate mcp ${VERSION}: ${serving} at ${url}\n`),
          notice,
        );
  await connection?.close();
  return code;
}

/** The database's tools and the chosen chat tools, or undefined after saying why not. */
async function openTools(
  args: McpArgs,
  config: ResolvedConfig,
  notice: (message: string) => void,
): Promise<{ tools: AnyTool[]; connection?: SqlConnection; schemaTool?: string; sandbox: boolean } | undefined> {
  const tools: AnyTool[] = [];
  let connection: SqlConnection | undefined;
  let schemaTool: string | undefined;
  if (args.database !== undefined) {
    const { DESCRIBE_SCHEMA_TOOL_NAME, isSqlFailure, openSqlConnection } = await import('@riskgate/tools-sql');
    schemaTool = DESCRIBE_SCHEMA_TOOL_NAME;
    const opened = await openSqlConnection(args.database);
    if (isSqlFailure(opened)) {
      notice(opened.message);
      return undefined;
    }
    connection = opened;
    tools.push(...(await createSqlTools(config, connection)));
  }
  tools.push(...(await createChatTools(config, args.chatTools)));
  const sandbox = args.chatTools.includes('commands') ? await sandboxFromConfig(config) : { available: false };
  if (sandbox.notice !== undefined) notice(sandbox.notice);
  return {
    tools,
    ...(connection === undefined || schemaTool === undefined ? {} : { connection, schemaTool }),
    sandbox: sandbox.available,
  };
}

/** The table and view names of the catalog, for resources/list (no rows are read). */
async function tableNames(connection: SqlConnection): Promise<readonly string[]> {
  const { isSqlFailure } = await import('@riskgate/tools-sql');
  const schema = await connection.describeSchema();
  return isSqlFailure(schema) ? [] : schema.tables.map((table) => table.name);
}

/**
 * A client root as the workspace: its config loaded as --cwd's would be, with workspace trust
 * (an untrusted root's .riskgate/ may only tighten). A root whose config does not load leaves
 * the workspace as it was, and says why.
 */
function rootWorkspace<Workspace>(
  args: McpArgs,
  directory: string,
  notice: (message: string) => void,
  workspaceFor: (config: ResolvedConfig, directory: string) => Workspace,
): Workspace | undefined {
  let config: ResolvedConfig;
  try {
    config = loadConfig({ projectDirectory: directory, flags: args.flags, defaultMode: 'guarded' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    notice(`the client's root ${directory} is not used as the workspace: ${error.message}`);
    return undefined;
  }
  if (config.project.notice !== undefined) notice(config.project.notice);
  notice(`workspace: ${directory} (the client's root), ${config.policy.mode} mode`);
  return workspaceFor(config, directory);
}

async function serveStdio(server: Server, started: () => void, notice: (message: string) => void): Promise<number> {
  const { BoundedStdioTransport } = await import('./bounded-stdio.js');
  const closed = new Promise<void>((resolveClosed) => {
    server.onclose = () => resolveClosed();
  });
  // Requests are bounded (MAX_MCP_REQUEST_BYTES): an oversized one is answered with an error and said on stderr.
  const transport = new BoundedStdioTransport(process.stdin, process.stdout, notice);
  // The transport does not notice the end of stdin by itself: the client hanging up ends the server.
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  started();
  await closed;
  return 0;
}

/** --listen: until SIGINT or SIGTERM. Nothing is read from stdin. */
async function serveHttp(
  address: ListenAddress,
  newServer: () => Server,
  started: (url: string) => void,
  notice: (message: string) => void,
): Promise<number> {
  const { listenMcpHttp, mcpToken } = await import('./mcp-http.js');
  const token = mcpToken(process.env, join(stateDirectory(), 'mcp-token'));
  if ('error' in token) {
    notice(token.error);
    return 1;
  }
  let listener: Awaited<ReturnType<typeof listenMcpHttp>>;
  try {
    listener = await listenMcpHttp({ address, token: token.token, createServer: newServer, notice });
  } catch (error) {
    notice(`cannot listen on ${address.host}:${address.port}: ${(error as Error).message}`);
    return 1;
  }
  if (!isLoopback(address.host))
    notice(
      `${address.host} is not a loopback address: other machines can reach this server, and anyone who has the token can run these tools; plain HTTP carries the token unencrypted (put TLS in front, or use an SSH tunnel)`,
    );
  notice(
    `the bearer token is ${token.source === 'RISKGATE_MCP_TOKEN' ? 'RISKGATE_MCP_TOKEN' : `in ${token.source} (0600)`}`,
  );
  started(listener.url);
  await new Promise<void>((resolveStopped) => {
    process.once('SIGINT', () => resolveStopped());
    process.once('SIGTERM', () => resolveStopped());
  });
  await listener.close();
  return 0;
}

/**
 * The configuration the server runs with (guarded unless the person named a mode), or
 * undefined after saying on stderr why there is none: a broken config or a rule that does not
 * parse is an error here, not silently dropped (the person typed it).
 */
async function mcpConfig(args: McpArgs, notice: (message: string) => void): Promise<ResolvedConfig | undefined> {
  let config: ResolvedConfig;
  try {
    config = loadConfig({ projectDirectory: args.cwd, flags: args.flags, defaultMode: 'guarded' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    notice(error.message);
    return undefined;
  }
  // An untrusted project's .riskgate/ may only tighten; what it asked for and did not get is named.
  if (config.project.notice !== undefined) notice(config.project.notice);
  if (config.managedNotice !== undefined) notice(config.managedNotice);
  const { parseRule } = await import('@riskgate/risk');
  for (const [effect, texts] of Object.entries(args.flags.rules ?? {})) {
    for (const text of texts ?? []) {
      const rule = parseRule(text, effect as 'allow');
      if (!rule.ok) {
        notice(`--${effect} ${JSON.stringify(text)}: ${rule.error}`);
        return undefined;
      }
    }
  }
  return config;
}
