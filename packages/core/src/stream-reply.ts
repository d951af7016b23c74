/** One tool call as the stream delivered it. */
export interface StreamedCall {
  readonly id: string;
  readonly name: string;
  readonly argumentsText: string;
  /** Set when the reply already had a call with this id: it is refused, never run. */
  readonly duplicateOf?: string;
}

export interface StreamedReply {
  readonly text: string;
  readonly toolCalls: readonly StreamedCall[];
  /** True only for a complete reply: `stop` or `tool_calls` (and the legacy `function_call`). */
  readonly finished: boolean;
  /** Why an unfinished reply is not acted on, in words for the person. */
  readonly problem?: string;
  /** The error kind for an unfinished reply when it is not the usual `incomplete-reply`. */
  readonly problemKind?: string;
}

/** The finish reasons of a reply that is complete; anything else is never acted on. */
const COMPLETE = new Set(['stop', 'tool_calls', 'function_call']);

interface Fragment {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

/**
 * Joins a streamed chat completion the way the servers people use send it: OpenAI sends a
 * call's id and name once and its arguments in pieces; some OpenAI-compatible servers repeat
 * the id and the whole name in every delta, or send a whole call in one delta. A name equal to
 * the one already received is a repeat, not a second half.
 */
export class ReplyAssembler {
  private text = '';
  private finishReason: string | null = null;
  private readonly calls: { id: string; name: string; argumentsText: string }[] = [];

  addText(content: string): void {
    this.text += content;
  }

  addToolCall(fragment: Fragment, position: number): void {
    const index = fragment.index ?? position;
    this.calls[index] ??= { id: '', name: '', argumentsText: '' };
    const call = this.calls[index]!;
    if (fragment.id) call.id = fragment.id;
    const name = fragment.function?.name;
    if (name && name !== call.name) call.name += name;
    if (fragment.function?.arguments) call.argumentsText += fragment.function.arguments;
  }

  finish(reason: string | null | undefined): void {
    if (reason) this.finishReason = reason;
  }

  result(): StreamedReply {
    const seen = new Set<string>();
    const toolCalls = this.calls
      .filter((call) => call !== undefined)
      .map((call, index): StreamedCall => {
        const id = call.id || `call_${Date.now()}_${index}`;
        if (!seen.has(id)) {
          seen.add(id);
          return { ...call, id };
        }
        // The history needs unique ids: the repeat gets its own, and is refused.
        let unique = `${id}_repeat_${index}`;
        while (seen.has(unique)) unique += '_';
        seen.add(unique);
        return { ...call, id: unique, duplicateOf: id };
      });
    const finished = this.finishReason !== null && COMPLETE.has(this.finishReason);
    const problem =
      this.finishReason === null
        ? "the model's reply was cut off before it finished; nothing in it was executed"
        : this.finishReason === 'length'
          ? "the model's reply hit its length limit before it finished (finish_reason: length); nothing in it was executed"
          : this.finishReason === 'content_filter'
            ? "the provider's content filter stopped the model's reply (finish_reason: content_filter); nothing in it was executed"
            : `the model's reply ended with finish_reason "${this.finishReason}"; nothing in it was executed`;
    return { text: this.text, toolCalls, finished, ...(finished ? {} : { problem }) };
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
