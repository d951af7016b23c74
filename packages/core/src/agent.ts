import {
  type AnyTool,
  type AssessContext,
  type Decision,
  evaluateToolCall,
  formatZodError,
  type GatePolicy,
  parseRule,
  readLlmRiskLevel,
  type ToolResult,
  type TurnState,
} from '@riskgate/risk';
import type OpenAI from 'openai';
import type { AuditEntry, AuditLog } from './audit.js';
import type { AgentEvent, ApprovalAnswer, Confirmer, TurnEndReason } from './events.js';
import { describeProviderError } from './provider-errors.js';
import type { ToolRegistry } from './registry.js';
import type { Message, TranscriptWriter } from './transcript.js';

export interface AgentOptions {
  /** The model client, or a function that makes it on first use (keeps start-up fast). */
  readonly client: OpenAI | (() => Promise<OpenAI>);
  readonly model: string;
  readonly registry: ToolRegistry;
  readonly policy: GatePolicy;
  readonly confirmer: Confirmer;
  readonly context: AssessContext;
  readonly systemPrompt: string;
  /** Model replies per turn before the turn is stopped. */
  readonly maxSteps?: number;
  readonly transcript?: TranscriptWriter;
  readonly audit?: AuditLog;
  /** The conversation so far (a resumed session). */
  readonly history?: readonly Message[];
  readonly baseURL?: string;
}

export interface TurnOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: AgentEvent) => void;
}

export interface TurnOutcome {
  readonly reason: TurnEndReason;
  /** The model's last text (an answer, or a question for the person). */
  readonly text: string;
}

interface StreamedReply {
  readonly text: string;
  readonly toolCalls: readonly { id: string; name: string; argumentsText: string }[];
  readonly finished: boolean;
}

/**
 * The agent loop: the model answers (streamed), each tool call it makes passes the gate in
 * order — validate, assess, decide, confirm if asked, execute — and its result goes back, until
 * the model answers in text. Invalid arguments, errors and a person's "no" are results too, so
 * the model can recover or stop.
 */
export class Agent {
  private readonly messages: Message[];
  private policy: GatePolicy;
  private client: Promise<OpenAI> | undefined;
  /** What the gate remembers within the current turn (untrusted content seen). */
  private turnState: TurnState = {};

  constructor(private readonly options: AgentOptions) {
    this.messages = [...(options.history ?? [])];
    this.policy = options.policy;
  }

  get conversation(): readonly Message[] {
    return this.messages;
  }

  get currentPolicy(): GatePolicy {
    return this.policy;
  }

  setPolicy(policy: GatePolicy): void {
    this.policy = policy;
  }

  async runTurn(input: string, turn: TurnOptions = {}): Promise<TurnOutcome> {
    const signal = turn.signal ?? new AbortController().signal;
    const emit = (event: AgentEvent) => {
      this.options.transcript?.event(event);
      turn.onEvent?.(event);
    };
    const end = (reason: TurnEndReason, text: string): TurnOutcome => {
      emit({ type: 'turn-end', reason, text });
      return { reason, text };
    };
    this.push({ role: 'user', content: input });
    this.turnState = {};
    const maxSteps = this.options.maxSteps ?? 20;
    for (let step = 0; step < maxSteps; step++) {
      if (signal.aborted) return end('cancelled', '');
      let reply: StreamedReply;
      try {
        reply = await this.stream(signal, emit);
      } catch (error) {
        if (signal.aborted) return end('cancelled', '');
        const problem = await describeProviderError(error, { model: this.options.model, ...(this.options.baseURL === undefined ? {} : { baseURL: this.options.baseURL }) });
        emit({ type: 'error', kind: problem.kind, message: problem.message });
        return end('error', '');
      }
      if (!reply.finished) {
        // A reply cut off mid-way is never acted on: its tool calls may be incomplete.
        if (signal.aborted) return end('cancelled', reply.text);
        emit({ type: 'error', kind: 'incomplete-reply', message: "the model's reply was cut off before it finished; nothing in it was executed" });
        return end('error', reply.text);
      }
      this.push({
        role: 'assistant',
        content: reply.text === '' ? null : reply.text,
        ...(reply.toolCalls.length === 0
          ? {}
          : { tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.argumentsText } })) }),
      });
      if (reply.toolCalls.length === 0) return end('answered', reply.text);
      for (const call of reply.toolCalls) {
        if (signal.aborted) {
          this.push({ role: 'tool', tool_call_id: call.id, content: 'cancelled by the person before it ran' });
          continue;
        }
        const content = await this.handleToolCall(call, signal, emit);
        this.push({ role: 'tool', tool_call_id: call.id, content });
      }
      if (signal.aborted) return end('cancelled', '');
    }
    emit({ type: 'error', kind: 'step-limit', message: `stopped after ${maxSteps} model replies in one turn` });
    return end('step-limit', '');
  }

  private push(message: Message): void {
    this.messages.push(message);
    this.options.transcript?.message(message);
  }

  private getClient(): Promise<OpenAI> {
    const { client } = this.options;
    this.client ??= typeof client === 'function' ? client() : Promise.resolve(client);
    return this.client;
  }

  private async stream(signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<StreamedReply> {
    const client = await this.getClient();
    const stream = await client.chat.completions.create(
      {
        model: this.options.model,
        messages: [{ role: 'system', content: this.options.systemPrompt }, ...this.messages],
        tools: this.options.registry.definitions(),
        stream: true,
      },
      { signal },
    );
    let text = '';
    let finished = false;
    // Tool-call fragments arrive by index: the first carries id and name, the rest pieces of the arguments.
    const calls: { id: string; name: string; argumentsText: string }[] = [];
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice === undefined) continue;
        const delta = choice.delta;
        if (delta?.content) {
          text += delta.content;
          emit({ type: 'text-delta', text: delta.content });
        }
        for (const fragment of delta?.tool_calls ?? []) {
          calls[fragment.index] ??= { id: '', name: '', argumentsText: '' };
          const call = calls[fragment.index]!;
          if (fragment.id) call.id = fragment.id;
          if (fragment.function?.name) call.name += fragment.function.name;
          if (fragment.function?.arguments) call.argumentsText += fragment.function.arguments;
        }
        if (choice.finish_reason) finished = true;
      }
    } catch (error) {
      // The connection dropped mid-stream: report what arrived as unfinished.
      if (signal.aborted) return { text, toolCalls: [], finished: false };
      if (text === '' && calls.length === 0) throw error;
      return { text, toolCalls: [], finished: false };
    }
    const toolCalls = calls.filter((call) => call !== undefined).map((call, index) => ({ ...call, id: call.id || `call_${Date.now()}_${index}` }));
    return { text, toolCalls, finished };
  }

  /** One tool call through the gate. Returns the text the model receives. */
  private async handleToolCall(
    call: { id: string; name: string; argumentsText: string },
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<string> {
    const started = performance.now();
    emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, argumentsText: call.argumentsText });
    emit({ type: 'tool-state', toolCallId: call.id, state: 'validating' });
    const tool = this.options.registry.get(call.name);
    let rawArgs: unknown;
    let parseError: string | undefined;
    try {
      rawArgs = call.argumentsText.trim() === '' ? {} : JSON.parse(call.argumentsText);
    } catch (error) {
      parseError = (error as Error).message;
    }
    if (tool === undefined || parseError !== undefined) {
      const message =
        tool === undefined
          ? `error: there is no tool named "${call.name}"; the tools are ${this.options.registry.names.join(', ')}`
          : `error: the arguments are not valid JSON (${parseError}); send the call again with valid JSON`;
      emit({ type: 'tool-result', toolCallId: call.id, toolName: call.name, state: 'denied', forModel: message, durationMs: performance.now() - started });
      this.audit({ call, rawArgs: rawArgs ?? call.argumentsText, decision: undefined, answer: 'not-asked', outcome: 'denied', errorCode: tool === undefined ? 'unknown-tool' : 'invalid-json', started });
      return message;
    }

    emit({ type: 'tool-state', toolCallId: call.id, state: 'assessing' });
    const evaluation = await evaluateToolCall(tool, rawArgs, this.options.context, this.policy, this.turnState);
    const { decision } = evaluation;
    emit({ type: 'decision', toolCallId: call.id, toolName: call.name, decision });

    if (!evaluation.valid || decision.action === 'deny') {
      const message = evaluation.valid
        ? `not run: ${decision.reasons[0] ?? 'denied'}. The person's rules forbid this; do not try it another way.`
        : `error: ${decision.reasons[0] ?? 'invalid arguments'}. Fix the arguments and call again.`;
      emit({ type: 'tool-state', toolCallId: call.id, state: 'denied' });
      emit({ type: 'tool-result', toolCallId: call.id, toolName: call.name, state: 'denied', forModel: message, durationMs: performance.now() - started });
      this.audit({ call, rawArgs, decision, answer: 'not-asked', outcome: 'denied', errorCode: evaluation.valid ? 'denied-by-rule' : 'invalid-arguments', started });
      return message;
    }

    let args = evaluation.args;
    let readOnly = evaluation.assessment.whitelisted;
    let answer: AuditEntry['answer'] = 'not-asked';
    if (decision.action === 'confirm') {
      emit({ type: 'tool-state', toolCallId: call.id, state: 'awaiting-approval' });
      const description = await tool.describe(args, this.options.context);
      const request = { toolCallId: call.id, toolName: call.name, args, description, decision, subjects: evaluation.assessment.subjects, ruleStyle: tool.ruleStyle };
      emit({ type: 'tool-approval-request', request });
      let reply: ApprovalAnswer;
      try {
        reply = await this.options.confirmer.confirm(request, signal);
      } catch (error) {
        reply = { type: 'deny', note: signal.aborted ? 'cancelled' : `the confirmation failed: ${(error as Error).message}` };
      }
      emit({ type: 'tool-approval-answer', toolCallId: call.id, answer: reply });
      answer = reply.type;
      if (reply.type === 'deny' || signal.aborted) {
        const cancelled = signal.aborted;
        const note = reply.type === 'deny' && reply.note !== undefined && reply.note !== '' && reply.note !== 'cancelled' ? ` Their note: ${reply.note}` : '';
        const message = cancelled ? 'not run: the person cancelled.' : `not run: the person declined this operation.${note} Do not try it another way; ask what they want instead.`;
        emit({ type: 'tool-state', toolCallId: call.id, state: cancelled ? 'cancelled' : 'denied' });
        emit({ type: 'tool-result', toolCallId: call.id, toolName: call.name, state: cancelled ? 'cancelled' : 'denied', forModel: message, durationMs: performance.now() - started });
        this.audit({ call, rawArgs, decision, answer, outcome: cancelled ? 'cancelled' : 'denied', started });
        return message;
      }
      if (reply.type === 'always') this.addAllowRule(reply.rule, emit);
      if (reply.type === 'edit') {
        const edited = tool.parameters.safeParse(reply.args);
        if (!edited.success) {
          const message = `not run: the person's edit is not valid (${formatZodError(edited.error)})`;
          emit({ type: 'tool-result', toolCallId: call.id, toolName: call.name, state: 'denied', forModel: message, durationMs: performance.now() - started });
          this.audit({ call, rawArgs, decision, answer, outcome: 'denied', errorCode: 'invalid-edit', started });
          return message;
        }
        args = edited.data;
        readOnly = false;
      }
    }

    emit({ type: 'tool-state', toolCallId: call.id, state: 'executing' });
    let result: ToolResult<unknown>;
    try {
      result = await tool.execute(args, {
        ...this.options.context,
        signal,
        readOnly,
        onOutput: (chunk: string) => emit({ type: 'tool-output', toolCallId: call.id, chunk }),
      });
    } catch (error) {
      // Tools return expected failures as values; a throw is a fault, reported to the model all the same.
      result = { type: 'tool-error', code: 'tool-crashed', message: `${tool.name} failed unexpectedly: ${(error as Error).message}` };
    }
    const cancelled = signal.aborted;
    const state = cancelled ? 'cancelled' : result.type === 'tool-success' ? 'succeeded' : 'failed';
    // Content from outside the person's trust may steer the model from here on: guarded mode
    // stops taking its `low` for the rest of the turn.
    if (evaluation.assessment.untrusted !== undefined && this.turnState.untrusted === undefined) {
      this.turnState = { untrusted: evaluation.assessment.untrusted };
      emit({ type: 'untrusted-content', toolCallId: call.id, source: evaluation.assessment.untrusted });
    }
    const edited = answer === 'edit' ? `The person edited the operation before it ran; it ran as: ${JSON.stringify(args)}\n` : '';
    const forModel = edited + (result.type === 'tool-success' ? result.forModel : `error (${result.code}): ${result.message}`);
    emit({ type: 'tool-state', toolCallId: call.id, state });
    emit({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      state,
      forModel,
      ...(result.type === 'tool-success' ? { data: result.data } : {}),
      durationMs: performance.now() - started,
    });
    this.audit({ call, rawArgs, decision, answer, outcome: state, ...(result.type === 'tool-error' ? { errorCode: result.code } : {}), started });
    return forModel;
  }

  private addAllowRule(text: string, emit: (event: AgentEvent) => void): void {
    const parsed = parseRule(text, 'allow');
    if (!parsed.ok) {
      emit({ type: 'error', kind: 'rule', message: parsed.error });
      return;
    }
    this.policy = { ...this.policy, rules: [...this.policy.rules, parsed.rule] };
    emit({ type: 'rule-added', rule: parsed.rule.text });
  }

  private audit(entry: {
    call: { id: string; name: string };
    rawArgs: unknown;
    decision: Decision | undefined;
    answer: AuditEntry['answer'];
    outcome: AuditEntry['outcome'];
    errorCode?: string;
    started: number;
  }): void {
    const { decision } = entry;
    const llm = readLlmRiskLevel(entry.rawArgs);
    this.options.audit?.record({
      time: new Date().toISOString(),
      ...(this.options.transcript === undefined ? {} : { session: this.options.transcript.session.id }),
      toolCallId: entry.call.id,
      tool: entry.call.name,
      args: entry.rawArgs,
      llmLevel: llm.kind === 'valid' ? llm.level : null,
      code: { level: decision?.codeLevel ?? null, whitelisted: decision?.whitelisted ?? false },
      decision: decision === undefined
        ? { action: 'deny', source: 'invalid', reasons: [entry.errorCode ?? 'invalid'] }
        : { action: decision.action, source: decision.source, ...(decision.rule === undefined ? {} : { rule: decision.rule }), reasons: decision.reasons },
      effects: decision?.effects.map((effect) => effect.text) ?? [],
      disagreement: decision?.disagreement ?? false,
      answer: entry.answer,
      outcome: entry.outcome,
      ...(entry.errorCode === undefined ? {} : { errorCode: entry.errorCode }),
      durationMs: Math.round(performance.now() - entry.started),
    });
  }
}

export type { AnyTool };
