import type { Message } from './transcript.js';

/** Tokens assumed when nothing else is known: what today's common models hold, with room to answer. */
export const DEFAULT_CONTEXT_TOKENS = 100_000;

/** The share of the budget the conversation may fill before old results are trimmed (the rest is for the reply). */
const FILL = 0.8;

const TRIMMED_OPENING = '[an earlier tool result of ';

/** What a trimmed result is replaced by: the model is told it existed and how to get it back. */
export const TRIMMED_RESULT = (characters: number) =>
  `${TRIMMED_OPENING}${characters.toLocaleString('en-US')} characters was removed to keep the conversation within the model's context; run the call again if it is needed]`;

// From the opening, not TRIMMED_RESULT(0): toLocaleString at load would start ICU (~25 ms)
// before the TUI's first frame.
export const TRIMMED_PREFIX = TRIMMED_OPENING.slice(0, 25);

/**
 * Characters / 4: the usual estimate for English and code, close enough for a budget — the
 * fallback for what the provider has not counted (trimToBudget's `measured`).
 */
export function estimateTokens(messages: readonly Message[], systemPrompt = ''): number {
  let characters = systemPrompt.length;
  for (const message of messages) characters += JSON.stringify(message).length;
  return Math.ceil(characters / 4);
}

export interface Trimmed {
  /** How many tool results were replaced. */
  readonly results: number;
  readonly tokensSaved: number;
}

/**
 * Keeps a conversation under its budget by replacing old tool results, oldest first, with a
 * short note — never the results of the turn in progress (from `keepFrom` on), never what the
 * person or the model said. Changes `messages` in place (the old results' memory is freed).
 */
export function trimToBudget(
  messages: Message[],
  options: {
    budget: number;
    systemPrompt: string;
    keepFrom: number;
    /**
     * The provider's count (`usage.prompt_tokens`) of the last request, which held the system
     * prompt and the first `messages` messages: only what came after is estimated.
     */
    measured?: { readonly messages: number; readonly tokens: number };
  },
): Trimmed {
  const limit = Math.floor(options.budget * FILL);
  const { measured } = options;
  let tokens =
    measured !== undefined && measured.messages <= messages.length
      ? measured.tokens + estimateTokens(messages.slice(measured.messages))
      : estimateTokens(messages, options.systemPrompt);
  let results = 0;
  let saved = 0;
  for (let index = 0; index < Math.min(options.keepFrom, messages.length) && tokens > limit; index++) {
    const message = messages[index]!;
    if (message.role !== 'tool' || typeof message.content !== 'string') continue;
    const replacement = TRIMMED_RESULT(message.content.length);
    // Already a note (trimmed in an earlier step), or shorter than one: nothing to gain.
    if (message.content.startsWith(TRIMMED_PREFIX) || message.content.length <= replacement.length) continue;
    const before = Math.ceil(JSON.stringify(message).length / 4);
    messages[index] = { ...message, content: replacement };
    const after = Math.ceil(JSON.stringify(messages[index]).length / 4);
    tokens -= before - after;
    saved += before - after;
    results++;
  }
  return { results, tokensSaved: saved };
}
