import type OpenAI from 'openai';
import type { AgentEvent } from './events.js';
import { readDelta, StreamedProviderError, streamedErrorMessage } from './reply-delta.js';
import type { ReplyAssembler } from './stream-reply.js';
import { type ProviderUsage, readUsage } from './usage.js';

export type ChatCompletionChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** After the finish, how long a usage chunk is waited for (OpenAI sends it right after; a server may never). */
const USAGE_GRACE_MS = 1_000;

/**
 * Reads a streamed reply into `reply`, emitting text as it arrives. The finish is the reply's
 * end (a server that never sends `[DONE]` after it is not waited on), except that a usage chunk
 * that was asked for is waited on for a moment: OpenAI sends it after the finish.
 */
export async function readReply(
  stream: AsyncIterable<ChatCompletionChunk>,
  reply: ReplyAssembler,
  emit: (event: AgentEvent) => void,
  options: {
    readonly maxBytes: number;
    readonly usageAsked: boolean;
    /** Ends the request (a generator's return() would wait behind a read still pending). */
    readonly stop: () => void;
  },
): Promise<{ tooLong: boolean; finished: boolean; usage?: ProviderUsage }> {
  const chunks = stream[Symbol.asyncIterator]();
  let bytes = 0;
  let usage: ProviderUsage | undefined;
  let finished = false;
  try {
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
      const chunk = next.value;
      usage = readUsage(chunk.usage) ?? usage;
      // vLLM and others put an error in the stream as a chunk of its own: said, never skipped.
      const streamed = streamedErrorMessage(chunk);
      if (streamed !== undefined) throw new StreamedProviderError(streamed);
      // A chunk without `choices` (some servers send bare metadata this way) carries nothing to act on.
      const choice = chunk.choices?.[0];
      if (choice === undefined) continue;
      const delta = readDelta(choice.delta);
      // Every chunk counts a little, so an endless run of empty deltas is cut too.
      bytes += 16 + delta.text.length + delta.reasoning.length + delta.refusal.length;
      reply.addDelta(delta);
      if (delta.reasoning !== '') emit({ type: 'reasoning-delta', text: delta.reasoning });
      if (delta.text !== '') emit({ type: 'text-delta', text: delta.text });
      for (const fragment of choice.delta?.tool_calls ?? []) {
        bytes += (fragment.function?.arguments?.length ?? 0) + (fragment.function?.name?.length ?? 0);
        reply.addToolCall(fragment);
      }
      reply.finish(choice.finish_reason);
      if (choice.finish_reason) {
        finished = true;
        if (usage === undefined && options.usageAsked) usage = await usageAfterFinish(chunks);
        break;
      }
      if (bytes > options.maxBytes) return { tooLong: true, finished, ...(usage === undefined ? {} : { usage }) };
    }
  } finally {
    options.stop();
  }
  return { tooLong: false, finished, ...(usage === undefined ? {} : { usage }) };
}

/** The usage chunk that follows the finish, if it comes within the grace period. */
async function usageAfterFinish(chunks: AsyncIterator<ChatCompletionChunk>): Promise<ProviderUsage | undefined> {
  const next = chunks.next();
  // Left pending when the grace period ends: its rejection (the stream closed) is expected.
  next.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), USAGE_GRACE_MS);
  });
  try {
    const result = await Promise.race([next, late]);
    return result === undefined || result.done === true ? undefined : readUsage(result.value.usage);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
