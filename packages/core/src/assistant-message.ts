import { boundedArguments } from './argument-limits.js';
import type { StreamedCall, StreamedReply } from './stream-reply.js';
import type { Message } from './transcript.js';

/**
 * The model's reply as the history keeps it and the next request sends it. What a provider
 * needs back goes back, under its own name, and only where it is needed (docs/decisions/0019):
 *
 * - `reasoning_content` (DeepSeek thinking mode, Moonshot Kimi) on every assistant message that
 *   carried tool calls, an empty one included: without it the next request of the tool loop is
 *   refused (400 "The reasoning_content in the thinking mode must be passed back to the API").
 * - `reasoning` (Groq, vLLM) never: Groq refuses an assistant message that carries it (400
 *   "property 'reasoning' is unsupported"), and no provider asks for it.
 * - `reasoning_details` (OpenRouter) with tool calls, as OpenRouter asks, so models behind it
 *   that sign their reasoning keep it across the tool loop.
 * - a call's `extra_content` (Gemini's thought signature), which Gemini needs with the call.
 * - `refusal` (OpenAI), the field its API defines for it.
 */
export function assistantMessage(reply: StreamedReply, toolCalls: readonly StreamedCall[]): Message {
  const reasoningBack =
    toolCalls.length === 0
      ? {}
      : reply.reasoningField === 'reasoning_content'
        ? { reasoning_content: reply.reasoning ?? '' }
        : reply.reasoningDetails === undefined
          ? {}
          : { reasoning_details: reply.reasoningDetails };
  return {
    role: 'assistant',
    content: reply.text === '' ? null : reply.text,
    ...(reply.refusal === undefined ? {} : { refusal: reply.refusal }),
    ...reasoningBack,
    ...(toolCalls.length === 0
      ? {}
      : {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: boundedArguments(call.argumentsText) },
            ...(call.extraContent === undefined ? {} : { extra_content: call.extraContent }),
          })),
        }),
  } as Message;
}

/** The fields of an assistant message that only send reasoning back. */
const REASONING_FIELDS = ['reasoning_content', 'reasoning_details'] as const;

export function carriesReasoning(messages: readonly Message[]): boolean {
  return messages.some((message) => message.role === 'assistant' && REASONING_FIELDS.some((field) => field in message));
}

/** The conversation without the reasoning sent back (for an endpoint that refuses the fields). */
export function withoutReasoning(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || !REASONING_FIELDS.some((field) => field in message)) return message;
    const {
      reasoning_content: _content,
      reasoning_details: _details,
      ...rest
    } = message as Message & Record<(typeof REASONING_FIELDS)[number], unknown>;
    return rest as Message;
  });
}

/**
 * A 400/422 that names a reasoning field as one the endpoint does not take: Groq's "property
 * 'reasoning_content' is unsupported", a strict schema's "Extra inputs are not permitted" or
 * "Unrecognized … reasoning_content". Another 400 is not this one.
 */
export function refusedReasoning(error: unknown): boolean {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
  if ((status !== 400 && status !== 422) || typeof message !== 'string') return false;
  if (!/reasoning_(content|details)/.test(message)) return false;
  return /unsupported|not supported|unrecognized|unknown|not permitted|not allowed|extra/i.test(message);
}
