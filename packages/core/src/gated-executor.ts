import { argumentsTooLarge, argumentsTooLargeText, boundedArguments } from './argument-limits.js';
import {
  type AnyTool,
  type AssessContext,
  type Decision,
  DEFAULT_POLICY,
  evaluateToolCall,
  safeAssess,
  formatZodError,
  type GatePolicy,
  parseRule,
  readLlmRiskLevel,
  type Rule,
  type ToolResult,
  type TurnState,
} from '@riskgate/risk';
import type { AuditEntry, AuditLog } from './audit.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from './events.js';
import { defaultOutputGuard, guardToolResult, type OutputGuard } from './output-guard.js';

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

function findTool(tools: ToolSource, name: string): AnyTool | undefined {
  if (Array.isArray(tools)) return (tools as readonly AnyTool[]).find((tool) => tool.name === name);
  return (tools as ReadonlyMap<string, AnyTool>).get(name);
}

function toolNames(tools: ToolSource): readonly string[] {
  if (Array.isArray(tools)) return (tools as readonly AnyTool[]).map((tool) => tool.name);
  if (tools instanceof Map) return [...tools.keys()];
  return (tools as { readonly names: readonly string[] }).names;
}

function parseArguments(
  input: ToolCallInput['arguments'],
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof input !== 'string') return { ok: true, value: input ?? {} };
  try {
    return { ok: true, value: input.trim() === '' ? {} : JSON.parse(input) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * One tool call through the gate: validate → assess → decide → confirm → execute (read-only
 * when it runs only because it is whitelisted) → audit. Returns what the model receives.
 * Never throws for bad input or a tool's failure: those are results the model can act on.
 */
export async function runGatedToolCall(call: ToolCallInput, gate: GateContext): Promise<GatedCallOutcome> {
  const signal = gate.signal ?? new AbortController().signal;
  const emit = gate.onEvent ?? (() => {});
  const argumentsText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
  let rawArgs: unknown = argumentsText;
  let decision: Decision | undefined;
  let answer: AuditEntry['answer'] = 'not-asked';
  // What the audit line says ran instead of rawArgs (the person's edit), and their note.
  let ranArgs: unknown;
  let note: string | undefined;
  // Durations are the operation's own: the time the person took to answer is counted apart.
  let executionMs = 0;
  let waitedMs: number | undefined;

  let finished = false;
  // The one exit: every outcome emits its state and result and writes one audit line.
  const finish = (outcome: {
    state: GatedCallState;
    forModel: string;
    forPerson?: string;
    data?: unknown;
    errorCode?: string;
    ruleAdded?: Rule;
    turn?: TurnState;
    unknown?: boolean;
    partial?: boolean;
  }): GatedCallOutcome => {
    // The audit line first: an event handler that throws must not cost the record.
    const recorded = finished;
    finished = true;
    const audited = outcome.unknown === true ? 'unknown' : outcome.state;
    if (!recorded)
      gate.audit?.record(
        auditEntry({
          call,
          rawArgs,
          ranArgs,
          note,
          decision,
          answer,
          outcome: audited,
          errorCode: outcome.errorCode,
          executionMs,
          waitedMs,
          session: gate.session,
          partial: outcome.partial === true,
        }),
      );
    emit({ type: 'tool-state', toolCallId: call.id, state: outcome.state });
    emit({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      state: outcome.state,
      forModel: outcome.forModel,
      ...(outcome.forPerson === undefined ? {} : { forPerson: outcome.forPerson }),
      ...(outcome.data === undefined ? {} : { data: outcome.data }),
      durationMs: executionMs,
    });
    return {
      state: outcome.state,
      forModel: outcome.forModel,
      ...(outcome.forPerson === undefined ? {} : { forPerson: outcome.forPerson }),
      ...(outcome.data === undefined ? {} : { data: outcome.data }),
      ...(decision === undefined ? {} : { decision }),
      ...(outcome.ruleAdded === undefined ? {} : { ruleAdded: outcome.ruleAdded }),
      ...(outcome.turn === undefined ? {} : { turn: outcome.turn }),
    };
  };

  // Whether the tool's execute was entered: a fault of ours after that point cannot say "not run".
  let started = false;
  const gated = async (): Promise<GatedCallOutcome> => {
    // Oversized arguments are refused before they are parsed; only a bounded stand-in is shown,
    // audited and kept (issue 19: a 10 MB argument was echoed whole to stderr and every log).
    if (argumentsTooLarge(argumentsText)) {
      const kept = boundedArguments(argumentsText);
      rawArgs = JSON.parse(kept);
      emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, argumentsText: kept });
      return finish({
        state: 'denied',
        forModel: argumentsTooLargeText(argumentsText),
        errorCode: 'arguments-too-large',
      });
    }
    emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, argumentsText });
    emit({ type: 'tool-state', toolCallId: call.id, state: 'validating' });
    const tool = findTool(gate.tools, call.name);
    const parsed = parseArguments(call.arguments);
    if (parsed.ok) rawArgs = parsed.value;
    if (tool === undefined) {
      return finish({
        state: 'denied',
        forModel: `error: there is no tool named "${call.name}"; the tools are ${toolNames(gate.tools).join(', ')}`,
        errorCode: 'unknown-tool',
      });
    }
    if (!parsed.ok) {
      return finish({
        state: 'denied',
        forModel: `error: the arguments are not valid JSON (${parsed.error}); send the call again with valid JSON`,
        errorCode: 'invalid-json',
      });
    }

    emit({ type: 'tool-state', toolCallId: call.id, state: 'assessing' });
    const evaluation = await evaluateToolCall(tool, rawArgs, gate.assess, gate.policy, gate.turn ?? {});
    decision = evaluation.decision;
    emit({ type: 'decision', toolCallId: call.id, toolName: call.name, decision });
    if (!evaluation.valid) {
      return finish({
        state: 'denied',
        forModel: `error: ${decision.reasons[0] ?? 'invalid arguments'}. Fix the arguments and call again.`,
        errorCode: 'invalid-arguments',
      });
    }
    if (decision.action === 'deny') {
      return finish({
        state: 'denied',
        forModel: `not run: ${decision.reasons[0] ?? 'denied'}. The person's rules forbid this; do not try it another way.`,
        errorCode: 'denied-by-rule',
      });
    }

    if (evaluation.assessment.plan === undefined) {
      // The assessor failed (a fault of ours): with no plan nothing can run as assessed, so
      // nothing runs, whatever the decision said.
      return finish({
        state: 'denied',
        forModel: `error (assessor-failed): not run: riskgate could not read this call (${decision.reasons.join('; ')}). Nothing was run; tell the person what you wanted to do.`,
        errorCode: 'assessor-failed',
      });
    }
    let args = evaluation.args;
    let plan = evaluation.assessment.plan.value;
    let readOnly = evaluation.assessment.whitelisted;
    let ruleAdded: Rule | undefined;
    if (decision.action === 'confirm') {
      if (gate.confirm === undefined) {
        const why = decision.reasons.join('; ');
        return finish({
          state: 'denied',
          forModel: `not run: this needs the person's confirmation, and there is no way to ask them here (${why}). Tell the person what you wanted to do and why.`,
          errorCode: 'confirmation-unavailable',
        });
      }
      emit({ type: 'tool-state', toolCallId: call.id, state: 'awaiting-approval' });
      const description = await tool.describe(args, gate.assess, plan);
      const request: ApprovalRequest = {
        toolCallId: call.id,
        toolName: call.name,
        args,
        description,
        decision,
        subjects: evaluation.assessment.subjects,
        ruleStyle: tool.ruleStyle,
      };
      emit({ type: 'tool-approval-request', request });
      let reply: ApprovalAnswer;
      const asked = performance.now();
      try {
        reply = await gate.confirm(request, signal);
      } catch (error) {
        waitedMs = performance.now() - asked;
        if (signal.aborted) return finish({ state: 'cancelled', forModel: 'not run: the person cancelled.' });
        // The panel itself failed: nobody declined anything, and the model must not read it as a "no".
        return finish({
          state: 'failed',
          forModel: `error (confirmation-failed): not run: riskgate could not ask the person (its confirmation panel failed: ${errorText(error)}). Nothing was run; tell the person what you wanted to do.`,
          errorCode: 'confirmation-failed',
        });
      }
      waitedMs = performance.now() - asked;
      emit({ type: 'tool-approval-answer', toolCallId: call.id, answer: reply });
      answer = reply.type;
      if (signal.aborted) return finish({ state: 'cancelled', forModel: 'not run: the person cancelled.' });
      if (reply.type === 'deny') {
        if (reply.note !== undefined && reply.note !== '' && reply.note !== 'cancelled') note = reply.note;
        return finish({
          state: 'denied',
          forModel: `not run: the person declined this operation.${note === undefined ? '' : ` Their note: ${note}`} Do not try it another way; ask what they want instead.`,
        });
      }
      if (reply.type === 'always') {
        const rule = parseRule(reply.rule, 'allow');
        if (rule.ok) {
          ruleAdded = rule.rule;
          emit({ type: 'rule-added', rule: rule.rule.text });
        } else {
          emit({ type: 'error', kind: 'rule', message: rule.error });
        }
      }
      if (reply.type === 'edit') {
        ranArgs = reply.args;
        const edited = tool.parameters.safeParse(reply.args);
        if (!edited.success) {
          return finish({
            state: 'denied',
            forModel: `not run: the person's edit is not valid (${formatZodError(edited.error)})`,
            errorCode: 'invalid-edit',
          });
        }
        args = edited.data;
        ranArgs = args;
        // What the person wrote was confirmed as written, not whitelisted: it runs as asked. The
        // old plan described other arguments: the edit is assessed again for its own.
        readOnly = false;
        const replanned = await safeAssess(tool, args, gate.assess);
        if (replanned.plan === undefined) {
          return finish({
            state: 'denied',
            forModel: `error (assessor-failed): not run: riskgate could not read the person's edit (${replanned.reasons.join('; ')}). Nothing was run.`,
            errorCode: 'assessor-failed',
          });
        }
        plan = replanned.plan.value;
      }
    }

    // Write-ahead: the record says the call started before it runs, so a session killed while it
    // runs (SIGKILL, a closed terminal, a power cut) leaves "started" with no outcome — read as
    // "interrupted, may have partly run" — never silence that looks like "not run".
    gate.audit?.record(
      auditEntry({
        call,
        rawArgs,
        ranArgs,
        note,
        decision,
        answer,
        outcome: 'started',
        errorCode: undefined,
        executionMs: 0,
        waitedMs,
        session: gate.session,
      }),
    );
    emit({ type: 'tool-state', toolCallId: call.id, state: 'executing' });
    let result: ToolResult<unknown>;
    const executing = performance.now();
    started = true;
    try {
      result = await tool.execute(
        args,
        {
          ...gate.assess,
          signal,
          readOnly,
          onOutput: (chunk: string) => emit({ type: 'tool-output', toolCallId: call.id, chunk }),
        },
        plan,
      );
    } catch (error) {
      // Tools return expected failures as values; a throw is a fault, reported to the model all the same.
      // It may have done part of its work before it threw: never "failed" as if nothing ran.
      result = {
        type: 'tool-error',
        code: 'tool-crashed',
        message: `${tool.name} failed unexpectedly: ${errorText(error)}; it may have partly run, so check what it changed before trying again`,
        outcomeUnknown: true,
      };
    }
    executionMs = performance.now() - executing;
    // What happened, not what was asked: a write that completed before the abort took hold succeeded,
    // and one whose fate is unknown is never called cancelled.
    const unknown = result.type === 'tool-error' && result.outcomeUnknown === true;
    const completed = result.type === 'tool-success' && (!signal.aborted || result.completed === true);
    const state: GatedCallState = completed
      ? 'succeeded'
      : signal.aborted && !unknown
        ? 'cancelled'
        : result.type === 'tool-success'
          ? 'succeeded'
          : 'failed';
    // Content from outside the person's trust may steer the model from here on: guarded mode
    // stops taking its `low` for the rest of the turn.
    let turn: TurnState | undefined;
    if (evaluation.assessment.untrusted !== undefined && gate.turn?.untrusted === undefined) {
      turn = { ...gate.turn, untrusted: evaluation.assessment.untrusted };
      emit({ type: 'untrusted-content', toolCallId: call.id, source: evaluation.assessment.untrusted });
    }
    const edited =
      answer === 'edit' ? `The person edited the operation before it ran; it ran as: ${JSON.stringify(args)}\n` : '';
    const own =
      result.type === 'tool-success' && result.withheldForModel !== undefined
        ? { text: edited + result.withheldForModel.text, withheld: result.withheldForModel.withheld }
        : undefined;
    const { forModel, forPerson } = guardToolResult(
      gate.outputGuard ?? defaultOutputGuard(),
      answer !== 'not-asked',
      edited + (result.type === 'tool-success' ? result.forModel : failureText(result.code, result.message)),
      own,
    );
    return finish({
      state,
      forModel,
      ...(forPerson === undefined ? {} : { forPerson }),
      ...(result.type === 'tool-success' ? { data: result.data } : { errorCode: result.code }),
      ...(unknown ? { unknown } : {}),
      ...(result.type === 'tool-success' && result.partial === true ? { partial: true } : {}),
      ...(ruleAdded === undefined ? {} : { ruleAdded }),
      ...(turn === undefined ? {} : { turn }),
    });
  };

  // A fault inside the gate itself (an assessor's describe, a rule, an event handler, the audit)
  // is answered as a clear tool error, never a crash of the session; once the tool was entered it
  // may have partly run, and the record says so.
  try {
    return await gated();
  } catch (error) {
    executionMs = started ? executionMs : 0;
    const forModel = started
      ? `error (gate-error): riskgate failed while this call ran (${errorText(error)}), so it may have partly or wholly run; check what it changed before trying again`
      : `error (gate-error): riskgate failed before running this call (${errorText(error)}); nothing was run. Tell the person.`;
    try {
      return finish({ state: 'failed', forModel, errorCode: 'gate-error', ...(started ? { unknown: true } : {}) });
    } catch {
      // Even reporting failed (an event handler that throws): the model still gets the truth.
      return { state: 'failed', forModel, ...(decision === undefined ? {} : { decision }) };
    }
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * "error (code): message" with the code once: some tools' messages start with their code
 * already (tools-sql's "sql-syntax-error: near …"), which read "sql-syntax-error: sql-syntax-error".
 */
function failureText(code: string, message: string): string {
  const prefix = `${code}: `;
  return `error (${code}): ${message.startsWith(prefix) ? message.slice(prefix.length) : message}`;
}

function auditEntry(entry: {
  call: { id: string; name: string };
  rawArgs: unknown;
  /** What ran instead of rawArgs: the person's edit. */
  ranArgs: unknown;
  note: string | undefined;
  decision: Decision | undefined;
  answer: AuditEntry['answer'];
  outcome: AuditEntry['outcome'];
  errorCode: string | undefined;
  executionMs: number;
  waitedMs: number | undefined;
  session: string | undefined;
  partial?: boolean;
}): AuditEntry {
  const { decision } = entry;
  const llm = readLlmRiskLevel(entry.rawArgs);
  return {
    time: new Date().toISOString(),
    ...(entry.session === undefined ? {} : { session: entry.session }),
    toolCallId: entry.call.id,
    tool: entry.call.name,
    args: entry.ranArgs ?? entry.rawArgs,
    ...(entry.ranArgs === undefined ? {} : { proposedArgs: entry.rawArgs }),
    ...(entry.note === undefined ? {} : { note: entry.note }),
    llmLevel: llm.kind === 'valid' ? llm.level : null,
    code: { level: decision?.codeLevel ?? null, whitelisted: decision?.whitelisted ?? false },
    decision:
      decision === undefined
        ? { action: 'deny', source: 'invalid', reasons: [entry.errorCode ?? 'invalid'] }
        : {
            action: decision.action,
            source: decision.source,
            ...(decision.rule === undefined ? {} : { rule: decision.rule }),
            reasons: decision.reasons,
          },
    effects: decision?.effects.map((effect) => effect.text) ?? [],
    disagreement: decision?.disagreement ?? false,
    answer: entry.answer,
    outcome: entry.outcome,
    ...(entry.errorCode === undefined ? {} : { errorCode: entry.errorCode }),
    ...(entry.partial === true ? { partial: true as const } : {}),
    durationMs: Math.round(entry.executionMs),
    ...(entry.waitedMs === undefined ? {} : { waitedMs: Math.round(entry.waitedMs) }),
  };
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
