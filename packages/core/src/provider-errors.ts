/**
 * The SDK is imported here only when an error is described: by then a request has loaded it,
 * and start-up does not pay for it.
 */

import { StreamedProviderError } from './reply-delta.js';

export type ProviderErrorKind =
  | 'auth'
  | 'permission'
  | 'rate-limit'
  | 'model-not-found'
  | 'unreachable'
  | 'timeout'
  | 'server'
  | 'bad-request'
  | 'cancelled'
  | 'unknown';

export interface ProviderProblem {
  readonly kind: ProviderErrorKind;
  readonly message: string;
  /** A few words for a line that goes on ("… — retrying in 12 s"): without the advice of the message. */
  readonly brief?: string;
}

/** A provider failure in words a person can act on. */
export async function describeProviderError(
  error: unknown,
  context: { model?: string; baseURL?: string } = {},
): Promise<ProviderProblem> {
  const { default: OpenAI } = await import('openai');
  const where = context.baseURL ?? 'the model endpoint';
  if (error instanceof OpenAI.APIUserAbortError)
    return { kind: 'cancelled', message: 'the request to the model was cancelled' };
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return { kind: 'timeout', message: `${where} did not answer in time` };
  if (error instanceof OpenAI.APIConnectionError) {
    return {
      kind: 'unreachable',
      brief: `cannot reach ${where}`,
      message: `cannot reach ${where}: ${(error.cause as Error | undefined)?.message ?? error.message}. Check OPENAI_BASE_URL (or baseURL in the config) and that the server is running.`,
    };
  }
  if (error instanceof OpenAI.AuthenticationError) {
    return {
      kind: 'auth',
      message: `${where} rejected the API key (401). Set a valid key in OPENAI_API_KEY or apiKey in the config.`,
    };
  }
  if (error instanceof OpenAI.PermissionDeniedError)
    return { kind: 'permission', message: `${where} refused access (403): ${error.message}` };
  if (error instanceof OpenAI.RateLimitError) {
    const wait = error.headers?.get('retry-after');
    const seconds = wait === null || wait === undefined ? undefined : Number(wait);
    return {
      kind: 'rate-limit',
      brief: `${where} is rate-limiting requests (429)`,
      message:
        `${where} is rate-limiting requests (429)${seconds !== undefined && Number.isFinite(seconds) ? `; try again in ${seconds} s` : ''}. ${error.message}`.trim(),
    };
  }
  if (error instanceof OpenAI.NotFoundError) {
    return {
      kind: 'model-not-found',
      message: `${where} does not know the model ${context.model === undefined ? '' : `"${context.model}" `}(404). Set RISKGATE_MODEL or model in the config to one it serves.`,
    };
  }
  if (error instanceof OpenAI.BadRequestError)
    return { kind: 'bad-request', message: `${where} rejected the request (400): ${error.message}` };
  if (error instanceof OpenAI.InternalServerError)
    return {
      kind: 'server',
      brief: `${where} failed (${error.status})`,
      message: `${where} failed (${error.status}): ${error.message}`,
    };
  // An error the provider sent inside the stream (the SDK's, for an `error` object; ours, for vLLM's shape).
  const streamed = await streamedError(error, context.baseURL);
  if (streamed !== undefined) return { kind: 'server', brief: `${where} reported an error`, message: streamed };
  if (error instanceof OpenAI.APIError)
    return {
      kind: 'unknown',
      brief: `${where} answered ${error.status ?? 'with an error'}`,
      message: `${where} answered ${error.status ?? 'with an error'}: ${error.message}`,
    };
  // A stream the SDK could not parse: the endpoint's fault, said as such (not a bare parser message).
  if (error instanceof SyntaxError) {
    return {
      kind: 'server',
      brief: `${where} sent a reply riskgate could not read`,
      message: `${where} sent a reply riskgate could not read (${error.message}); nothing in it was executed`,
    };
  }
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

/**
 * The words for an error the provider put inside its stream: an `error` object in a chunk (the
 * SDK throws it as an APIError without a status) or vLLM's `{"object":"error",…}` chunk.
 * Undefined for any other failure (a dropped connection is said as a cut-off reply).
 */
export async function streamedError(error: unknown, baseURL?: string): Promise<string | undefined> {
  const where = baseURL ?? 'the model endpoint';
  const said = (message: string) =>
    `${where} reported an error in the middle of the model's reply: ${message}; nothing in it was executed`;
  if (error instanceof StreamedProviderError) return said(error.message);
  const { default: OpenAI } = await import('openai');
  if (
    error instanceof OpenAI.APIError &&
    !(error instanceof OpenAI.APIUserAbortError) &&
    error.status === undefined &&
    !(error instanceof OpenAI.APIConnectionError)
  )
    return said(error.message);
  return undefined;
}
