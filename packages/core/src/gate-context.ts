import type { AnyTool, AssessContext, Decision, GatePolicy, Rule, TurnState } from '@riskgate/risk';
import type { AuditLog } from './audit.js';
import type { Checkpoints } from './checkpoints.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from './events.js';
import type { OutputGuard } from './output-guard.js';

/** One tool call as a model (or any host) made it. */
export interface ToolCallInput {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text (what chat completions send) or as a parsed value (what MCP and the AI SDK give). */
  readonly arguments: string | unknown;
}

/** Where the tools come from: a list, a map by name, or a ToolRegistry. */
export type ToolSource =
  | readonly AnyTool[]
  | ReadonlyMap<string, AnyTool>
  | { get(name: string): AnyTool | undefined; readonly names: readonly string[] };

/**
 * Everything one gated call needs, in one object so that hosts can pass more per-turn state
 * through without a change of signature.
 */
export interface GateContext {
  readonly tools: ToolSource;
  readonly policy: GatePolicy;
  /**
   * What the gate remembers within the current turn (untrusted content seen earlier), read by
   * decide(). The outcome's `turn` is the state after this call when the call changed it.
   */
  readonly turn?: TurnState;
  /** What assessors and tools know of where the call runs (the workspace, the SQL dialect). */
  readonly assess: AssessContext;
  /**
   * Asks the person. Without it, a call the gate would ask about is refused, and the model is
   * told why (a host that cannot ask must never run what needs asking).
   */
  readonly confirm?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: AgentEvent) => void;
  readonly audit?: AuditLog;
  /** The session id written to the audit log. */
  readonly session?: string;
  /** Checks what unasked operations return before the model sees it; by default riskgate's environment and the token formats. */
  readonly outputGuard?: OutputGuard;
  /**
   * Keeps what a call will write, delete or move before it runs, for `/undo` (checkpoints.ts);
   * the panel says what can and cannot be undone.
   */
  readonly checkpoints?: Checkpoints;
}

export type GatedCallState = 'succeeded' | 'failed' | 'denied' | 'cancelled';

export interface GatedCallOutcome {
  readonly state: GatedCallState;
  /** The text the model receives. */
  readonly forModel: string;
  /** The result as it was, when the output guard withheld part of it from the model: for the person's screen. */
  readonly forPerson?: string;
  /** The tool's typed data, when it ran and succeeded. */
  readonly data?: unknown;
  /** What the gate decided; absent when the call never reached it (unknown tool, invalid JSON). */
  readonly decision?: Decision;
  /** The person chose "always allow": the caller keeps this rule in its policy from now on. */
  readonly ruleAdded?: Rule;
  /** The turn's state after this call, when the call changed it (it brought in untrusted content). */
  readonly turn?: TurnState;
}
