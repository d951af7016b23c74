import { z } from 'zod';

/** One tool call the scripted model makes. `arguments` may be an object or raw (even broken) JSON text. */
const toolCallStep = z.object({
  name: z.string(),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  id: z.string().optional(),
});

/**
 * What the server answers to one chat-completions request, in order. A reply with tool calls
 * streams them with their arguments split into small chunks, as the real API does.
 */
export const scriptedReply = z.object({
  /** Text the model says (streamed in pieces). */
  text: z.string().optional(),
  toolCalls: z.array(toolCallStep).optional(),
  /** Characters per streamed chunk (default 7). */
  chunkSize: z.number().int().positive().optional(),
  /** Answer with an HTTP error instead: 429 (with retry-after seconds), 500, 401, 404… */
  error: z
    .object({
      status: z.number().int(),
      message: z.string().optional(),
      retryAfter: z.union([z.number(), z.string()]).optional(),
      code: z.string().optional(),
    })
    .optional(),
  /** End the stream early: after this many chunks, close the connection without [DONE]. */
  cutAfterChunks: z.number().int().nonnegative().optional(),
  /** Send the finish chunk but never `data: [DONE]`, and hold the connection open until the client closes it. */
  withoutDone: z.boolean().optional(),
  /** After the scripted text, stream text chunks without end (no finish) until the client closes the connection. */
  endless: z.boolean().optional(),
  /** Wait this long between streamed chunks (a slow model). */
  chunkDelayMs: z.number().int().nonnegative().optional(),
  /**
   * What the provider reports the request cost: sent as OpenAI does, in a last chunk with empty
   * `choices` after the finish, when the request asked for it (`stream_options.include_usage`),
   * and in a non-streamed completion. `cost` is OpenRouter's (credits, as USD).
   */
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      total_tokens: z.number().int().nonnegative().optional(),
      cost: z.number().nonnegative().optional(),
    })
    .optional(),
  /** Answer with this server-sent-events body exactly, as it is (a recorded provider stream). */
  rawStream: z.string().optional(),
  /** Hold the connection this long before answering (for cancellation tests). */
  delayMs: z.number().int().nonnegative().optional(),
});

export type ScriptedReply = z.infer<typeof scriptedReply>;
export type ScriptedToolCall = z.infer<typeof toolCallStep>;

export const modelScript = z.object({
  model: z.string().default('scripted-model'),
  replies: z.array(scriptedReply),
});

export type ModelScript = z.infer<typeof modelScript>;
