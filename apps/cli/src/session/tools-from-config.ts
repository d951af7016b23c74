import type { ResolvedConfig } from '@riskgate/core';
import type { AnyTool, AssessContext } from '@riskgate/risk';
import type { SqlConnection } from '@riskgate/tools-sql';

/** The chat tools riskgate can offer; a host picks some. */
export type ChatToolKind = 'commands' | 'files' | 'http';
export const CHAT_TOOL_KINDS: readonly ChatToolKind[] = ['commands', 'files', 'http'];

/** execute_sql and describe_schema on one open database, with the config's limits. */
export async function createSqlTools(config: ResolvedConfig, connection: SqlConnection): Promise<AnyTool[]> {
  const { createDescribeSchemaTool, createExecuteSqlTool } = await import('@riskgate/tools-sql');
  return [
    createExecuteSqlTool({
      connection,
      limits: {
        ...(config.sql.maxRows === undefined ? {} : { maxRows: config.sql.maxRows }),
        ...(config.sql.modelRows === undefined ? {} : { modelRows: config.sql.modelRows }),
        ...(config.sql.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: config.sql.statementTimeoutMs }),
      },
    }),
    createDescribeSchemaTool({ connection }),
  ];
}

/** The chosen chat tools with the config's settings, each package loaded only when chosen. */
export async function createChatTools(
  config: ResolvedConfig,
  kinds: readonly ChatToolKind[] = CHAT_TOOL_KINDS,
): Promise<AnyTool[]> {
  const tools: AnyTool[] = [];
  if (kinds.includes('commands')) {
    const { createExecuteCommandTool } = await import('@riskgate/tools-command');
    tools.push(
      createExecuteCommandTool({
        ...(config.commands.timeoutMs === undefined ? {} : { defaultTimeoutMs: config.commands.timeoutMs }),
        ...(config.commands.maxOutputBytes === undefined ? {} : { maxOutputBytes: config.commands.maxOutputBytes }),
        ...(config.commands.sandbox === 'always' ? { sandbox: 'always' as const } : {}),
        passEnvironment: config.commands.passEnvironment ?? [],
        // The configured key may come from the config file: no command sees it under any name.
        secretValues: config.apiKey === undefined ? [] : [config.apiKey],
      }),
    );
  }
  if (kinds.includes('files')) {
    const { createFileOperationsTool } = await import('@riskgate/tools-file');
    tools.push(createFileOperationsTool());
  }
  if (kinds.includes('http')) {
    const { createHttpRequestTool } = await import('@riskgate/tools-http');
    tools.push(
      createHttpRequestTool({
        network: { allowLoopback: config.http.allowLoopback ?? false, allowPrivate: config.http.allowPrivate ?? false },
        ...(config.http.maxBodyBytes === undefined ? {} : { maxBodyBytes: config.http.maxBodyBytes }),
        ...(config.http.timeoutMs === undefined ? {} : { defaultTimeoutMs: config.http.timeoutMs }),
      }),
    );
  }
  return tools;
}

/**
 * Whether whitelisted commands can run in the bubblewrap sandbox here (checked once per
 * process), and the one line to tell the person when they cannot.
 */
export async function sandboxFromConfig(
  config: ResolvedConfig,
): Promise<{ readonly available: boolean; readonly notice?: string }> {
  if (config.commands.sandbox === 'off')
    return { available: false, notice: 'sandbox off (commands.sandbox): only commands safe without it run unasked' };
  const { loadBashParser, prepareFirstRun, probeCgroupHome, probeSandbox } = await import('@riskgate/tools-command');
  // The cgroup probe runs beside bubblewrap's, and the first run's zygote is started while the
  // model thinks: the first sandboxed call finds both ready (issue 20).
  void probeCgroupHome();
  const probing = probeSandbox();
  // The bash grammar's WebAssembly compiles on V8's background threads meanwhile (Liftoff only:
  // done long before a session without a command ends). Main-thread work such as the secret
  // engine's verdicts on the environment is not moved here: it would only shift the same
  // milliseconds onto sessions that never run a command (measured: +12 ms of CPU each).
  void loadBashParser().catch(() => undefined);
  const status = await probing;
  if (status.available) void prepareFirstRun().catch(() => undefined);
  return status.available ? { available: true } : { available: false, notice: status.message };
}

/**
 * What assessors and tools know of where calls run, from the config: one place for every host.
 * `sandbox` (from sandboxFromConfig) lets command rows marked sandboxOnly be whitelisted.
 */
export function assessContextFromConfig(
  config: ResolvedConfig,
  cwd: string,
  connection?: SqlConnection,
  sandbox = false,
): AssessContext {
  return {
    cwd,
    sandbox,
    // The judge reads which non-public addresses a read may reach from the context.
    network: { allowLoopback: config.http.allowLoopback ?? false, allowPrivate: config.http.allowPrivate ?? false },
    ...(connection === undefined ? {} : { dialect: connection.dialect }),
  };
}
