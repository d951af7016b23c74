import type OpenAI from 'openai';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An error body in the shape the SDK reads (`{"error":{"message",…}}`), for the shapes servers
 * send instead, or undefined when the SDK reads it already (or it is not JSON: the SDK keeps
 * text as the message). Without this the SDK says "400 status code (no body)":
 *
 * - vLLM, SGLang and others: `{"object":"error","message":…,"type":…,"code":400}`;
 * - a plain string: `{"error":"model not found"}` (Ollama, LM Studio);
 * - FastAPI-based servers: `{"detail":"…"}` or `{"detail":[{"msg":…},…]}`;
 * - Gemini's: a list holding one `{"error":{…}}`.
 */
export function readableErrorBody(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(body) && body.length > 0 && isRecord(body[0]) && isRecord(body[0].error))
    return JSON.stringify({ error: body[0].error });
  if (!isRecord(body) || isRecord(body.error)) return undefined;
  const wrap = (message: string) =>
    JSON.stringify({
      error: {
        message,
        ...(typeof body.type === 'string' ? { type: body.type } : {}),
        ...(typeof body.code === 'string' || typeof body.code === 'number' ? { code: body.code } : {}),
        ...(typeof body.param === 'string' ? { param: body.param } : {}),
      },
    });
  if (typeof body.error === 'string' && body.error !== '') return wrap(body.error);
  if (typeof body.message === 'string' && body.message !== '') return wrap(body.message);
  if (typeof body.detail === 'string' && body.detail !== '') return wrap(body.detail);
  if (Array.isArray(body.detail)) {
    const messages = body.detail.map((item) => (isRecord(item) && typeof item.msg === 'string' ? item.msg : ''));
    const joined = messages.filter((message) => message !== '').join('; ');
    if (joined !== '') return wrap(joined);
  }
  return undefined;
}

/** A fetch whose error responses (4xx, 5xx) carry their message in the shape the SDK reads. */
export function withReadableErrors(fetch: Fetch): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status < 400) return response;
    const text = await response.text().catch(() => '');
    const body = readableErrorBody(text);
    const headers = new Headers(response.headers);
    // The body is read and may be rewritten: its old length and encoding no longer apply.
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (body !== undefined) headers.set('content-type', 'application/json');
    return new Response(body ?? text, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * The host's client, with error bodies every server's way made readable (`withOptions` makes a
 * copy with the same settings). Only a plain `OpenAI` client is copied: a subclass (AzureOpenAI,
 * whose constructor wants what the copy does not pass on) or a test double is used as given.
 */
export async function readingErrors(client: OpenAI): Promise<OpenAI> {
  // Loaded with the client the host made: no cost at start-up.
  const { default: PlainOpenAI } = await import('openai');
  if (Object.getPrototypeOf(client) !== PlainOpenAI.prototype) return client;
  const own = (client as unknown as { fetch?: Fetch }).fetch;
  const fetch: Fetch = typeof own === 'function' ? own : (input, init) => globalThis.fetch(input, init);
  try {
    return client.withOptions({ fetch: withReadableErrors(fetch) });
  } catch {
    return client;
  }
}
