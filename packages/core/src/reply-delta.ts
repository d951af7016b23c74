/**
 * One streamed delta as the providers people use send it, read without trusting its shape (the
 * SDK types `content` as a string; servers send more):
 *
 * - `content` a string (OpenAI and most), or an array of parts (Mistral's Magistral:
 *   `[{type:"thinking", thinking:[{type:"text", text}]}, {type:"text", text}]`): text parts are
 *   the answer, thinking parts are reasoning, other parts are ignored.
 * - `reasoning_content` (DeepSeek, Moonshot Kimi, xAI, Qwen), `reasoning` (Groq, OpenRouter,
 *   vLLM), `reasoning_details` (OpenRouter's structured blocks, which some models need back).
 * - `refusal` (OpenAI): the model declined, in words.
 */
export interface ReadDelta {
  readonly text: string;
  readonly reasoning: string;
  /** Which field carried reasoning, even an empty one: the history sends it back under the same name. */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  readonly reasoningDetails: readonly Record<string, unknown>[];
  readonly refusal: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A thinking part's text: a string, or a list of text parts (Magistral). */
function thinkingText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isRecord(part) ? stringOf(part.text) : stringOf(part))).join('');
}

/** Content as text and reasoning: a string is text; an array's parts are sorted by type. */
function readContent(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  if (!Array.isArray(content)) return { text: '', reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (!isRecord(part)) continue;
    else if (part.type === 'text') text += stringOf(part.text);
    else if (part.type === 'thinking' || part.type === 'reasoning')
      reasoning += thinkingText(part.thinking ?? part.reasoning ?? part.text);
  }
  return { text, reasoning };
}

export function readDelta(delta: unknown): ReadDelta {
  if (!isRecord(delta)) return { text: '', reasoning: '', reasoningDetails: [], refusal: '' };
  const content = readContent(delta.content);
  const field =
    typeof delta.reasoning_content === 'string'
      ? 'reasoning_content'
      : typeof delta.reasoning === 'string'
        ? 'reasoning'
        : undefined;
  const details = Array.isArray(delta.reasoning_details) ? delta.reasoning_details.filter(isRecord) : [];
  // OpenRouter sends `reasoning` beside its blocks; blocks alone are read for their text.
  const fromDetails = details.map((block) => stringOf(block.text) || stringOf(block.summary)).join('');
  const reasoning = content.reasoning + (field === undefined ? fromDetails : stringOf(delta[field]));
  return {
    text: content.text,
    reasoning,
    ...(field === undefined ? {} : { reasoningField: field }),
    reasoningDetails: details,
    refusal: stringOf(delta.refusal),
  };
}

/**
 * OpenRouter streams `reasoning_details` in pieces, each with its block's `index`: a block's
 * `text`, `summary` and `data` pieces are joined; its other fields (type, format, id, signature)
 * are kept as they last came.
 */
export function mergeReasoningDetails(
  blocks: Record<string, unknown>[],
  pieces: readonly Record<string, unknown>[],
): void {
  for (const piece of pieces) {
    const index = typeof piece.index === 'number' ? piece.index : blocks.length;
    const block = blocks.find((candidate) => candidate.index === index);
    if (block === undefined) {
      blocks.push({ ...piece, index });
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if ((key === 'text' || key === 'summary' || key === 'data') && typeof value === 'string')
        block[key] = stringOf(block[key]) + value;
      else if (value !== null && value !== undefined) block[key] = value;
    }
  }
}

/**
 * An error a server put inside the stream instead of a chunk: vLLM and others send
 * `{"object":"error","message":…,"type":…,"code":…}` (the SDK throws for an `error` object
 * itself). Its message, or undefined for an ordinary chunk.
 */
export function streamedErrorMessage(chunk: unknown): string | undefined {
  if (!isRecord(chunk)) return undefined;
  if (chunk.object === 'error') {
    const message = stringOf(chunk.message) || JSON.stringify(chunk);
    return typeof chunk.code === 'number' || typeof chunk.code === 'string' ? `${message} (${chunk.code})` : message;
  }
  if (isRecord(chunk.error)) return stringOf(chunk.error.message) || JSON.stringify(chunk.error);
  if (typeof chunk.error === 'string' && chunk.error !== '') return chunk.error;
  return undefined;
}

/** Raised by the reader for an error inside the stream; the agent says its message. */
export class StreamedProviderError extends Error {
  override readonly name = 'StreamedProviderError';
}
