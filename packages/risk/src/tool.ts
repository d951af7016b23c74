import type { z } from 'zod/v4';
import type { Effect, EffectReport } from './effects.js';
import type { JudgeContext, Judgement } from './judge.js';
import { withoutRiskLevel } from './levels.js';
import type { RuleStyle } from './rules.js';

export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';
export const SQL_DIALECTS: readonly SqlDialect[] = ['sqlite', 'postgres', 'mysql'];

/** What an assessor may know about where the call would run. */
export interface AssessContext extends JudgeContext {
  /** The workspace: relative paths and commands resolve against it. */
  readonly cwd: string;
  /** The SQL dialect to assess in when the tool has no connection of its own. */
  readonly dialect?: SqlDialect;
  /**
   * Whitelisted commands will run in the sandbox (read-only filesystem, no network, secret
   * directories hidden): command rows marked as needing it may then be whitelisted.
   * Set by the host after checking that the sandbox works; absent means no sandbox.
   */
  readonly sandbox?: boolean;
}

/**
 * The gate's view of one call: the effects the tool's assessor reported, judged once by
 * `judgeEffects` (the spec's "code whitelist" made sound), with the subjects user rules match.
 * `whitelisted` is true only when every effect is a read or list of a non-secret resource and
 * nothing is unknown; it implies `level: 'low'`.
 */
export interface Assessment extends Judgement {
  readonly subjects: readonly string[];
  /**
   * What the assessor learned that the screen and the run need (the tool's plan), when it
   * assessed the call; absent when it failed, and then the call cannot run.
   */
  readonly plan?: { readonly value: unknown };
}

/**
 * What an assessor returns: the effects and subjects the gate judges, and the tool's plan —
 * whatever it learned that `describe` and `execute` need (SQL statements with their exact
 * spans, the directory a command runs in and its sandbox view), so neither derives it again.
 * A tool without a plan (`Plan` = undefined) may leave it out.
 */
export type PlannedReport<Plan> = undefined extends Plan
  ? EffectReport & { readonly plan?: Plan }
  : EffectReport & { readonly plan: Plan };

/**
 * A tool's own code-level assessor: it describes what the call would do (effects) and never
 * decides. It may be synchronous (a lookup) or not (a parser loaded on first use).
 */
export type Assessor<Args, Plan = undefined> = (
  args: Args,
  context: AssessContext,
) => PlannedReport<Plan> | Promise<PlannedReport<Plan>>;

export interface ExecuteContext extends AssessContext {
  readonly signal: AbortSignal;
  /**
   * True when the call runs only because it is whitelisted: the tool must then run it in a way
   * that cannot write (read-only transaction, read-only connection), so a mistake in an assessor
   * becomes an error, not damage.
   */
  readonly readOnly: boolean;
  /** Live output for the screen (a command's stdout as it arrives). */
  readonly onOutput?: (chunk: string) => void;
}

/** What the confirmation panel shows. One shape per kind of action. */
export type OperationDescription =
  | { readonly kind: 'sql'; readonly sql: string; readonly details: readonly string[] }
  | { readonly kind: 'command'; readonly command: string; readonly cwd: string; readonly details: readonly string[] }
  | {
      readonly kind: 'file';
      readonly operation: string;
      readonly path: string;
      readonly diff?: string;
      readonly details: readonly string[];
    }
  | {
      readonly kind: 'http';
      readonly requestLine: string;
      readonly headers: readonly string[];
      readonly bodyPreview?: string;
      readonly details: readonly string[];
    }
  | { readonly kind: 'generic'; readonly summary: string; readonly details: readonly string[] };

/** Expected failures are values: the model reads them and can recover. */
export interface ToolFailure {
  readonly type: 'tool-error';
  readonly code: string;
  readonly message: string;
  /**
   * The operation was sent and may have taken effect (a connection lost after an UPDATE went
   * out): the record says "unknown", never "failed", so nobody retries a write that happened.
   */
  readonly outcomeUnknown?: true;
}

export interface ToolSuccess<Data> {
  readonly type: 'tool-success';
  /** The text the model receives. */
  readonly forModel: string;
  /** Typed data for the screen. */
  readonly data: Data;
  /**
   * The model's copy with what the tool itself knows to be secret withheld (the values of a
   * credential column in `SELECT *`), and what that was in plain words. Used when the call ran
   * unasked; the output guard still reads it, and the person sees `forModel`, the original.
   */
  readonly withheldForModel?: { readonly text: string; readonly withheld: readonly string[] };
  /**
   * It ran to its end although a cancel came meanwhile (a COMMIT the cancel was too late for):
   * recorded as succeeded. Without it a success under a cancel is recorded as cancelled (a
   * command stopped halfway returns its output as a success).
   */
  readonly completed?: true;
  /**
   * It was stopped part-way (a command at its timeout, on a cancel or at a bound): what it did
   * before it stopped stays done. The audit line and the tool result say so.
   */
  readonly partial?: true;
}

export type ToolResult<Data> = ToolSuccess<Data> | ToolFailure;

/** The plan as the last argument of `describe` and `execute`: left out by tools without one. */
export type PlanArgument<Plan> = undefined extends Plan ? [plan?: Plan] : [plan: Plan];

/**
 * The tool as a host shows it before any call: a human-readable name and hints about the worst
 * one call may do, whatever the gate decides for a given call. They are honest about the tool,
 * not about riskgate's guard: execute_sql may destroy (DROP TABLE) even though the gate asks
 * first, so it is destructive. A host must never trust them to keep anything safe; the gate does.
 */
export interface ToolHints {
  readonly title: string;
  /** No call of the tool changes anything (MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /** A call may delete or overwrite what exists (`destructiveHint`). */
  readonly destructive: boolean;
  /** The same call twice does nothing more than once (`idempotentHint`). */
  readonly idempotent: boolean;
  /** A call may reach the world outside the database or workspace: the network (`openWorldHint`). */
  readonly openWorld: boolean;
}

/**
 * One tool. The gated executor calls `assess` once per call and hands its plan to `describe`
 * and `execute`; after the person edits the call it assesses the edited arguments again (the
 * old plan is dropped), so a tool never re-derives what its assessor knew.
 */
export interface ToolDefinition<Parameters extends z.ZodType, Data, Plan = undefined> {
  readonly name: string;
  readonly description: string;
  /**
   * What one call is called in the panel's question: `query` makes "Execute this query? [y/N]"
   * (the specification's words, `confirmationQuestion`).
   */
  readonly noun: string;
  /**
   * One line naming a call, from its validated arguments: its SQL, its command, `write notes.txt`,
   * `GET https://…`. The history, the audit, refusals and the MCP host read it; nothing guesses it
   * from argument names.
   */
  readonly title: (args: z.output<Parameters>) => string;
  /** What a host is told about the tool before any call (MCP's title and annotations). */
  readonly hints?: ToolHints;
  /** The argument the person may edit in the panel (`e`), as text: `sql`, `command`. None: no edit. */
  readonly editable?: string;
  /** Arguments without `risk_level`: the registry adds that property to every tool. */
  readonly parameters: Parameters;
  /** How user-rule patterns for this tool are matched against its subjects. */
  readonly ruleStyle: RuleStyle;
  readonly assess: Assessor<z.output<Parameters>, Plan>;
  readonly describe: (
    args: z.output<Parameters>,
    context: AssessContext,
    ...plan: PlanArgument<Plan>
  ) => OperationDescription | Promise<OperationDescription>;
  readonly execute: (
    args: z.output<Parameters>,
    context: ExecuteContext,
    ...plan: PlanArgument<Plan>
  ) => Promise<ToolResult<Data>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument and plan type.
export type AnyTool = ToolDefinition<z.ZodType, any, any>;

/** Identity function that exists for type inference, as `tool()` does in the AI SDK. */
export function defineTool<Parameters extends z.ZodType, Data, Plan = undefined>(
  tool: ToolDefinition<Parameters, Data, Plan>,
): ToolDefinition<Parameters, Data, Plan> {
  return tool;
}

export function toolFailure(code: string, message: string, options: { outcomeUnknown?: boolean } = {}): ToolFailure {
  return {
    type: 'tool-error',
    code,
    message,
    ...(options.outcomeUnknown === true ? { outcomeUnknown: true as const } : {}),
  };
}

/**
 * What a tool's execute answers when it is handed no plan: a caller in plain JavaScript may
 * leave the last argument out (the gated executor never does), and what runs must be what was
 * assessed, so nothing runs.
 */
export function notAssessed(toolName: string, code: string): ToolFailure {
  return toolFailure(
    code,
    `nothing was run: ${toolName} runs the plan of its assessment (pass evaluateToolCall(...).assessment.plan.value)`,
  );
}

/** A report of the given effects and rule subjects. */
export function report(effects: readonly Effect[], subjects: readonly string[]): EffectReport {
  return { effects, subjects };
}

/** What a secret becomes in the model's copy of a result. */
export function withheldMarker(what: string): string {
  return `[withheld: ${what} — shown to the person only]`;
}

/** The specification's question for a tool's calls: "Execute this query? [y/N]". */
export function confirmationQuestion(tool: { readonly noun: string }): string {
  return `Execute this ${tool.noun}? [y/N]`;
}

/**
 * A call's title when its arguments may not be valid (as the model sent them): the tool's own
 * title when they are, the raw text otherwise.
 */
export function callTitle(tool: AnyTool | undefined, args: unknown): string {
  if (tool !== undefined) {
    const parsed = tool.parameters.safeParse(withoutRiskLevel(args));
    if (parsed.success) return tool.title(parsed.data);
  }
  return typeof args === 'string' ? args : (JSON.stringify(args) ?? String(args));
}
