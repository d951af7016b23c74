import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  DEFAULT_SAFETY_MODE,
  type Decision,
  disagreementText,
  evaluateToolCall,
  type GatePolicy,
  parseRule,
  type Rule,
  type RuleEffect,
  SAFETY_MODES,
  SQL_DIALECTS,
  type SafetyMode,
  type SqlDialect,
} from '@riskgate/risk';
import { loadConfig } from '@riskgate/core';
import { z } from 'zod/v4';
import type { SqlConnection } from '@riskgate/tools-sql';
import { type AnyTool, loadToolCatalog } from './tool-catalog.js';

export interface CommandStreams {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** The stable line format of `riskgate assess --jsonl` (docs/assess.md). */
export interface VerdictLine {
  readonly decision: Decision['action'];
  readonly source: Decision['source'];
  readonly level: Decision['level'];
  readonly whitelisted: boolean;
  readonly reasons: readonly string[];
  /** The three parts of `reasons`: why the gate decided so, what the code found, what else to know. */
  readonly why: string;
  readonly findings: readonly string[];
  readonly notes: readonly string[];
  /** What the operation does, in plain words, each with the judge's verdict and level. */
  readonly effects: Decision['effects'];
}

const jsonlRequest = z.object({
  tool: z.string().min(1),
  args: z.unknown().optional(),
  dialect: z.enum(SQL_DIALECTS as [SqlDialect, ...SqlDialect[]]).optional(),
  mode: z.enum(SAFETY_MODES as [SafetyMode, ...SafetyMode[]]).optional(),
  cwd: z.string().min(1).optional(),
});

interface Defaults {
  readonly mode: SafetyMode;
  readonly dialect: SqlDialect;
  readonly cwd: string;
  readonly rules: readonly Rule[];
  /** Whitelisted commands would run in the sandbox (as in the assistant): rows marked sandboxOnly may be whitelisted. */
  readonly sandbox?: boolean;
}

class UsageError extends Error {}

export async function runAssess(argv: readonly string[], streams: CommandStreams): Promise<number> {
  let parsed: ParsedAssessArgs;
  try {
    parsed = parseAssessArgs(argv);
    if (parsed.notice !== undefined) streams.stderr.write(`riskgate assess: ${parsed.notice}\n`);
  } catch (error) {
    streams.stderr.write(`riskgate assess: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  let connection: SqlConnection | undefined;
  if (parsed.db !== undefined) {
    const { isSqlFailure, openSqlConnection } = await import('@riskgate/tools-sql');
    const opened = await openSqlConnection(parsed.db);
    if (isSqlFailure(opened)) {
      streams.stderr.write(`riskgate assess: ${opened.message}\n`);
      return 1;
    }
    connection = opened;
  }
  try {
    const catalog = await loadToolCatalog(connection === undefined ? {} : { connection });
    if (parsed.jsonl) return await assessJsonl(catalog, parsed.defaults, streams);
    return await assessOne(catalog, parsed, streams);
  } finally {
    await connection?.close();
  }
}

async function assessOne(
  catalog: ReadonlyMap<string, AnyTool>,
  parsed: ParsedAssessArgs,
  streams: CommandStreams,
): Promise<number> {
  const [toolName, argsText] = parsed.positionals;
  if (toolName === undefined) {
    streams.stderr.write(
      `riskgate assess: name a tool (${[...catalog.keys()].join(', ') || 'none registered'}) or use --jsonl\n`,
    );
    return 1;
  }
  const tool = catalog.get(toolName);
  if (tool === undefined) {
    streams.stderr.write(`riskgate assess: ${unknownToolMessage(toolName, catalog)}\n`);
    return 1;
  }
  let args: unknown = {};
  if (argsText !== undefined) {
    try {
      args = JSON.parse(argsText);
    } catch (error) {
      streams.stderr.write(`riskgate assess: the arguments are not valid JSON: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const decision = await judge(tool, args, parsed.defaults);
  streams.stdout.write(
    parsed.json ? `${JSON.stringify(toVerdictLine(decision))}\n` : formatVerdict(tool.name, decision),
  );
  return 0;
}

interface ParsedAssessArgs {
  readonly jsonl: boolean;
  readonly json: boolean;
  readonly positionals: readonly string[];
  readonly defaults: Defaults;
  readonly db: string | undefined;
  /** With --config: what an untrusted project had left out. */
  readonly notice?: string;
}

function parseAssessArgs(argv: readonly string[]): ParsedAssessArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      jsonl: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      mode: { type: 'string' },
      dialect: { type: 'string' },
      cwd: { type: 'string' },
      db: { type: 'string' },
      allow: { type: 'string', multiple: true },
      ask: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      config: { type: 'boolean', default: false },
      'no-sandbox': { type: 'boolean', default: false },
    },
  });
  const mode = values.mode ?? DEFAULT_SAFETY_MODE;
  if (!(SAFETY_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode must be one of ${SAFETY_MODES.join(', ')}, not "${mode}"`);
  }
  const dialect = values.dialect ?? 'sqlite';
  if (!(SQL_DIALECTS as readonly string[]).includes(dialect)) {
    throw new UsageError(`--dialect must be one of ${SQL_DIALECTS.join(', ')}, not "${dialect}"`);
  }
  if (values.jsonl && positionals.length > 0) {
    throw new UsageError('--jsonl reads calls from stdin; do not also name a tool');
  }
  if (positionals.length > 2) throw new UsageError(`too many arguments: ${positionals.slice(2).join(' ')}`);
  const rules: Rule[] = [];
  for (const effect of ['allow', 'ask', 'deny'] as const satisfies readonly RuleEffect[]) {
    for (const text of values[effect] ?? []) {
      const result = parseRule(text, effect);
      if (!result.ok) throw new UsageError(result.error);
      rules.push(result.rule);
    }
  }
  const cwd = resolve(values.cwd ?? '.');
  const defaults: Defaults = {
    mode: mode as SafetyMode,
    dialect: dialect as SqlDialect,
    cwd,
    rules,
    ...(values['no-sandbox'] ? { sandbox: false } : {}),
  };
  if (!values.config) return { jsonl: values.jsonl, json: values.json, positionals, defaults, db: values.db };
  // The gate as a session in --cwd would have it: the same layers and the same workspace trust.
  const config = loadConfig({
    projectDirectory: cwd,
    flags: {
      ...(values.mode === undefined ? {} : { mode: mode as SafetyMode }),
      rules: { allow: values.allow ?? [], ask: values.ask ?? [], deny: values.deny ?? [] },
    },
  });
  return {
    jsonl: values.jsonl,
    json: values.json,
    positionals,
    defaults: { ...defaults, mode: config.mode, rules: config.policy.rules },
    db: values.db,
    ...(config.project.notice === undefined ? {} : { notice: config.project.notice }),
  };
}

async function judge(tool: AnyTool, args: unknown, defaults: Defaults): Promise<Decision> {
  const policy: GatePolicy = { mode: defaults.mode, rules: defaults.rules };
  // The assistant's verdict: commands are judged with the sandbox when this machine has one.
  const sandbox = defaults.sandbox ?? (tool.name === 'execute_command' ? await sandboxHere() : false);
  const evaluation = await evaluateToolCall(
    tool,
    args,
    { cwd: defaults.cwd, dialect: defaults.dialect, sandbox },
    policy,
  );
  return evaluation.decision;
}

async function assessJsonl(
  catalog: ReadonlyMap<string, AnyTool>,
  defaults: Defaults,
  streams: CommandStreams,
): Promise<number> {
  const lines = createInterface({ input: streams.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    const answer = await answerLine(line, catalog, defaults);
    await write(streams.stdout, `${JSON.stringify(answer)}\n`);
  }
  return 0;
}

/** One input line in, exactly one output object out; nothing a line holds can stop the rest. */
export async function answerLine(
  line: string,
  catalog: ReadonlyMap<string, AnyTool>,
  defaults: Defaults,
): Promise<VerdictLine | { error: string }> {
  if (line.trim() === '') return { error: 'empty line: expected a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { error: `malformed JSON: ${(error as Error).message}` };
  }
  const request = jsonlRequest.safeParse(value);
  if (!request.success) {
    const issue = request.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { error: `invalid request: ${where}${issue?.message ?? 'expected an object'}` };
  }
  const tool = catalog.get(request.data.tool);
  if (tool === undefined) return { error: unknownToolMessage(request.data.tool, catalog) };
  try {
    const decision = await judge(tool, request.data.args ?? {}, {
      ...defaults,
      mode: request.data.mode ?? defaults.mode,
      dialect: request.data.dialect ?? defaults.dialect,
      cwd: request.data.cwd === undefined ? defaults.cwd : resolve(defaults.cwd, request.data.cwd),
    });
    return toVerdictLine(decision);
  } catch (error) {
    return { error: `internal error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function toVerdictLine(decision: Decision): VerdictLine {
  return {
    decision: decision.action,
    source: decision.source,
    level: decision.level,
    whitelisted: decision.whitelisted,
    reasons: decision.reasons,
    why: decision.why,
    findings: decision.findings,
    notes: decision.notes,
    effects: decision.effects,
  };
}

function unknownToolMessage(name: string, catalog: ReadonlyMap<string, AnyTool>): string {
  const known = [...catalog.keys()];
  return `unknown tool "${name}"; known tools: ${known.length > 0 ? known.join(', ') : 'none'}`;
}

const VERB: Record<Decision['action'], string> = {
  execute: 'EXECUTE — runs without asking',
  confirm: 'CONFIRM — asks the person first',
  deny: 'DENY — never runs',
};

export function formatVerdict(toolName: string, decision: Decision): string {
  const lines = [
    `${toolName}: ${VERB[decision.action]}`,
    `  decided by: ${decision.source}${decision.rule === undefined ? '' : ` (${decision.rule})`}`,
    `  level: ${decision.level ?? 'n/a'}   code level: ${decision.codeLevel ?? 'n/a'}   model level: ${decision.llmLevel ?? 'none'}   whitelisted: ${decision.whitelisted ? 'yes' : 'no'}`,
    ...decision.effects.map(
      (effect) => `  does: ${effect.text}${effect.verdict === 'read' ? '' : `  [${effect.verdict}, ${effect.level}]`}`,
    ),
    ...decision.reasons
      .filter((reason) => !decision.effects.some((effect) => effect.text === reason))
      .map((reason) => `  - ${reason}`),
  ];
  if (decision.disagreement) lines.push(`  ! ${disagreementText(decision)}`);
  return `${lines.join('\n')}\n`;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolveWrite, reject) => {
    const ok = stream.write(text, (error) => {
      if (error) reject(error);
    });
    if (ok) resolveWrite();
    else stream.once('drain', () => resolveWrite());
  });
}

let sandboxProbe: Promise<boolean> | undefined;
/** Whether whitelisted commands would run in the sandbox here (probed once per process). */
function sandboxHere(): Promise<boolean> {
  sandboxProbe ??= import('@riskgate/tools-command')
    .then(async ({ probeSandbox }) => (await probeSandbox()).available)
    .catch(() => false);
  return sandboxProbe;
}
