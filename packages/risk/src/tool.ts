import type { z } from 'zod';
import type { RiskLevel } from './levels.js';
import type { RuleStyle } from './rules.js';

export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';
export const SQL_DIALECTS: readonly SqlDialect[] = ['sqlite', 'postgres', 'mysql'];

/** What an assessor may know about where the call would run. */
export interface AssessContext {
  /** The workspace: relative paths and commands resolve against it. */
  readonly cwd: string;
  /** The SQL dialect to assess in when the tool has no connection of its own. */
  readonly dialect?: SqlDialect;
}

/**
 * A tool's own, code-level judgement of one call (the spec's "code whitelist" made sound).
 * `whitelisted` is true only when the whole operation is on the tool's whitelist; it implies
 * `level: 'low'`.
 */
export interface Assessment {
  readonly level: RiskLevel;
  readonly whitelisted: boolean;
  /** Plain sentences a person can read in the confirmation panel. */
  readonly reasons: readonly string[];
  /**
   * The operation split into the parts user rules are matched against: one per statement,
   * per simple command, per request. An allow rule must match every part; a deny or ask rule
   * matches when any part does. An empty list means no rule can allow the call.
   */
  readonly subjects: readonly string[];
}

/** Assessors may be synchronous (a whitelist lookup) or not (a parser loaded on first use). */
export type Assessor<Args> = (args: Args, context: AssessContext) => Assessment | Promise<Assessment>;

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
  | { readonly kind: 'file'; readonly operation: string; readonly path: string; readonly diff?: string; readonly details: readonly string[] }
  | { readonly kind: 'http'; readonly requestLine: string; readonly headers: readonly string[]; readonly bodyPreview?: string; readonly details: readonly string[] }
  | { readonly kind: 'generic'; readonly summary: string; readonly details: readonly string[] };

/** Expected failures are values: the model reads them and can recover. */
export interface ToolFailure {
  readonly type: 'tool-error';
  readonly code: string;
  readonly message: string;
}

export interface ToolSuccess<Data> {
  readonly type: 'tool-success';
  /** The text the model receives. */
  readonly forModel: string;
  /** Typed data for the screen. */
  readonly data: Data;
}

export type ToolResult<Data> = ToolSuccess<Data> | ToolFailure;

export interface ToolDefinition<Parameters extends z.ZodType, Data> {
  readonly name: string;
  readonly description: string;
  /** Arguments without `risk_level`: the registry adds that property to every tool. */
  readonly parameters: Parameters;
  /** How user-rule patterns for this tool are matched against its subjects. */
  readonly ruleStyle: RuleStyle;
  readonly assess: Assessor<z.output<Parameters>>;
  readonly describe: (args: z.output<Parameters>, context: AssessContext) => OperationDescription | Promise<OperationDescription>;
  readonly execute: (args: z.output<Parameters>, context: ExecuteContext) => Promise<ToolResult<Data>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument type.
export type AnyTool = ToolDefinition<z.ZodType, any>;

/** Identity function that exists for type inference, as `tool()` does in the AI SDK. */
export function defineTool<Parameters extends z.ZodType, Data>(
  tool: ToolDefinition<Parameters, Data>,
): ToolDefinition<Parameters, Data> {
  return tool;
}

export function toolFailure(code: string, message: string): ToolFailure {
  return { type: 'tool-error', code, message };
}

/** A whitelisted assessment: low, and on the whitelist. */
export function whitelisted(reasons: readonly string[], subjects: readonly string[]): Assessment {
  return { level: 'low', whitelisted: true, reasons, subjects };
}

export function notWhitelisted(level: RiskLevel, reasons: readonly string[], subjects: readonly string[]): Assessment {
  return { level, whitelisted: false, reasons, subjects };
}
