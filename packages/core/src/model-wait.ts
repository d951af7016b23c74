import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits between requests to the model, and the bounds of one streamed reply. The SDK's own
 * retries are switched off (maxRetries 0 where the client is made): its sleep honours
 * `Retry-After` of any length and cannot be stopped, so a 429 asking for an hour was an hour of
 * silence that ignored Esc and signals. Here every wait is announced as an event, sleeps on the
 * turn's AbortSignal, and a server asking for longer than the cap ends the turn with the time
 * to try again.
 */

/** Retries of a failed request when nothing of the reply arrived yet (config `maxRetries`). */
export const DEFAULT_MAX_RETRIES = 2;
/** The longest wait riskgate sits through; a longer Retry-After fails at once with its time. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
/** Bytes of one streamed reply (text and tool-call arguments): a stream that never ends is cut here. */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Time of one streamed reply from the request to its finish. */
export const DEFAULT_MAX_REPLY_MS = 10 * 60_000;

export interface RetryLimits {
  readonly maxRetries?: number;
  readonly maxWaitMs?: number;
}

export interface ReplyLimits {
  readonly maxBytes?: number;
  readonly maxMs?: number;
}

export type RetryPlan =
  | { readonly retry: true; readonly waitMs: number }
  | { readonly retry: false; readonly tooLongMs?: number };

interface ErrorLike {
  readonly headers?: { get(name: string): string | null } | undefined;
}

/** What the server asked for: `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function serverWaitMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as ErrorLike | undefined)?.headers;
  if (headers === undefined || typeof headers?.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether a failed request is worth another try, as the SDK judges it: 408, 409, 429, 5xx, no connection. */
async function retryable(error: unknown): Promise<boolean> {
  // Loaded only once a request failed: by then a request has loaded the SDK.
  const { default: OpenAI } = await import('openai');
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true;
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return false;
  const { status } = error;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Attempt 0 is the first retry. Without a Retry-After: 1 s, 2 s, 4 s… up to 8 s. */
export async function planRetry(error: unknown, attempt: number, limits: RetryLimits = {}): Promise<RetryPlan> {
  const maxRetries = limits.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (attempt >= maxRetries || !(await retryable(error))) return { retry: false };
  const asked = serverWaitMs(error);
  const cap = limits.maxWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  if (asked !== undefined && asked > cap) return { retry: false, tooLongMs: asked };
  return { retry: true, waitMs: asked ?? Math.min(8000, 1000 * 2 ** attempt) };
}

/** A wait that ends early, rejecting, when the signal aborts. */
export async function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal });
}

/** The person's words for a wait the server asked for that is longer than riskgate sits through. */
export function tooLongMessage(where: string, waitMs: number, capMs: number, now = Date.now()): string {
  const at = new Date(now + waitMs).toISOString().replace(/\.\d+Z$/, 'Z');
  return `${where} is rate-limiting requests and asks to wait ${Math.round(waitMs / 1000)} s; riskgate waits at most ${Math.round(capMs / 1000)} s, so it stopped. Try again after ${at}.`;
}
