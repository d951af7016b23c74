import { DEFAULT_POLICY, type Decision, evaluateToolCall, type GatePolicy, type TurnState } from '@riskgate/risk';
import type { GateContext, GatedCallOutcome, ToolCallInput, ToolSource } from './gate-context.js';
import { findTool, GatedCall, parseArguments } from './gated-call.js';
import { loadManagedPolicy, MANAGED_POLICY_PATH, underManagedPolicy } from './managed-policy.js';

export type {
  GateContext,
  GatedCallOutcome,
  GatedCallState,
  ToolCallInput,
  ToolSource,
} from './gate-context.js';

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
  /** The system-wide managed policy file; only tests change it (default /etc/riskgate/managed-policy.json). */
  readonly managedPolicyPath?: string;
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

/**
 * The organisation's managed policy (docs/policy.md) applies to every executor: it is read here
 * unless the policy given already carries it (one from loadConfig), and a managed file that
 * cannot be used throws a ConfigError — the host cannot start a gate without it.
 */
export function createGatedExecutor(options: GatedExecutorOptions): GatedExecutor {
  const given = options.policy ?? EXECUTOR_DEFAULT_POLICY;
  let policy =
    given.managed === undefined
      ? underManagedPolicy(given, loadManagedPolicy(process.env, options.managedPolicyPath ?? MANAGED_POLICY_PATH))
      : given;
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
