import { lookup } from 'node:dns/promises';

/** Resolves a host name to every address it has (tests inject their own). */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface BoundedResolverOptions {
  /** A lookup that takes longer fails with EAI_AGAIN; it keeps running and fills the cache. Default 1,500 ms. */
  readonly timeoutMs?: number;
  /** How long an answer is reused. Default 30 s. */
  readonly ttlMs?: number;
  /** How long a failure is reused. Default 5 s. */
  readonly negativeTtlMs?: number;
  readonly now?: () => number;
}

/**
 * A resolver that never stalls the gate: a slow lookup fails after `timeoutMs` (the judge then
 * says the name was not resolved, which is never whitelisted), and answers are cached for a
 * short time so the assessment, the hop check and the connection agree without three lookups.
 * The connection still checks the address it connects to.
 */
export function boundedResolver(resolve: Resolver, options: BoundedResolverOptions = {}): Resolver {
  const timeoutMs = options.timeoutMs ?? 1_500;
  const ttlMs = options.ttlMs ?? 30_000;
  const negativeTtlMs = options.negativeTtlMs ?? 5_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { readonly expires: number; readonly answer: Promise<readonly string[]> }>();
  return (hostname) => {
    const key = hostname.toLowerCase();
    const cached = cache.get(key);
    if (cached !== undefined && cached.expires > now()) return withTimeout(cached.answer, timeoutMs, hostname);
    const answer = resolve(hostname);
    const entry = { expires: now() + ttlMs, answer };
    cache.set(key, entry);
    answer.then(
      () => undefined,
      () => {
        if (cache.get(key) === entry) cache.set(key, { expires: now() + negativeTtlMs, answer });
      },
    );
    if (cache.size > 1_000) cache.delete(cache.keys().next().value!);
    return withTimeout(answer, timeoutMs, hostname);
  };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, hostname: string): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`resolving ${hostname} took longer than ${timeoutMs} ms`), { code: 'EAI_AGAIN' }),
        ),
      timeoutMs,
    );
    timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolvePromise(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
