import { readFileSync } from 'node:fs';
import {
  type GatePolicy,
  type ManagedGate,
  MODE_STRICTNESS,
  parseRule,
  type Rule,
  type SafetyMode,
} from '@riskgate/risk/config';
import { z } from 'zod/v4';
import { ConfigError } from './config-error.js';
import { type TelemetrySettings, telemetrySchema } from './config-schema.js';

/**
 * Where an organisation puts its managed policy (docs/policy.md). Fixed: a person can point
 * `RISKGATE_MANAGED_POLICY` at a second file, which only adds to this one.
 */
export const MANAGED_POLICY_PATH = '/etc/riskgate/managed-policy.json';
/** A second managed policy file that adds to the system one (never replaces it). */
export const MANAGED_POLICY_VARIABLE = 'RISKGATE_MANAGED_POLICY';

const managedRuleList = z
  .array(z.string().min(1))
  .describe('Rules such as "execute_command(rm *)", the syntax of docs/rules.md');

/** The managed policy file: the config file's format, cut to what can only tighten. */
export const managedPolicySchema = z
  .object({
    $schema: z.string().optional(),
    // No `allow`: a managed policy never lets anything run; an allow list is rejected by name.
    rules: z.object({ ask: managedRuleList.optional(), deny: managedRuleList.optional() }).strict().optional(),
    minimumMode: z
      .enum(['smart', 'guarded', 'strict'])
      .optional()
      .describe('The loosest mode anyone may use: smart forbids yolo; guarded or strict go further'),
    projectTrust: z
      .boolean()
      .optional()
      .describe('false: no project is trusted (its .riskgate/ only tightens) and "riskgate trust" refuses'),
    telemetry: telemetrySchema
      .optional()
      .describe('With enabled: true, telemetry is on for everyone and goes where this says'),
  })
  .strict();

export type ManagedPolicyFile = z.infer<typeof managedPolicySchema>;

/** The managed policy in force: the system file and the environment's file, added up. */
export interface ManagedPolicy {
  /** The files read, in order. */
  readonly sources: readonly string[];
  readonly rules: readonly Rule[];
  readonly minimumMode?: SafetyMode;
  /** false when any file says projects may not be trusted. */
  readonly projectTrust: boolean;
  /** The first file's telemetry section (the system file's when it has one). */
  readonly telemetry?: TelemetrySettings;
}

/** Fails closed: callers that print a ConfigError and stop do the same for a managed policy. */
export class ManagedPolicyError extends ConfigError {}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The managed policy, or undefined when there is none. Fails closed: a file that exists but
 * cannot be read, is not JSON or does not fit the schema is an error naming it (riskgate then
 * refuses to start), never a policy silently skipped. The environment's file must exist.
 */
export function loadManagedPolicy(
  env: Environment,
  systemPath: string = MANAGED_POLICY_PATH,
): ManagedPolicy | undefined {
  const files: [string, ManagedPolicyFile][] = [];
  const system = readManagedFile(systemPath, false);
  if (system !== undefined) files.push([systemPath, system]);
  const extra = env[MANAGED_POLICY_VARIABLE];
  if (extra !== undefined && extra !== '' && extra !== systemPath) {
    const added = readManagedFile(extra, true);
    if (added !== undefined) files.push([extra, added]);
  }
  if (files.length === 0) return undefined;
  const rules: Rule[] = [];
  let minimumMode: SafetyMode | undefined;
  let projectTrust = true;
  let telemetry: TelemetrySettings | undefined;
  for (const [path, file] of files) {
    for (const effect of ['deny', 'ask'] as const) {
      for (const [index, text] of (file.rules?.[effect] ?? []).entries()) {
        const parsed = parseRule(text, effect);
        if (!parsed.ok)
          throw new ManagedPolicyError(`managed policy ${path}: rules.${effect}[${index}]: ${parsed.error}`);
        rules.push(parsed.rule);
      }
    }
    if (file.minimumMode !== undefined) minimumMode = stricter(minimumMode, file.minimumMode);
    if (file.projectTrust === false) projectTrust = false;
    telemetry ??= file.telemetry;
  }
  return {
    sources: files.map(([path]) => path),
    rules,
    ...(minimumMode === undefined ? {} : { minimumMode }),
    projectTrust,
    ...(telemetry === undefined ? {} : { telemetry }),
  };
}

function readManagedFile(path: string, mustExist: boolean): ManagedPolicyFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return undefined;
    const from = mustExist ? ` (named by ${MANAGED_POLICY_VARIABLE})` : '';
    throw new ManagedPolicyError(`managed policy ${path}${from}: cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ManagedPolicyError(`managed policy ${path}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = managedPolicySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}${issue.keys.includes('allow') ? ' (a managed policy can only ask and deny)' : ''}`
        : issue.message;
    throw new ManagedPolicyError(`managed policy ${path}: ${field}: ${message}`);
  }
  return parsed.data;
}

function stricter(a: SafetyMode | undefined, b: SafetyMode): SafetyMode {
  if (a === undefined) return b;
  return MODE_STRICTNESS.indexOf(a) >= MODE_STRICTNESS.indexOf(b) ? a : b;
}

/** What `decide()` needs of the managed policy. */
export function managedGate(policy: ManagedPolicy): ManagedGate {
  return {
    rules: policy.rules,
    ...(policy.minimumMode === undefined ? {} : { floor: policy.minimumMode }),
    sources: policy.sources,
  };
}

/**
 * A gate policy under the managed policy: its mode raised to the floor and the managed rules
 * attached. A policy that already carries one is left as it is (loadConfig attached it).
 */
export function underManagedPolicy(policy: GatePolicy, managed: ManagedPolicy | undefined): GatePolicy {
  if (managed === undefined || policy.managed !== undefined) return policy;
  const mode = stricter(policy.mode, managed.minimumMode ?? policy.mode);
  return { ...policy, mode, managed: managedGate(managed) };
}
