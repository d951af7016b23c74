import type OpenAI from 'openai';
import { describeProviderError } from './provider-errors.js';

/** How long /model waits for the endpoint's list: a slow or silent server does not hold the prompt. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;

export type ModelList = { readonly models: readonly string[] } | { readonly error: string };

/**
 * The models the endpoint offers (`GET /models` through the SDK's `models.list()`), sorted, or
 * what went wrong in words: an endpoint without the route (404), one that cannot be reached, one
 * that does not answer within the wait. Never retried: the person asked once and is waiting.
 */
export async function listModels(
  client: OpenAI,
  options: { readonly timeoutMs?: number; readonly baseURL?: string; readonly signal?: AbortSignal } = {},
): Promise<ModelList> {
  const timeoutMs = options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS;
  const where = options.baseURL ?? 'the model endpoint';
  try {
    const page = await client.models.list({
      timeout: timeoutMs,
      maxRetries: 0,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const ids = page.data.map((model) => model.id).filter((id): id is string => typeof id === 'string');
    return { models: [...new Set(ids)].sort((a, b) => a.localeCompare(b)) };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 404 || status === 405)
      return { error: `${where} does not list its models (no /models route); /model <name> switches by name` };
    const problem = await describeProviderError(error, { baseURL: where });
    if (problem.kind === 'timeout')
      return { error: `${where} did not list its models within ${timeoutMs / 1000} s; /model <name> switches by name` };
    return { error: `could not list the models: ${problem.message}` };
  }
}
