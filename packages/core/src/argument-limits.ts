/**
 * The largest tool-call arguments riskgate takes, in characters. A model's longest reply
 * (~128k tokens) fits; anything larger is refused before it is parsed, and only a bounded
 * stand-in (what it was, its size, its first characters) is shown, audited, kept in the
 * transcript and sent back to the model — a 10 MB argument never travels on.
 */
export const MAX_ARGUMENTS_CHARS = 500_000;

/** Characters of oversized arguments kept in their stand-in: enough to recognise the call. */
const KEPT_HEAD = 200;

/** True when arguments are over the cap. */
export function argumentsTooLarge(text: string): boolean {
  return text.length > MAX_ARGUMENTS_CHARS;
}

/**
 * The arguments as riskgate keeps them: unchanged under the cap; over it, a JSON stand-in
 * that says how much was cut (still valid JSON, so every reader of arguments reads it).
 */
export function boundedArguments(text: string): string {
  if (!argumentsTooLarge(text)) return text;
  return JSON.stringify({
    omitted: `arguments of ${text.length.toLocaleString('en-US')} characters, over riskgate's limit of ${MAX_ARGUMENTS_CHARS.toLocaleString('en-US')}: not kept (${(text.length - KEPT_HEAD).toLocaleString('en-US')} characters cut)`,
    head: text.slice(0, KEPT_HEAD),
  });
}

/** What the model is told when its arguments are over the cap. */
export function argumentsTooLargeText(text: string): string {
  return `error: the arguments are ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_ARGUMENTS_CHARS.toLocaleString('en-US')}. Nothing was run. Send smaller calls (split the work, or write a large file in parts).`;
}
