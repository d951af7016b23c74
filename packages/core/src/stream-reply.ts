import { mergeReasoningDetails, type ReadDelta } from './reply-delta.js';

/** One tool call as the stream delivered it. */
export interface StreamedCall {
  readonly id: string;
  readonly name: string;
  readonly argumentsText: string;
  /** Set when the reply already had a call with this id: it is refused, never run. */
  readonly duplicateOf?: string;
  /** What the provider attached to the call and needs back with it (Gemini's `extra_content` thought signature). */
  readonly extraContent?: unknown;
}

export interface StreamedReply {
  readonly text: string;
  readonly toolCalls: readonly StreamedCall[];
  /** What the model thought before it answered, when the provider streams it (never part of `text`). */
  readonly reasoning?: string;
  /** The field the provider used for it; the history sends it back under this name where needed. */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  /** OpenRouter's structured reasoning blocks, merged. */
  readonly reasoningDetails?: readonly Record<string, unknown>[];
  /** The model declined to answer, in its words (OpenAI's `refusal`). */
  readonly refusal?: string;
  /** True only for a complete reply: `stop` or `tool_calls` (and the legacy `function_call`). */
  readonly finished: boolean;
  /** Why an unfinished reply is not acted on, in words for the person. */
  readonly problem?: string;
  /** The error kind for an unfinished reply when it is not the usual `incomplete-reply`. */
  readonly problemKind?: string;
}

/** The finish reasons of a reply that is complete; anything else is never acted on. */
const COMPLETE = new Set(['stop', 'tool_calls', 'function_call']);

export const CUT_OFF = "the model's reply was cut off before it finished; nothing in it was executed";

interface Fragment {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
  readonly extra_content?: unknown;
}

interface Slot {
  id: string;
  name: string;
  argumentsText: string;
  extraContent?: unknown;
}

/**
 * Joins a streamed chat completion the way the servers people use send it: OpenAI sends a
 * call's id and name once and its arguments in pieces; some OpenAI-compatible servers repeat
 * the id and the whole name in every delta, or send a whole call in one delta. A name equal to
 * the one already received is a repeat, not a second half. Gemini's OpenAI endpoint sends each
 * parallel call whole, without an `index` or all under index 0, each with its own id: a new id
 * is a new call, never a second half of the one before.
 */
export class ReplyAssembler {
  private text = '';
  private reasoning = '';
  private reasoningField: 'reasoning_content' | 'reasoning' | undefined;
  private readonly reasoningDetails: Record<string, unknown>[] = [];
  private refusal = '';
  private finishReason: string | null = null;
  private readonly calls: Slot[] = [];
  /** The call each stream `index` last named. */
  private readonly byIndex = new Map<number, Slot>();
  private last: Slot | undefined;

  addText(content: string): void {
    this.text += content;
  }

  /** Everything but the tool calls of one delta (readDelta). */
  addDelta(delta: ReadDelta): void {
    this.text += delta.text;
    this.reasoning += delta.reasoning;
    this.reasoningField ??= delta.reasoningField;
    mergeReasoningDetails(this.reasoningDetails, delta.reasoningDetails);
    this.refusal += delta.refusal;
  }

  addToolCall(fragment: Fragment): void {
    const call = this.slotFor(fragment);
    if (fragment.id) call.id = fragment.id;
    const name = fragment.function?.name;
    if (name && name !== call.name) call.name += name;
    if (fragment.function?.arguments) call.argumentsText += fragment.function.arguments;
    if (fragment.extra_content !== undefined && fragment.extra_content !== null)
      call.extraContent = fragment.extra_content;
    this.last = call;
  }

  /**
   * The call a fragment belongs to. A new call is one that names itself: a fragment with a name
   * and an id other than the call it would join. So Gemini's whole calls under one index (or
   * none) stay apart, while a server that sends a fresh id with every piece of one call still
   * joins its pieces. With an index: the call of that index otherwise. Without one: the call of
   * the same id, else the last call (its arguments go on).
   */
  private slotFor(fragment: Fragment): Slot {
    const id = fragment.id || undefined;
    const announces = (call: Slot) =>
      id !== undefined && Boolean(fragment.function?.name) && call.id !== '' && call.id !== id;
    if (typeof fragment.index === 'number') {
      const known = this.byIndex.get(fragment.index);
      if (known !== undefined && !announces(known)) return known;
      const fresh = this.newSlot();
      this.byIndex.set(fragment.index, fresh);
      return fresh;
    }
    const same = id === undefined ? undefined : this.calls.findLast((call) => call.id === id);
    if (same !== undefined) return same;
    if (this.last === undefined || announces(this.last)) return this.newSlot();
    return this.last;
  }

  private newSlot(): Slot {
    const slot: Slot = { id: '', name: '', argumentsText: '' };
    this.calls.push(slot);
    return slot;
  }

  finish(reason: string | null | undefined): void {
    if (reason) this.finishReason = reason;
  }

  /** What arrived, as a reply that is not acted on: its text and reasoning are kept for the screen. */
  unfinished(problem: string, problemKind?: string): StreamedReply {
    const { toolCalls: _calls, finished: _finished, problem: _problem, ...kept } = this.result();
    return { ...kept, toolCalls: [], finished: false, problem, ...(problemKind === undefined ? {} : { problemKind }) };
  }

  result(): StreamedReply {
    const seen = new Set<string>();
    const toolCalls = this.calls.map((call, index): StreamedCall => {
      const { extraContent, ...rest } = call;
      const extra = extraContent === undefined ? {} : { extraContent };
      const id = call.id || `call_${Date.now()}_${index}`;
      if (!seen.has(id)) {
        seen.add(id);
        return { ...rest, id, ...extra };
      }
      // The history needs unique ids: the repeat gets its own, and is refused.
      let unique = `${id}_repeat_${index}`;
      while (seen.has(unique)) unique += '_';
      seen.add(unique);
      return { ...rest, id: unique, duplicateOf: id, ...extra };
    });
    const finished = this.finishReason !== null && COMPLETE.has(this.finishReason);
    const problem =
      this.finishReason === null
        ? CUT_OFF
        : this.finishReason === 'length'
          ? "the model's reply hit its length limit before it finished (finish_reason: length); nothing in it was executed"
          : this.finishReason === 'content_filter'
            ? "the provider's content filter stopped the model's reply (finish_reason: content_filter); nothing in it was executed"
            : `the model's reply ended with finish_reason "${this.finishReason}"; nothing in it was executed`;
    return {
      text: this.text,
      toolCalls,
      ...(this.reasoning === '' && this.reasoningField === undefined ? {} : { reasoning: this.reasoning }),
      ...(this.reasoningField === undefined ? {} : { reasoningField: this.reasoningField }),
      ...(this.reasoningDetails.length === 0 ? {} : { reasoningDetails: this.reasoningDetails }),
      ...(this.refusal === '' ? {} : { refusal: this.refusal }),
      finished,
      ...(finished ? {} : { problem }),
    };
  }
}

/**
 * Some servers number calls afresh in every reply ("call_0" each time): an id the history
 * already holds is renamed, so every tool message answers exactly one call.
 */
export function withFreshIds(
  calls: readonly StreamedCall[],
  history: readonly { role: string; tool_call_id?: string }[],
): StreamedCall[] {
  const used = new Set(
    history.flatMap((message) =>
      message.role === 'tool' && message.tool_call_id !== undefined ? [message.tool_call_id] : [],
    ),
  );
  for (const call of calls) if (!used.has(call.id)) used.add(call.id);
  const taken = new Set(
    history.flatMap((message) =>
      message.role === 'tool' && message.tool_call_id !== undefined ? [message.tool_call_id] : [],
    ),
  );
  return calls.map((call) => {
    if (!taken.has(call.id)) return call;
    let fresh = `${call.id}_${used.size}`;
    while (used.has(fresh)) fresh += '_';
    used.add(fresh);
    return { ...call, id: fresh };
  });
}
