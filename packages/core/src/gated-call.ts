import {
  type AnyTool,
  callTitle,
  confirmationQuestion,
  type Decision,
  type Evaluation,
  evaluateToolCall,
  formatZodError,
  type JudgedEffect,
  parseRule,
  type Rule,
  readLlmRiskLevel,
  safeAssess,
  type ToolResult,
  type TurnState,
} from '@riskgate/risk';
import { argumentsTooLarge, argumentsTooLargeText, boundedArguments } from './argument-limits.js';
import type { AuditEntry } from './audit.js';
import type { PendingChangeSet } from './checkpoints.js';
import type { ApprovalAnswer, ApprovalRequest } from './events.js';
import type { GateContext, GatedCallOutcome, GatedCallState, ToolCallInput, ToolSource } from './gate-context.js';
import { defaultOutputGuard, guardToolResult } from './output-guard.js';

/** What a call ends as: the one exit (`finish`) turns it into events, an audit line and the outcome. */
interface Ending {
  readonly state: GatedCallState;
  readonly forModel: string;
  readonly forPerson?: string;
  readonly data?: unknown;
  readonly errorCode?: string;
  readonly ruleAdded?: Rule;
  readonly turn?: TurnState;
  readonly unknown?: boolean;
  readonly partial?: boolean;
}

/** What the person's answer leaves to run: the arguments (edited or not) and their plan. */
interface Approved {
  readonly args: unknown;
  readonly plan: unknown;
  readonly readOnly: boolean;
  readonly ruleAdded?: Rule;
  /** What the arguments do (for the checkpoint `/undo` restores). */
  readonly effects: readonly JudgedEffect[];
}

type Valid = Extract<Evaluation, { valid: true }>;

/**
 * One tool call through the gate: validate → assess (once; its plan goes on) → decide → confirm
 * → execute (read-only when it runs only because it is whitelisted) → audit. Every step's early
 * end goes through `finish`, the one exit.
 */
export class GatedCall {
  private readonly signal: AbortSignal;
  private readonly argumentsText: string;
  private rawArgs: unknown;
  private title: string;
  private decision: Decision | undefined;
  private answer: AuditEntry['answer'] = 'not-asked';
  /** What the audit line says ran instead of rawArgs (the person's edit), and their note. */
  private ranArgs: unknown;
  private note: string | undefined;
  /** Why nobody could consent (DeniedAnswer's `refusal`), when that was the reason it did not run. */
  private refusal: string | undefined;
  /** The operation's own duration: the time the person took to answer is counted apart. */
  private executionMs = 0;
  private waitedMs: number | undefined;
  private finished = false;
  /** Whether the tool's execute was entered: a fault of ours after that point cannot say "not run". */
  private started = false;

  constructor(
    private readonly call: ToolCallInput,
    private readonly gate: GateContext,
  ) {
    this.signal = gate.signal ?? new AbortController().signal;
    this.argumentsText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    this.rawArgs = this.argumentsText;
    this.title = this.argumentsText;
  }

  /**
   * Never throws: a fault inside the gate itself (a describe, a rule, an event handler, the
   * audit) is answered as a clear tool error; once the tool was entered it may have partly run,
   * and the record says so.
   */
  async run(): Promise<GatedCallOutcome> {
    try {
      return await this.gated();
    } catch (error) {
      if (!this.started) this.executionMs = 0;
      const forModel = this.started
        ? `error (gate-error): riskgate failed while this call ran (${errorText(error)}), so it may have partly or wholly run; check what it changed before trying again`
        : `error (gate-error): riskgate failed before running this call (${errorText(error)}); nothing was run. Tell the person.`;
      try {
        return this.finish({
          state: 'failed',
          forModel,
          errorCode: 'gate-error',
          ...(this.started ? { unknown: true } : {}),
        });
      } catch {
        // Even reporting failed (an event handler that throws): the model still gets the truth.
        return { state: 'failed', forModel, ...(this.decision === undefined ? {} : { decision: this.decision }) };
      }
    }
  }

  private emit: NonNullable<GateContext['onEvent']> = (event) => this.gate.onEvent?.(event);

  private async gated(): Promise<GatedCallOutcome> {
    const { call, gate } = this;
    // Oversized arguments are refused before they are parsed; only a bounded stand-in is shown,
    // audited and kept (issue 19: a 10 MB argument was echoed whole to stderr and every log).
    if (argumentsTooLarge(this.argumentsText)) {
      const kept = boundedArguments(this.argumentsText);
      this.rawArgs = JSON.parse(kept);
      this.title = kept;
      this.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, argumentsText: kept, title: kept });
      const forModel = argumentsTooLargeText(this.argumentsText);
      return this.finish({ state: 'denied', forModel, errorCode: 'arguments-too-large' });
    }
    const tool = findTool(gate.tools, call.name);
    const parsed = parseArguments(call.arguments);
    if (parsed.ok) this.rawArgs = parsed.value;
    this.title = callTitle(tool, this.rawArgs);
    const { argumentsText, title } = this;
    this.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, argumentsText, title });
    this.emit({ type: 'tool-state', toolCallId: call.id, state: 'validating' });
    if (tool === undefined) {
      const forModel = `error: there is no tool named "${call.name}"; the tools are ${toolNames(gate.tools).join(', ')}`;
      return this.finish({ state: 'denied', forModel, errorCode: 'unknown-tool' });
    }
    if (!parsed.ok) {
      const forModel = `error: the arguments are not valid JSON (${parsed.error}); send the call again with valid JSON`;
      return this.finish({ state: 'denied', forModel, errorCode: 'invalid-json' });
    }
    this.emit({ type: 'tool-state', toolCallId: call.id, state: 'assessing' });
    const evaluation = await evaluateToolCall(tool, this.rawArgs, gate.assess, gate.policy, gate.turn ?? {});
    const decision = evaluation.decision;
    this.decision = decision;
    this.emit({ type: 'decision', toolCallId: call.id, toolName: call.name, decision });
    if (!evaluation.valid) {
      const forModel = `error: ${decision.why}. Fix the arguments and call again.`;
      return this.finish({ state: 'denied', forModel, errorCode: 'invalid-arguments' });
    }
    if (decision.action === 'deny') {
      // The organisation's refusal is final: no other spelling, tool or workaround, and no asking the person to allow it.
      const forModel =
        decision.managed === true
          ? `not run: ${decision.why}. This is refused by policy, not by a rule the person can change: do not try it another way or with another tool, and do not ask the person to allow it. Tell them it is not allowed here.`
          : `not run: ${decision.why}. The person's rules forbid this; do not try it another way.`;
      return this.finish({
        state: 'denied',
        forModel,
        errorCode: decision.managed === true ? 'denied-by-policy' : 'denied-by-rule',
      });
    }
    if (evaluation.assessment.plan === undefined) {
      // The assessor failed (a fault of ours): with no plan nothing can run as assessed, so
      // nothing runs, whatever the decision said.
      const forModel = `error (assessor-failed): not run: riskgate could not read this call (${decision.findings.join('; ')}). Nothing was run; tell the person what you wanted to do.`;
      return this.finish({ state: 'denied', forModel, errorCode: 'assessor-failed' });
    }
    // Whitelisted calls run read-only (a read-only transaction, the sandbox), asked or not.
    const planned = {
      args: evaluation.args,
      plan: evaluation.assessment.plan.value,
      readOnly: evaluation.assessment.whitelisted,
      effects: evaluation.assessment.effects,
    };
    const approved = decision.action === 'confirm' ? await this.ask(tool, evaluation, planned) : planned;
    if ('state' in approved) return approved;
    const result = await this.execute(tool, approved);
    return this.settle(result, evaluation, approved);
  }

  /** The panel: the person's answer, or the outcome when it is not a yes. */
  private async ask(tool: AnyTool, evaluation: Valid, planned: Approved) {
    const { call, gate } = this;
    const decision = evaluation.decision;
    if (gate.confirm === undefined) {
      const forModel = `not run: this needs the person's confirmation, and there is no way to ask them here (${decision.reasons.join('; ')}). Tell the person what you wanted to do and why.`;
      return this.finish({ state: 'denied', forModel, errorCode: 'confirmation-unavailable' });
    }
    this.emit({ type: 'tool-state', toolCallId: call.id, state: 'awaiting-approval' });
    const request: ApprovalRequest = {
      toolCallId: call.id,
      toolName: call.name,
      title: this.title,
      question: confirmationQuestion(tool),
      ...(tool.editable === undefined ? {} : { editable: tool.editable }),
      args: planned.args,
      description: await tool.describe(planned.args, gate.assess, planned.plan),
      decision,
      subjects: evaluation.assessment.subjects,
      ruleStyle: tool.ruleStyle,
      ...this.undoOutlook(planned.effects),
    };
    this.emit({ type: 'tool-approval-request', request });
    let reply: ApprovalAnswer;
    const asked = performance.now();
    try {
      reply = await gate.confirm(request, this.signal);
    } catch (error) {
      this.waitedMs = performance.now() - asked;
      if (this.signal.aborted) return this.finish({ state: 'cancelled', forModel: 'not run: the person cancelled.' });
      // The panel itself failed: nobody declined anything, and the model must not read it as a "no".
      const forModel = `error (confirmation-failed): not run: riskgate could not ask the person (its confirmation panel failed: ${errorText(error)}). Nothing was run; tell the person what you wanted to do.`;
      return this.finish({ state: 'failed', forModel, errorCode: 'confirmation-failed' });
    }
    this.waitedMs = performance.now() - asked;
    this.emit({ type: 'tool-approval-answer', toolCallId: call.id, answer: reply });
    this.answer = reply.type;
    if (this.signal.aborted) return this.finish({ state: 'cancelled', forModel: 'not run: the person cancelled.' });
    return this.answered(tool, reply, planned);
  }

  private async answered(tool: AnyTool, reply: ApprovalAnswer, planned: Approved) {
    if (reply.type === 'deny') {
      if (reply.note !== undefined && reply.note !== '' && reply.note !== 'cancelled') this.note = reply.note;
      if (reply.refusal !== undefined && reply.refusal !== '') this.refusal = reply.refusal;
      return this.finish({ state: 'denied', forModel: declinedText(this.note, this.refusal) });
    }
    if (reply.type === 'always') {
      const rule = parseRule(reply.rule, 'allow');
      if (!rule.ok) {
        this.emit({ type: 'error', kind: 'rule', message: rule.error });
        return planned;
      }
      this.emit({ type: 'rule-added', rule: rule.rule.text });
      return { ...planned, ruleAdded: rule.rule };
    }
    if (reply.type !== 'edit') return planned;
    this.ranArgs = reply.args;
    const edited = tool.parameters.safeParse(reply.args);
    if (!edited.success) {
      const forModel = `not run: the person's edit is not valid (${formatZodError(edited.error)})`;
      return this.finish({ state: 'denied', forModel, errorCode: 'invalid-edit' });
    }
    this.ranArgs = edited.data;
    // What the person wrote was confirmed as written, not whitelisted: it runs as asked. The old
    // plan described other arguments: the edit is assessed again for its own.
    const replanned = await safeAssess(tool, edited.data, this.gate.assess);
    if (replanned.plan === undefined) {
      const forModel = `error (assessor-failed): not run: riskgate could not read the person's edit (${replanned.reasons.join('; ')}). Nothing was run.`;
      return this.finish({ state: 'denied', forModel, errorCode: 'assessor-failed' });
    }
    return { args: edited.data, plan: replanned.plan.value, readOnly: false, effects: replanned.effects };
  }

  /** The panel's word on `/undo`: the paths it keeps, and what cannot be undone. */
  private undoOutlook(effects: readonly JudgedEffect[]): {
    undo?: { paths: readonly string[]; cannot: readonly string[] };
  } {
    const plan = this.gate.checkpoints?.plan(effects);
    return plan === undefined ? {} : { undo: { paths: plan.shown, cannot: plan.cannot } };
  }

  /**
   * What the call will change is kept before it runs (a checkpoint for `/undo`); a copy that
   * cannot be made stops the call — the person may have said yes because the panel said it can
   * be undone.
   */
  private async checkpoint(
    effects: readonly JudgedEffect[],
  ): Promise<PendingChangeSet | ToolResult<unknown> | undefined> {
    const { checkpoints } = this.gate;
    const plan = checkpoints?.plan(effects);
    if (checkpoints === undefined || plan === undefined || plan.targets.length === 0) return undefined;
    try {
      return await checkpoints.capture(plan);
    } catch (error) {
      return {
        type: 'tool-error',
        code: 'checkpoint-failed',
        message: `not run: riskgate could not keep a copy of what this would change, for /undo (${errorText(error)}). Nothing was run; tell the person.`,
      };
    }
  }

  /** The checkpoint becomes a change set once the call ended, however it ended. */
  private async keep(pending: PendingChangeSet, approved: Approved): Promise<void> {
    try {
      await this.gate.checkpoints?.commit(pending, {
        tool: this.call.name,
        title: callTitle(findTool(this.gate.tools, this.call.name), approved.args),
        toolCallId: this.call.id,
        ...(this.gate.session === undefined ? {} : { session: this.gate.session }),
      });
    } catch (error) {
      this.emit({ type: 'error', kind: 'checkpoint', message: `/undo will not have this change: ${errorText(error)}` });
    }
  }

  private async execute(tool: AnyTool, approved: Approved): Promise<ToolResult<unknown>> {
    const pending = await this.checkpoint(approved.effects);
    if (pending !== undefined && 'type' in pending) return pending;
    const result = await this.runTool(tool, approved);
    if (pending !== undefined) await this.keep(pending, approved);
    return result;
  }

  private async runTool(tool: AnyTool, approved: Approved): Promise<ToolResult<unknown>> {
    const { call, gate } = this;
    // Write-ahead: the record says the call started before it runs, so a session killed while it
    // runs (SIGKILL, a closed terminal, a power cut) leaves "started" with no outcome — read as
    // "interrupted, may have partly run" — never silence that looks like "not run".
    gate.audit?.record(this.auditEntry('started', undefined, false));
    this.emit({ type: 'tool-state', toolCallId: call.id, state: 'executing' });
    const executing = performance.now();
    this.started = true;
    try {
      const onOutput = (chunk: string) => this.emit({ type: 'tool-output', toolCallId: call.id, chunk });
      const context = { ...gate.assess, signal: this.signal, readOnly: approved.readOnly, onOutput };
      return await tool.execute(approved.args, context, approved.plan);
    } catch (error) {
      // Tools return expected failures as values; a throw is a fault, reported to the model all the same.
      // It may have done part of its work before it threw: never "failed" as if nothing ran.
      return {
        type: 'tool-error',
        code: 'tool-crashed',
        message: `${tool.name} failed unexpectedly: ${errorText(error)}; it may have partly run, so check what it changed before trying again`,
        outcomeUnknown: true,
      };
    } finally {
      this.executionMs = performance.now() - executing;
    }
  }

  /** What happened, not what was asked, guarded before the model reads it. */
  private settle(result: ToolResult<unknown>, evaluation: Valid, approved: Approved): GatedCallOutcome {
    const { gate, signal } = this;
    // A write that completed before the abort took hold succeeded, and one whose fate is unknown
    // is never called cancelled.
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
    const source = evaluation.assessment.untrusted;
    const turn =
      source !== undefined && gate.turn?.untrusted === undefined ? { ...gate.turn, untrusted: source } : undefined;
    if (turn !== undefined && source !== undefined)
      this.emit({ type: 'untrusted-content', toolCallId: this.call.id, source });
    const edited =
      this.answer === 'edit'
        ? `The person edited the operation before it ran; it ran as: ${JSON.stringify(approved.args)}\n`
        : '';
    const own =
      result.type === 'tool-success' && result.withheldForModel !== undefined
        ? { text: edited + result.withheldForModel.text, withheld: result.withheldForModel.withheld }
        : undefined;
    const { forModel, forPerson } = guardToolResult(
      gate.outputGuard ?? defaultOutputGuard(),
      this.answer !== 'not-asked',
      edited + (result.type === 'tool-success' ? result.forModel : failureText(result.code, result.message)),
      own,
    );
    return this.finish({
      state,
      forModel,
      ...(forPerson === undefined ? {} : { forPerson }),
      ...(result.type === 'tool-success' ? { data: result.data } : { errorCode: result.code }),
      ...(unknown ? { unknown } : {}),
      ...(result.type === 'tool-success' && result.partial === true ? { partial: true } : {}),
      ...(approved.ruleAdded === undefined ? {} : { ruleAdded: approved.ruleAdded }),
      ...(turn === undefined ? {} : { turn }),
    });
  }

  /** The one exit: every outcome emits its state and result and writes one audit line. */
  private finish(ending: Ending): GatedCallOutcome {
    const { call, decision } = this;
    // The audit line first: an event handler that throws must not cost the record.
    const recorded = this.finished;
    this.finished = true;
    if (!recorded)
      this.gate.audit?.record(
        this.auditEntry(ending.unknown === true ? 'unknown' : ending.state, ending.errorCode, ending.partial === true),
      );
    this.emit({ type: 'tool-state', toolCallId: call.id, state: ending.state });
    this.emit({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      state: ending.state,
      forModel: ending.forModel,
      ...(ending.forPerson === undefined ? {} : { forPerson: ending.forPerson }),
      ...(ending.data === undefined ? {} : { data: ending.data }),
      durationMs: this.executionMs,
    });
    return {
      state: ending.state,
      forModel: ending.forModel,
      ...(ending.forPerson === undefined ? {} : { forPerson: ending.forPerson }),
      ...(ending.data === undefined ? {} : { data: ending.data }),
      ...(decision === undefined ? {} : { decision }),
      ...(ending.ruleAdded === undefined ? {} : { ruleAdded: ending.ruleAdded }),
      ...(ending.turn === undefined ? {} : { turn: ending.turn }),
    };
  }

  private auditEntry(outcome: AuditEntry['outcome'], errorCode: string | undefined, partial: boolean): AuditEntry {
    const { decision, rawArgs } = this;
    const ranArgs = this.ranArgs;
    const llm = readLlmRiskLevel(rawArgs);
    return {
      time: new Date().toISOString(),
      ...(this.gate.session === undefined ? {} : { session: this.gate.session }),
      toolCallId: this.call.id,
      tool: this.call.name,
      title: ranArgs === undefined ? this.title : callTitle(findTool(this.gate.tools, this.call.name), ranArgs),
      args: ranArgs ?? rawArgs,
      ...(ranArgs === undefined ? {} : { proposedArgs: rawArgs, proposedTitle: this.title }),
      ...(this.note === undefined ? {} : { note: this.note }),
      ...(this.refusal === undefined ? {} : { refusal: this.refusal }),
      llmLevel: llm.kind === 'valid' ? llm.level : null,
      code: { level: decision?.codeLevel ?? null, whitelisted: decision?.whitelisted ?? false },
      decision:
        decision === undefined
          ? { action: 'deny', source: 'invalid', reasons: [errorCode ?? 'invalid'] }
          : {
              action: decision.action,
              source: decision.source,
              ...(decision.rule === undefined ? {} : { rule: decision.rule }),
              ...(decision.managed === true ? { managed: true as const } : {}),
              reasons: decision.reasons,
            },
      effects: decision?.effects.map((effect) => effect.text) ?? [],
      disagreement: decision?.disagreement ?? false,
      answer: this.answer,
      outcome,
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(partial ? { partial: true as const } : {}),
      durationMs: outcome === 'started' ? 0 : Math.round(this.executionMs),
      ...(this.waitedMs === undefined ? {} : { waitedMs: Math.round(this.waitedMs) }),
    };
  }
}

/**
 * What the model reads when an asked operation did not run. The person's "no" without a note:
 * not to work around them. With a note: the note is what they want — it may well ask for
 * another way, so nothing here forbids one. A refusal (nobody could be asked) is never called
 * the person's answer.
 */
export function declinedText(note: string | undefined, refusal?: string): string {
  if (refusal !== undefined)
    return `not run: refused for lack of consent (${refusal}). Nothing was run; do not try it another way; tell the person what you wanted to do.`;
  return note === undefined
    ? 'not run: the person declined this operation. Do not try it another way; ask what they want instead.'
    : `not run: the person declined this operation and left a note: "${note}". Do what their note asks.`;
}

export function findTool(tools: ToolSource, name: string): AnyTool | undefined {
  if (Array.isArray(tools)) return (tools as readonly AnyTool[]).find((tool) => tool.name === name);
  return (tools as ReadonlyMap<string, AnyTool>).get(name);
}

function toolNames(tools: ToolSource): readonly string[] {
  if (Array.isArray(tools)) return (tools as readonly AnyTool[]).map((tool) => tool.name);
  if (tools instanceof Map) return [...tools.keys()];
  return (tools as { readonly names: readonly string[] }).names;
}

export function parseArguments(
  input: ToolCallInput['arguments'],
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof input !== 'string') return { ok: true, value: input ?? {} };
  try {
    return { ok: true, value: input.trim() === '' ? {} : JSON.parse(input) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
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
