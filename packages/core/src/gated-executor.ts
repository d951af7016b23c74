import {
  type AnyTool,
  type AssessContext,
  type Decision,
  DEFAULT_POLICY,
  evaluateToolCall,
  type GatePolicy,
  type Rule,
  type TurnState,
} from '@riskgate/risk';
import type { AuditLog } from './audit.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from './events.js';
import { findTool, GatedCall, parseArguments } from './gated-call.js';
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

/**
 * One tool call through the gate (gated-call.ts): validate → assess → decide → confirm → execute
 * (read-only when it runs only because it is whitelisted) → audit. Returns what the model
 * receives. Never throws for bad input or a tool's failure: those are results the model can act on.
 */
export function runGatedToolCall(call: ToolCallInput, gate: GateContext): Promise<GatedCallOutcome> {
  return new GatedCall(call, gate).run();
}

export interface GatedExecutorOptions extends Partial<Omit<GateContext, 'tools'>> {
  readonly tools: ToolSource;
}

/** A gate for hosts that keep no state of their own: it remembers the "always allow" rules. */
export interface GatedExecutor {
  /** The policy now in force, with the rules the person added. */
  readonly policy: GatePolicy;
  /**
   * Starts a new turn: forgets the untrusted content seen so far. Until it is called, every call
   * counts as one turn (an MCP session, one AI SDK conversation step after another).
   */
  newTurn(): void;
  /** What the gate would decide for this call, without asking or running anything. */
  check(call: ToolCallInput): Promise<Decision | undefined>;
  /** Runs one call through the gate; `overrides` replace parts of the context for this call (a signal, a confirm). */
  run(call: ToolCallInput, overrides?: Partial<GateContext>): Promise<GatedCallOutcome>;
}

/**
 * Without a policy the executor is guarded: its host's model is not the person's own assistant,
 * so a `risk_level: "low"` decides only what the code found no effect for (decision 0011).
 */
export const EXECUTOR_DEFAULT_POLICY: GatePolicy = { ...DEFAULT_POLICY, mode: 'guarded' };

export function createGatedExecutor(options: GatedExecutorOptions): GatedExecutor {
  let policy = options.policy ?? EXECUTOR_DEFAULT_POLICY;
  let turn: TurnState = options.turn ?? {};
  const assess = options.assess ?? { cwd: process.cwd() };
  return {
    get policy() {
      return policy;
    },
    newTurn() {
      turn = {};
    },
    async check(call) {
      const tool = findTool(options.tools, call.name);
      const parsed = parseArguments(call.arguments);
      if (tool === undefined || !parsed.ok) return undefined;
      return (await evaluateToolCall(tool, parsed.value, assess, policy, turn)).decision;
    },
    async run(call, overrides = {}) {
      const outcome = await runGatedToolCall(call, { ...options, assess, policy, turn, ...overrides });
      if (outcome.turn !== undefined) turn = outcome.turn;
      if (outcome.ruleAdded !== undefined) policy = { ...policy, rules: [...policy.rules, outcome.ruleAdded] };
      return outcome;
    },
  };
}
