/**
 * What the provider says one request used: its `usage` (OpenAI's field names; OpenRouter adds
 * `cost`, in its credits, which are US dollars). Read from the last chunk of a stream when the
 * request asked for it (`stream_options: { include_usage: true }`).
 */
export interface ProviderUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** The provider's own price of the request, when it reports one; never computed here. */
  readonly cost?: number;
}

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The provider's usage object, or undefined when it is absent or not the shape the API documents. */
export function readUsage(value: unknown): ProviderUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  const promptTokens = count(usage.prompt_tokens);
  const completionTokens = count(usage.completion_tokens);
  if (promptTokens === undefined || completionTokens === undefined) return undefined;
  const cost = count(usage.cost);
  return {
    promptTokens,
    completionTokens,
    totalTokens: count(usage.total_tokens) ?? promptTokens + completionTokens,
    ...(cost === undefined ? {} : { cost }),
  };
}

/** A turn's requests added up: tokens always; cost only when every request reported one. */
export function addUsage(sum: ProviderUsage | undefined, next: ProviderUsage): ProviderUsage {
  if (sum === undefined) return next;
  const cost = sum.cost !== undefined && next.cost !== undefined ? sum.cost + next.cost : undefined;
  return {
    promptTokens: sum.promptTokens + next.promptTokens,
    completionTokens: sum.completionTokens + next.completionTokens,
    totalTokens: sum.totalTokens + next.totalTokens,
    ...(cost === undefined ? {} : { cost }),
  };
}

/**
 * A request the endpoint refused because of `stream_options` (servers that do not know it answer
 * 400 or 422): asked again without it, and not asked for usage again in this session.
 */
export function refusedStreamOptions(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 400 || status === 422;
}
