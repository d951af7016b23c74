import { readFileSync } from 'node:fs';
import type { PromptSources } from '@riskgate/prompt';
import { type GatePolicy, parseRule, type Rule, RULE_EFFECTS, type SafetyMode } from '@riskgate/risk/config';
import { z } from 'zod/v4';
import { ConfigError } from './config-error.js';
import { type ConfigFile, configSchema, type TelemetrySettings } from './config-schema.js';
import { type ResolvedTelemetry, resolveTelemetry } from './telemetry-settings.js';

export type { ResolvedTelemetry } from './telemetry-settings.js';
import { loadManagedPolicy, MANAGED_POLICY_PATH, type ManagedPolicy, underManagedPolicy } from './managed-policy.js';
import {
  projectConfigPath,
  projectPromptsDirectory,
  projectSettingsDirectory,
  userConfigPath,
  userPromptsDirectory,
} from './paths.js';
import {
  isTrustedProject,
  listPromptOverrides,
  type RestrictedProject,
  restrictUntrustedProject,
} from './project-trust.js';

export { type ConfigFile, configSchema } from './config-schema.js';

export { ConfigError } from './config-error.js';

export interface ConfigLayer {
  /** Where it came from, for messages: a path, "environment" or "command line". */
  readonly source: string;
  readonly values: ConfigFile;
}

export interface ResolvedConfig {
  readonly model?: string;
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly mode: SafetyMode;
  readonly policy: GatePolicy;
  readonly maxSteps: number;
  readonly requestTimeoutMs?: number;
  readonly maxRetries?: number;
  readonly sql: NonNullable<ConfigFile['sql']>;
  readonly commands: NonNullable<ConfigFile['commands']>;
  readonly http: NonNullable<ConfigFile['http']>;
  /** The layers that were read, in order. */
  readonly sources: readonly string[];
  /** Where prompt templates are looked for: the project's folder only when it is trusted. */
  readonly promptSources: PromptSources;
  /** The project's `.riskgate/` and whether it applies in full (docs/trust.md). */
  readonly project: ProjectTrust;
  /** The organisation's managed policy, when there is one (docs/policy.md); already in `policy`. */
  readonly managed?: ManagedPolicy;
  /** Where gate decisions are exported over OTLP; absent when telemetry is off. */
  readonly telemetry?: ResolvedTelemetry;
  /** One line when the managed policy overrode what the person asked for (a mode below its floor). */
  readonly managedNotice?: string;
}

export interface ProjectTrust {
  /** `<project>/.riskgate` */
  readonly settingsDirectory: string;
  readonly trusted: boolean;
  /** What an untrusted project asked for and did not get, in words; empty when nothing was left out. */
  readonly ignored: readonly string[];
  /** The one line to show the person when something was left out. */
  readonly notice?: string;
}

/** Read one config file; absent is fine (undefined), anything unreadable or invalid is an error naming the file and field. */
export function readConfigFile(path: string): ConfigLayer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  return { source: path, values: validateLayer(json, path) };
}

export function validateLayer(value: unknown, source: string): ConfigFile {
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : issue.message;
    throw new ConfigError(`${source}: ${field}: ${message}`);
  }
  for (const effect of RULE_EFFECTS) {
    for (const [index, text] of (parsed.data.rules?.[effect] ?? []).entries()) {
      const rule = parseRule(text, effect);
      if (!rule.ok) throw new ConfigError(`${source}: rules.${effect}[${index}]: ${rule.error}`);
    }
  }
  return parsed.data;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** OPENAI_API_KEY, OPENAI_BASE_URL, RISKGATE_MODEL, RISKGATE_MODE, RISKGATE_DATABASE. */
export function environmentLayer(env: Environment): ConfigLayer {
  const values: Record<string, unknown> = {};
  if (env.OPENAI_API_KEY) values.apiKey = env.OPENAI_API_KEY;
  if (env.RISKGATE_API_KEY) values.apiKey = env.RISKGATE_API_KEY;
  if (env.OPENAI_BASE_URL) values.baseURL = env.OPENAI_BASE_URL;
  if (env.RISKGATE_BASE_URL) values.baseURL = env.RISKGATE_BASE_URL;
  if (env.RISKGATE_MODEL) values.model = env.RISKGATE_MODEL;
  if (env.RISKGATE_MODE) values.mode = env.RISKGATE_MODE;
  if (env.RISKGATE_DATABASE) values.sql = { database: env.RISKGATE_DATABASE };
  const names: Record<string, string> = {
    apiKey: 'OPENAI_API_KEY',
    baseURL: 'OPENAI_BASE_URL',
    model: 'RISKGATE_MODEL',
    mode: 'RISKGATE_MODE',
  };
  try {
    return { source: 'environment', values: validateLayer(values, 'environment') };
  } catch (error) {
    const field = /environment: ([a-zA-Z.]+):/.exec((error as Error).message)?.[1] ?? '';
    throw new ConfigError(
      (error as Error).message.replace(`environment: ${field}`, `environment variable ${names[field] ?? field}`),
    );
  }
}

export interface LoadConfigOptions {
  /** The project directory (where .riskgate/config.json is looked for). */
  readonly projectDirectory: string;
  readonly env?: Environment;
  /** Flags from the command line: the last layer. */
  readonly flags?: ConfigFile;
  /**
   * The mode when no layer names one (default 'smart', the specification's). `riskgate mcp`
   * passes 'guarded': its caller's model is someone else's, so its `low` never runs a side effect.
   */
  readonly defaultMode?: SafetyMode;
  /** The system-wide managed policy file; only tests change it (default /etc/riskgate/managed-policy.json). */
  readonly managedPolicyPath?: string;
}

/**
 * The configuration in force: user file, project file, environment, flags — a later layer's
 * value wins; rule lists add up (a project cannot drop the person's deny rules). A project the
 * person has not trusted only tightens: its ask and deny rules apply, and its mode when it is
 * stricter than the person's; everything else it says is left out and named in `project.notice`.
 * Over all of it the organisation's managed policy (docs/policy.md): its rules come first, its
 * mode floor holds, and it may forbid trusting projects; a managed file that cannot be used
 * is a ConfigError (riskgate does not start).
 */
export function loadConfig(options: LoadConfigOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const managed = loadManagedPolicy(env, options.managedPolicyPath ?? MANAGED_POLICY_PATH);
  const user = readConfigFile(userConfigPath(env));
  const project = readConfigFile(projectConfigPath(options.projectDirectory));
  const environment = environmentLayer(env);
  const flags: ConfigLayer | undefined =
    options.flags === undefined
      ? undefined
      : { source: 'command line', values: validateLayer(options.flags, 'command line') };
  const person = [user, environment, flags].filter((layer) => layer !== undefined);
  const listed = isTrustedProject(options.projectDirectory, user?.values.trustedProjects ?? []);
  // A managed policy that forbids trust makes every project untrusted, listed or not.
  const trusted = listed && managed?.projectTrust !== false;
  const inOrder = (projectLayer?: ConfigLayer) =>
    [user, projectLayer, environment, flags].filter((layer) => layer !== undefined);
  const unmanaged = trusted
    ? trustedConfig(options, inOrder(project), env)
    : untrustedConfig(options, project, person, inOrder, env);
  const telemetry = resolveTelemetry(
    inOrder(trusted ? project : undefined).reduce<TelemetrySettings | undefined>(
      (merged, layer) => (layer.values.telemetry === undefined ? merged : { ...merged, ...layer.values.telemetry }),
      undefined,
    ),
    managed,
    env,
  );
  const withTelemetry = telemetry === undefined ? unmanaged : { ...unmanaged, telemetry };
  if (managed === undefined) return withTelemetry;
  const policy = underManagedPolicy(unmanaged.policy, managed);
  const raised = policy.mode !== unmanaged.mode;
  const refusedTrust = listed && !trusted ? ["your organisation's policy does not let projects be trusted"] : [];
  const notices = [
    ...(raised ? [`mode ${unmanaged.mode} is below the floor, so ${policy.mode} applies`] : []),
    ...refusedTrust,
  ];
  return {
    ...withTelemetry,
    mode: policy.mode,
    policy,
    managed,
    ...(notices.length === 0
      ? {}
      : { managedNotice: `your organisation's policy (${managed.sources.join(', ')}): ${notices.join('; ')}` }),
  };
}

function trustedConfig(options: LoadConfigOptions, layers: readonly ConfigLayer[], env: Environment): ResolvedConfig {
  return {
    ...mergeLayers(layers, options.defaultMode),
    promptSources: {
      projectDirectory: projectPromptsDirectory(options.projectDirectory),
      userDirectory: userPromptsDirectory(env),
    },
    project: { settingsDirectory: projectSettingsDirectory(options.projectDirectory), trusted: true, ignored: [] },
  };
}

function untrustedConfig(
  options: LoadConfigOptions,
  project: ConfigLayer | undefined,
  person: readonly ConfigLayer[],
  inOrder: (projectLayer?: ConfigLayer) => ConfigLayer[],
  env: Environment,
): ResolvedConfig {
  const settingsDirectory = projectSettingsDirectory(options.projectDirectory);
  const personMode = mergeLayers(person, options.defaultMode).mode;
  const restricted: RestrictedProject =
    project === undefined ? { kept: {}, ignored: [] } : restrictUntrustedProject(project.values, personMode);
  const templates = listPromptOverrides(projectPromptsDirectory(options.projectDirectory));
  const ignored = [...restricted.ignored, ...(templates.length === 0 ? [] : [`prompts (${templates.join(', ')})`])];
  const merged = mergeLayers(
    inOrder(project === undefined ? undefined : { source: project.source, values: restricted.kept }),
    options.defaultMode,
  );
  // A stricter project mode holds against every layer: while untrusted, the project can only add care.
  const mode = restricted.stricterMode ?? merged.mode;
  return {
    ...merged,
    mode,
    policy: { ...merged.policy, mode },
    promptSources: { userDirectory: userPromptsDirectory(env) },
    project: {
      settingsDirectory,
      trusted: false,
      ignored,
      ...(ignored.length === 0
        ? {}
        : { notice: `ignored from ${settingsDirectory}/ until you run "riskgate trust" there: ${ignored.join(', ')}` }),
    },
  };
}

/** The layers merged in order, later wins, rules add up; no trust is applied here. */
export function mergeLayers(
  layers: readonly ConfigLayer[],
  defaultMode: SafetyMode = 'smart',
): Omit<ResolvedConfig, 'promptSources' | 'project'> {
  const merged: ConfigFile = {};
  const rules: Rule[] = [];
  for (const { values } of layers) {
    for (const key of ['model', 'baseURL', 'apiKey', 'mode', 'maxSteps', 'requestTimeoutMs', 'maxRetries'] as const) {
      if (values[key] !== undefined) (merged as Record<string, unknown>)[key] = values[key];
    }
    for (const key of ['sql', 'commands', 'http'] as const) {
      if (values[key] !== undefined) (merged as Record<string, unknown>)[key] = { ...merged[key], ...values[key] };
    }
    for (const effect of RULE_EFFECTS) {
      for (const text of values.rules?.[effect] ?? []) {
        const parsed = parseRule(text, effect);
        if (parsed.ok) rules.push(parsed.rule);
      }
    }
  }
  const mode = merged.mode ?? defaultMode;
  return {
    ...(merged.model === undefined ? {} : { model: merged.model }),
    ...(merged.baseURL === undefined ? {} : { baseURL: merged.baseURL }),
    ...(merged.apiKey === undefined ? {} : { apiKey: merged.apiKey }),
    ...(merged.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: merged.requestTimeoutMs }),
    ...(merged.maxRetries === undefined ? {} : { maxRetries: merged.maxRetries }),
    mode,
    policy: { mode, rules },
    maxSteps: merged.maxSteps ?? 20,
    sql: merged.sql ?? {},
    commands: merged.commands ?? {},
    http: merged.http ?? {},
    sources: layers.map((layer) => layer.source),
  };
}

/** The JSON Schema editors use for config.json (shipped as config.schema.json). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
}
