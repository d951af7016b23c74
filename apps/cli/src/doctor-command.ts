import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ConfigFile,
  ConfigError,
  configDirectory,
  loadConfig,
  projectConfigPath,
  type ResolvedConfig,
} from '@riskgate/core';
import { modeFromFlags } from './mode-flag.js';
import { policyCheck, telemetryCheck } from './policy-doctor.js';

export interface DoctorIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

/**
 * The options doctor shares with the assistant (`--model`, `--base-url`, `--db`, `--mode`), so
 * `riskgate doctor --model x --base-url y` checks exactly what `riskgate --model x --base-url y`
 * would use.
 */
function doctorOptions(args: readonly string[]): { flags: ConfigFile; database?: string } | { error: string } {
  let values: { model?: string; 'base-url'?: string; db?: string; mode?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      options: {
        model: { type: 'string' },
        'base-url': { type: 'string' },
        db: { type: 'string' },
        mode: { type: 'string' },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const mode = modeFromFlags(values);
  if ('error' in mode) return mode;
  return {
    flags: {
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(values['base-url'] === undefined ? {} : { baseURL: values['base-url'] }),
      ...(mode.mode === undefined ? {} : { mode: mode.mode }),
    },
    ...(values.db === undefined ? {} : { database: values.db }),
  };
}

type Check = { readonly name: string; readonly ok: boolean; readonly lines: readonly string[] };

/**
 * `riskgate doctor`: what works here, one section per part — the configuration layers and the
 * project's trust, the sandbox, the model endpoint, the database, the environment commands get. Exit 0 when nothing
 * is broken, 1 when something is (an invalid config, an unreachable model or database).
 * A missing sandbox is not "broken": riskgate works without it and asks more often.
 */
export async function runDoctor(args: readonly string[], io: DoctorIo): Promise<number> {
  const options = doctorOptions(args);
  if ('error' in options) {
    io.stderr.write(`riskgate doctor: ${options.error}\nRun "riskgate doctor --help" for usage.\n`);
    return 1;
  }
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const checks: Check[] = [];
  let config: ResolvedConfig | undefined;
  const userPath = join(configDirectory(env), 'config.json');
  const projectPath = projectConfigPath(cwd);
  try {
    config = loadConfig({ projectDirectory: cwd, env, flags: options.flags });
    checks.push({
      name: 'config',
      ok: true,
      lines: [
        `user     ${userPath} (${existsSync(userPath) ? 'read' : 'absent'})`,
        `project  ${projectPath} (${existsSync(projectPath) ? 'read' : 'absent'}; ${config.project.trusted ? 'trusted: applies in full' : 'not trusted: it may only tighten the gate ("riskgate trust")'})`,
        ...(config.project.notice === undefined ? [] : [config.project.notice]),
        `layers in force: ${config.sources.join(', ')}; mode ${config.mode}; ${config.policy.rules.length} rule(s)`,
      ],
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push({ name: 'config', ok: false, lines: [error.message] });
  }
  checks.push(policyCheck(config, env), telemetryCheck(config));

  const { childEnvironment, describeBounds, probeSandbox } = await import('@riskgate/tools-command');
  const setting = config?.commands.sandbox ?? 'whitelisted';
  const sandbox =
    setting === 'off' ? { available: false, message: 'off (commands.sandbox is "off")' } : await probeSandbox();
  checks.push({
    name: 'sandbox',
    ok: true,
    lines: sandbox.available
      ? [
          `${sandbox.message}; runs ${setting === 'always' ? 'every command' : 'whitelisted commands'}`,
          describeBounds(),
        ]
      : [sandbox.message],
  });

  checks.push(await checkModel(config));
  checks.push(await checkDatabase(config, env, options.database));

  // What commands really get (by name and by value: a URL with a password under any name).
  const passed = childEnvironment(env, { pass: config?.commands.passEnvironment ?? [] });
  const withheld = Object.keys(env)
    .filter((name) => env[name] !== undefined && !(name in passed))
    .sort();
  checks.push({
    name: 'environment',
    ok: true,
    lines: [
      withheld.length === 0
        ? 'commands get the whole environment (no variable here is secret by its name or value)'
        : `commands do not get: ${withheld.join(', ')} (let one through with commands.passEnvironment)`,
    ],
  });

  for (const check of checks) {
    const [first, ...rest] = check.lines;
    io.stdout.write(`${check.ok ? '✓' : '✗'} ${check.name.padEnd(12)}${first ?? ''}\n`);
    for (const line of rest) io.stdout.write(`  ${''.padEnd(12)}${line}\n`);
  }
  return checks.every((check) => check.ok) ? 0 : 1;
}

async function checkModel(config: ResolvedConfig | undefined): Promise<Check> {
  if (config === undefined) return { name: 'model', ok: false, lines: ['not checked: the configuration is invalid'] };
  if (config.model === undefined || (config.apiKey === undefined && config.baseURL === undefined)) {
    return {
      name: 'model',
      ok: false,
      lines: [
        'none configured: set RISKGATE_MODEL and OPENAI_API_KEY or OPENAI_BASE_URL (riskgate assess works without one)',
      ],
    };
  }
  const baseURL = (config.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const where = `${config.model} at ${baseURL}${config.apiKey === undefined ? '' : ' (with an API key)'}`;
  try {
    const response = await fetch(`${baseURL}/models`, {
      headers: config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` },
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    if (response.status === 401 || response.status === 403)
      return { name: 'model', ok: false, lines: [where, `the endpoint refused the API key (HTTP ${response.status})`] };
    return { name: 'model', ok: true, lines: [where, `reachable (GET /models: HTTP ${response.status})`] };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      name: 'model',
      ok: false,
      lines: [where, `not reachable (${cause?.code ?? cause?.message ?? (error as Error).message})`],
    };
  }
}

/**
 * The database `riskgate sql` would open (docs/sql.md, "Connecting"): where the choice came from,
 * each setting with its source (a password only as "set"), and whether it answers.
 */
async function checkDatabase(
  config: ResolvedConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  flag: string | undefined,
): Promise<Check> {
  const sql = await import('@riskgate/tools-sql');
  const chosen = sql.chooseDatabase({ flag, configured: config?.sql.database }, { env: env as NodeJS.ProcessEnv });
  if (sql.isSqlFailure(chosen)) return { name: 'database', ok: false, lines: [chosen.message] };
  if (chosen.target === undefined)
    return {
      name: 'database',
      ok: true,
      lines: [
        'none configured: "riskgate sql" opens the demo SQLite database',
        '(no --db, sql.database, DATABASE_URL, PG* variable, MYSQL_* variable or ~/.my.cnf client section)',
      ],
    };
  const from = `${chosen.shown} (from ${chosen.source})`;
  const settings = sql.describeConnectionSettings(chosen.target, chosen.conventions);
  if (sql.isSqlFailure(settings)) return { name: 'database', ok: false, lines: [from, settings.message] };
  const details = settings.map((line) => `  ${line}`);
  const opened = await sql.openSqlConnection(chosen.target, { conventions: chosen.conventions });
  if (sql.isSqlFailure(opened)) return { name: 'database', ok: false, lines: [from, ...details, opened.message] };
  const label = `${opened.dialect} ${opened.label}`;
  await opened.close();
  return { name: 'database', ok: true, lines: [`${label}: reachable (from ${chosen.source})`, ...details] };
}
