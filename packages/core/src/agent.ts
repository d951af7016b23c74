import { assistantMessage, carriesReasoning, refusedReasoning, withoutReasoning } from './assistant-message.js';
import { type AnyTool, type AssessContext, type GatePolicy, parseRule, type TurnState } from '@riskgate/risk';
import type OpenAI from 'openai';
import type { AuditLog } from './audit.js';
import type { Checkpoints } from './checkpoints.js';
import type { AgentEvent, Confirmer, TurnEndReason } from './events.js';
import { runGatedToolCall } from './gated-executor.js';
import { readingErrors } from './error-bodies.js';
import { DEFAULT_CONTEXT_TOKENS, estimateTokens, trimToBudget } from './context-budget.js';
import { COMPACT_AT, compactionCut, summaryMessage, summaryRequestMessages } from './compaction.js';
import { defaultOutputGuard } from './output-guard.js';
import { CUT_OFF, ReplyAssembler, type StreamedReply, withFreshIds } from './stream-reply.js';
import type { OutputGuard } from './output-guard.js';
import {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_REPLY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_WAIT_MS,
  planRetry,
  type ReplyLimits,
  type RetryLimits,
  tooLongMessage,
  waitUnlessAborted,
} from './model-wait.js';
import { describeProviderError, streamedError } from './provider-errors.js';
import { listModels, type ModelList } from './model-list.js';
import type { ToolRegistry } from './registry.js';
import type { Message, TranscriptWriter } from './transcript.js';
import { type ChatCompletionChunk, readReply } from './read-reply.js';
import { refusedStreamOptions } from './usage.js';

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
  /** Keeps what calls change before they run, for `/undo`. */
  readonly checkpoints?: Checkpoints;
  /** The conversation so far (a resumed session). */
  readonly history?: readonly Message[];
  readonly baseURL?: string;
  /** The model's context window in tokens: old tool results are trimmed to stay within it. */
  readonly contextTokens?: number;
  /** Checks what unasked operations return before the model sees it (output-guard.ts); by default riskgate's environment and the token formats. */
  readonly outputGuard?: OutputGuard;
  /** Retries of a request that failed before any reply arrived; make the client with maxRetries 0 (model-wait.ts). */
  readonly retries?: RetryLimits;
  /** Bounds of one streamed reply (bytes, time). */
  readonly replyLimits?: ReplyLimits;
  /**
   * For a conversation that goes on from another agent (`untrustedSource` of that one): where
   * untrusted content came in, or false when none did. Without it, a history with tool results
   * (a resumed one) is taken as having brought some in.
   */
  readonly untrusted?: string | false;
}

export interface TurnOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: AgentEvent) => void;
}

export type CompactionOutcome =
  | {
      readonly compacted: true;
      /** How many messages the summary stands for. */
      readonly messages: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | { readonly compacted: false; readonly reason: string };

export interface TurnOutcome {
  readonly reason: TurnEndReason;
  /** The model's last text (an answer, or a question for the person). */
  readonly text: string;
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
  private currentModel: string;
  /** Send reasoning back (assistant-message.ts) until the endpoint refuses it by name, for this model. */
  private sendReasoning = true;
  /** Ask for usage in streams until the endpoint refuses the option (then never again). */
  private askUsage = true;
  /** The provider's count of the last request's prompt: the first `messages` messages and the system prompt. */
  private measured: { readonly messages: number; readonly tokens: number } | undefined;
  /** A turn is running: notes wait for the start of its next step. */
  private running = false;
  /** Notes for the model from outside the turn (an `/undo`), said before its next request. */
  private readonly notes: string[] = [];
  /**
   * Where content from outside the person's trust first came into this conversation (any turn):
   * a compaction's summary says so, so the warning outlives the messages it summarises.
   */
  private untrustedSeen: string | undefined;
  private compacting: Promise<unknown> | undefined;

  constructor(private readonly options: AgentOptions) {
    this.messages = [...(options.history ?? [])];
    // A resumed conversation's sources are not known: its tool results are taken as untrusted.
    if (options.untrusted !== undefined)
      this.untrustedSeen = options.untrusted === false ? undefined : options.untrusted;
    else if (this.messages.some((message) => message.role === 'tool'))
      this.untrustedSeen = 'a resumed conversation whose tool results are not known to be trusted';
    this.policy = options.policy;
    this.currentModel = options.model;
  }

  get model(): string {
    return this.currentModel;
  }

  /** Switches the model for the next request; the conversation goes on as it is. */
  setModel(model: string): void {
    this.currentModel = model;
    this.sendReasoning = true;
  }

  /** The endpoint's models (`GET /models`), through the agent's own client: /model lists them. */
  async listModels(options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {}): Promise<ModelList> {
    const where = this.options.baseURL;
    return listModels(await this.getClient(), { ...options, ...(where === undefined ? {} : { baseURL: where }) });
  }

  /** The conversation's size as the next request would carry it, and the model's context window. */
  get contextUsage(): { readonly tokens: number; readonly budget: number } {
    const budget = this.options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
    const measured = this.measured;
    const tokens =
      measured !== undefined && measured.messages <= this.messages.length
        ? measured.tokens + estimateTokens(this.messages.slice(measured.messages))
        : estimateTokens(this.messages, this.options.systemPrompt);
    return { tokens, budget };
  }

  /**
   * Whether the next turn should start compacted: the conversation fills more of the window than
   * trimming old tool results (what every request does first, at no cost) can bring it under.
   */
  get contextLow(): boolean {
    const { tokens, budget } = this.contextUsage;
    if (tokens <= budget * COMPACT_AT) return false;
    const copy = [...this.messages];
    const trimmed = trimToBudget(copy, {
      budget,
      systemPrompt: this.options.systemPrompt,
      keepFrom: copy.length,
      ...(this.measured === undefined ? {} : { measured: this.measured }),
    });
    return tokens - trimmed.tokensSaved > budget * COMPACT_AT;
  }

  /** Where content from outside the person's trust first came into this conversation; false when none did. */
  get untrustedSource(): string | false {
    return this.untrustedSeen ?? false;
  }

  /** A compaction that is running: a turn waits for it (the messages are being replaced). */
  get pendingCompaction(): Promise<unknown> | undefined {
    return this.compacting;
  }

  /**
   * Replaces the older turns with a summary the model writes (a separate request to the same
   * endpoint), keeping the last turns whole (compaction.ts). The summary passes the output guard
   * (nothing withheld comes back) and carries the untrusted-content warning when any turn brought
   * such content in. The transcript keeps every message; only what the model is sent shrinks.
   */
  compact(options: { readonly signal?: AbortSignal; readonly keepTurns?: number } = {}): Promise<CompactionOutcome> {
    const running = this.summarise(options).finally(() => {
      if (this.compacting === running) this.compacting = undefined;
    });
    this.compacting = running;
    return running;
  }

  private async summarise({
    signal,
    keepTurns,
  }: {
    readonly signal?: AbortSignal;
    readonly keepTurns?: number;
  }): Promise<CompactionOutcome> {
    const cut = compactionCut(this.messages, keepTurns);
    if (cut === 0) return { compacted: false, reason: 'nothing old enough to compact: the last turns are kept whole' };
    const before = this.contextUsage.tokens;
    let text: string;
    try {
      const client = await this.getClient();
      const reply = await client.chat.completions.create(
        { model: this.currentModel, messages: summaryRequestMessages(this.messages.slice(0, cut)), stream: false },
        { ...(signal === undefined ? {} : { signal }), maxRetries: 0 },
      );
      text = reply.choices[0]?.message.content ?? '';
    } catch (error) {
      const where = this.options.baseURL;
      const problem = await describeProviderError(error, {
        model: this.currentModel,
        ...(where === undefined ? {} : { baseURL: where }),
      });
      return { compacted: false, reason: `the summary could not be made: ${problem.message}` };
    }
    if (text.trim() === '')
      return { compacted: false, reason: 'the model wrote an empty summary; nothing was removed' };
    const guarded = (this.options.outputGuard ?? defaultOutputGuard())(text).text;
    this.messages.splice(0, cut, summaryMessage(guarded, this.untrustedSeen));
    this.measured = undefined;
    return { compacted: true, messages: cut, tokensBefore: before, tokensAfter: this.contextUsage.tokens };
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

  /**
   * Tells the model something the person did outside the conversation (an `/undo`), as a
   * message in the conversation and the transcript: at once between turns, or before the running
   * turn's next request (never between a reply's tool calls and their results).
   */
  addNote(text: string): void {
    if (this.running) this.notes.push(text);
    else this.push({ role: 'user', content: text });
  }

  private flushNotes(): void {
    for (const note of this.notes.splice(0)) this.push({ role: 'user', content: note });
  }

  async runTurn(input: string, turn: TurnOptions = {}): Promise<TurnOutcome> {
    this.running = true;
    try {
      return await this.turn(input, turn);
    } finally {
      this.running = false;
      this.flushNotes();
    }
  }

  private async turn(input: string, turn: TurnOptions): Promise<TurnOutcome> {
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
    const turnStart = this.messages.length - 1;
    this.turnState = {};
    const maxSteps = this.options.maxSteps ?? 20;
    for (let step = 0; step < maxSteps; step++) {
      if (signal.aborted) return end('cancelled', '');
      this.flushNotes();
      this.keepWithinBudget(turnStart, emit);
      const reply = await this.streamWithRetries(signal, emit);
      if (reply === 'cancelled') return end('cancelled', '');
      if (reply === 'failed') return end('error', '');
      if (!reply.finished) {
        // A reply cut off mid-way is never acted on: its tool calls may be incomplete.
        if (signal.aborted) return end('cancelled', reply.text);
        if (reply.refusal !== undefined) emit({ type: 'refusal', text: reply.refusal });
        emit({ type: 'error', kind: reply.problemKind ?? 'incomplete-reply', message: reply.problem ?? CUT_OFF });
        return end('error', reply.text);
      }
      const toolCalls = withFreshIds(reply.toolCalls, this.messages);
      this.push(assistantMessage(reply, toolCalls));
      if (toolCalls.length === 0 && reply.refusal !== undefined) {
        // A refusal is an answer in the model's words, not a failure: said as what it is.
        emit({ type: 'refusal', text: reply.refusal });
        return end('refusal', reply.refusal);
      }
      if (toolCalls.length === 0) return end('answered', reply.text);
      for (const call of toolCalls) {
        if (signal.aborted) {
          this.push({ role: 'tool', tool_call_id: call.id, content: 'cancelled by the person before it ran' });
          continue;
        }
        if (call.duplicateOf !== undefined) {
          // Two calls under one id in one reply would both run: the repeat is refused.
          const repeated = call.duplicateOf;
          emit({
            type: 'error',
            kind: 'duplicate-call-id',
            message: `the model sent a second tool call with the id ${repeated}; it was not run`,
          });
          this.push({
            role: 'tool',
            tool_call_id: call.id,
            content: `not run: this call repeated the id ${repeated} of another call; send it again with a new id if it is needed`,
          });
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

  /** Old tool results out (never this turn's) when the conversation nears the model's context. */
  private keepWithinBudget(turnStart: number, emit: (event: AgentEvent) => void): void {
    const budget = this.options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
    const trimmed = trimToBudget(this.messages, {
      budget,
      systemPrompt: this.options.systemPrompt,
      keepFrom: turnStart,
      ...(this.measured === undefined ? {} : { measured: this.measured }),
    });
    if (trimmed.results > 0 && this.measured !== undefined)
      this.measured = { ...this.measured, tokens: this.measured.tokens - trimmed.tokensSaved };
    if (trimmed.results > 0)
      emit({ type: 'context-trimmed', results: trimmed.results, tokensSaved: trimmed.tokensSaved, budget });
  }

  private push(message: Message): void {
    this.messages.push(message);
    this.options.transcript?.message(message);
  }

  private getClient(): Promise<OpenAI> {
    const { client } = this.options;
    // Error bodies in every server's shape reach the person in words (error-bodies.ts).
    this.client ??= (typeof client === 'function' ? client() : Promise.resolve(client)).then(readingErrors);
    return this.client;
  }

  /**
   * One model reply; a request that failed before anything arrived is tried again after a wait
   * the person sees (a `retry` event) and can end (the turn's signal), never a silent one.
   */
  private async streamWithRetries(
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<StreamedReply | 'cancelled' | 'failed'> {
    const where = this.options.baseURL;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.stream(signal, emit);
      } catch (error) {
        if (signal.aborted) return 'cancelled';
        const problem = await describeProviderError(error, {
          model: this.currentModel,
          ...(where === undefined ? {} : { baseURL: where }),
        });
        const plan = await planRetry(error, attempt, this.options.retries);
        if (plan.retry) {
          emit({
            type: 'retry',
            attempt: attempt + 1,
            maxRetries: this.options.retries?.maxRetries ?? DEFAULT_MAX_RETRIES,
            waitMs: plan.waitMs,
            reason: problem.brief ?? problem.message,
          });
          try {
            await waitUnlessAborted(plan.waitMs, signal);
          } catch {
            return 'cancelled';
          }
          continue;
        }
        const cap = this.options.retries?.maxWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
        const message =
          plan.tooLongMs === undefined
            ? problem.message
            : tooLongMessage(where ?? 'the model endpoint', plan.tooLongMs, cap);
        emit({ type: 'error', kind: problem.kind, message });
        return 'failed';
      }
    }
  }

  private async stream(signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<StreamedReply> {
    const client = await this.getClient();
    const maxBytes = this.options.replyLimits?.maxBytes ?? DEFAULT_MAX_REPLY_BYTES;
    const maxMs = this.options.replyLimits?.maxMs ?? DEFAULT_MAX_REPLY_MS;
    // The reply's own deadline: a stream that never finishes is cut, not waited on.
    const deadline = new AbortController();
    let cut: 'bytes' | 'time' | undefined;
    const timer = setTimeout(() => {
      cut ??= 'time';
      deadline.abort();
    }, maxMs);
    const reply = new ReplyAssembler();
    const prompt = this.messages.length;
    try {
      // Read to its end: the request is closed when the reply is (or its usage has come).
      const done = new AbortController();
      const stream = await this.createStream(client, AbortSignal.any([signal, deadline.signal, done.signal]));
      const stop = () => done.abort();
      const read = await readReply(stream, reply, emit, { maxBytes, usageAsked: this.askUsage, stop });
      if (read.tooLong) cut = 'bytes';
      // The deadline passed while the usage that follows a finished reply was awaited: it finished.
      if (read.finished && cut === 'time') cut = undefined;
      if (read.usage !== undefined) {
        this.measured = { messages: prompt, tokens: read.usage.promptTokens };
        emit({ type: 'usage', ...read.usage });
      }
    } catch (error) {
      // The connection dropped, or the provider sent an error, mid-stream: what arrived is shown, never acted on.
      const partial = reply.result();
      const nothing = partial.text === '' && partial.toolCalls.length === 0 && partial.reasoning === undefined;
      if (cut === undefined && !signal.aborted && nothing) throw error;
      if (cut === undefined) {
        const said = await streamedError(error, this.options.baseURL);
        return said === undefined ? reply.unfinished(CUT_OFF) : reply.unfinished(said, 'provider-error');
      }
    } finally {
      clearTimeout(timer);
    }
    if (cut === 'bytes')
      return reply.unfinished(
        `the model's reply passed ${maxBytes} bytes without finishing; riskgate stopped reading it and nothing in it was executed`,
        'reply-too-long',
      );
    if (cut === 'time')
      return reply.unfinished(
        `the model's reply did not finish within ${Math.round(maxMs / 1000)} s; riskgate stopped reading it and nothing in it was executed`,
        'reply-too-slow',
      );
    return reply.result();
  }

  /**
   * The request, with the reasoning earlier replies need sent back (assistant-message.ts); an
   * endpoint that refuses those fields by name (Groq behind a router after a switch of model) is
   * asked again without them, until the model is switched again.
   */
  private async createStream(client: OpenAI, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>> {
    if (!this.sendReasoning) return this.openStream(client, signal, withoutReasoning(this.messages));
    try {
      return await this.openStream(client, signal, this.messages);
    } catch (error) {
      if (signal.aborted || !refusedReasoning(error) || !carriesReasoning(this.messages)) throw error;
      const stream = await this.openStream(client, signal, withoutReasoning(this.messages)).catch(() => {
        throw error;
      });
      this.sendReasoning = false;
      return stream;
    }
  }

  /**
   * The streamed request, asking for the provider's usage (`stream_options.include_usage`); an
   * endpoint that refuses the option (400/422) is asked again without it, for the rest of the
   * session, so it still works and token counts fall back to the estimate.
   */
  private async openStream(
    client: OpenAI,
    signal: AbortSignal,
    messages: readonly Message[],
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const request = {
      model: this.currentModel,
      messages: [{ role: 'system' as const, content: this.options.systemPrompt }, ...messages],
      tools: this.options.registry.definitions(),
      stream: true as const,
    };
    if (!this.askUsage) return client.chat.completions.create(request, { signal });
    try {
      return await client.chat.completions.create({ ...request, stream_options: { include_usage: true } }, { signal });
    } catch (error) {
      if (signal.aborted || !refusedStreamOptions(error)) throw error;
      // A 400 for another reason fails again: the person gets the first answer, not the second.
      const stream = await client.chat.completions.create(request, { signal }).catch(() => {
        throw error;
      });
      this.askUsage = false;
      return stream;
    }
  }

  /** One tool call through the gate (the one gated executor every host shares). Returns the text the model receives. */
  private async handleToolCall(
    call: { id: string; name: string; argumentsText: string },
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<string> {
    const outcome = await runGatedToolCall(
      { id: call.id, name: call.name, arguments: call.argumentsText },
      {
        tools: this.options.registry,
        policy: this.policy,
        turn: this.turnState,
        assess: this.options.context,
        confirm: (request, confirmSignal) => this.options.confirmer.confirm(request, confirmSignal),
        signal,
        // An "always allow" rule is in force from the moment it is granted: the screen reads the
        // policy while the call still runs (a SQLite write now runs in its own process).
        onEvent: (event) => {
          if (event.type === 'rule-added') this.grant(event.rule);
          emit(event);
        },
        ...(this.options.audit === undefined ? {} : { audit: this.options.audit }),
        ...(this.options.checkpoints === undefined ? {} : { checkpoints: this.options.checkpoints }),
        ...(this.options.outputGuard === undefined ? {} : { outputGuard: this.options.outputGuard }),
        ...(this.options.transcript === undefined ? {} : { session: this.options.transcript.session.id }),
      },
    );
    if (outcome.turn !== undefined) this.turnState = outcome.turn;
    this.untrustedSeen ??= this.turnState.untrusted;
    if (outcome.ruleAdded !== undefined) this.grant(outcome.ruleAdded.text);
    return outcome.forModel;
  }

  /** Adds an "always allow" rule once. */
  private grant(text: string): void {
    if (this.policy.rules.some((rule) => rule.effect === 'allow' && rule.text === text)) return;
    const parsed = parseRule(text, 'allow');
    if (parsed.ok) this.policy = { ...this.policy, rules: [...this.policy.rules, parsed.rule] };
  }
}

export type { AnyTool };
