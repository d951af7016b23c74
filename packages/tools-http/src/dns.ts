import { lookup, Resolver as CaresResolver } from 'node:dns/promises';
import { type BigIntStats, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';

/** Resolves a host name to every address it has (tests inject their own). `signal` cancels the lookup. */
export type Resolver = (hostname: string, options?: { readonly signal?: AbortSignal }) => Promise<readonly string[]>;

export interface SystemResolverOptions {
  /** DNS servers (`host:port`); the system's (/etc/resolv.conf) by default. */
  readonly servers?: readonly string[];
  /** Milliseconds c-ares waits for one answer. Default 700. */
  readonly timeoutMs?: number;
  /** Attempts per server. Default 2. */
  readonly tries?: number;
  /** The hosts file honoured before DNS. Default /etc/hosts. */
  readonly hostsFile?: string;
}

/**
 * Names resolved the way the system would, with a lookup that can really be given up:
 *
 * - `getaddrinfo` (Node's `dns.lookup`) runs on the libuv thread pool and cannot be cancelled:
 *   a lookup the gate abandoned at its timeout kept one of the pool's four threads for glibc's
 *   5 s, and file reads queued behind it. c-ares (`dns.Resolver`) runs on the event loop with its
 *   own `timeout` and `tries`, and `cancel()` ends its queries at once (on `signal`).
 * - c-ares does not read /etc/hosts for `resolve4`/`resolve6`, so the hosts file is read here
 *   first, as glibc's `hosts: files dns` does: a name it lists gets exactly its addresses there
 *   (every line that names it), and DNS is not asked. `localhost` and `*.localhost` are loopback
 *   (RFC 6761) when the file does not say otherwise; an IP literal is itself.
 * - Both families, as `lookup({ all: true })` gave: A and AAAA are asked together and every
 *   address of both is returned, so the judge checks each one. A family the name has no record
 *   of (ENODATA, ENOTFOUND) adds nothing; any other failure of either (a timeout, a refused
 *   query, a cancel) fails the lookup — an address not learnt might be the private one.
 * - A name without a dot goes to `getaddrinfo` (bounded by the caller's timeout, not
 *   cancellable): c-ares's queries do not apply resolv.conf's `search` domains, which intranet
 *   names rely on.
 */
export function createSystemResolver(options: SystemResolverOptions = {}): Resolver {
  const hostsFile = options.hostsFile ?? '/etc/hosts';
  return async (hostname, { signal } = {}) => {
    signal?.throwIfAborted();
    // getaddrinfo ignores one trailing dot; the hosts file never has one.
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const literal = name.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal) !== 0) return [literal];
    const listed = hostsEntries(hostsFile).get(name);
    if (listed !== undefined) return listed;
    if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
    if (!name.includes('.'))
      return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
    const resolver = new CaresResolver({ timeout: options.timeoutMs ?? 700, tries: options.tries ?? 2 });
    if (options.servers !== undefined) resolver.setServers([...options.servers]);
    const cancel = () => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const answers = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      signal?.throwIfAborted();
      const addresses: string[] = [];
      let missing: unknown;
      for (const answer of answers) {
        if (answer.status === 'fulfilled') addresses.push(...answer.value);
        else if (!NO_RECORD.has((answer.reason as { code?: string }).code ?? '')) throw answer.reason;
        else missing = answer.reason;
      }
      if (addresses.length === 0) throw missing;
      return addresses;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  };
}

/** c-ares's answers for a name that exists without that family, or does not exist. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

let hostsCache: { readonly file: string; readonly key: string; readonly entries: Map<string, string[]> } | undefined;

/** The hosts file's names and their addresses, read again when the file changes. */
function hostsEntries(file: string): Map<string, string[]> {
  let stats: BigIntStats | undefined;
  try {
    stats = statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  const key = stats === undefined ? 'absent' : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  if (hostsCache?.file === file && hostsCache.key === key) return hostsCache.entries;
  const entries = new Map<string, string[]>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No hosts file: every name goes to DNS.
  }
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    // `fe80::1%eth0`: the zone is not part of the address the judge classifies.
    const plain = address?.replace(/%.*$/, '') ?? '';
    if (isIP(plain) === 0) continue;
    for (const alias of names) {
      const known = entries.get(alias.toLowerCase()) ?? [];
      if (!known.includes(plain)) known.push(plain);
      entries.set(alias.toLowerCase(), known);
    }
  }
  hostsCache = { file, key, entries };
  return entries;
}

export const systemResolver: Resolver = createSystemResolver();

export interface BoundedResolverOptions {
  /** A lookup that takes longer fails with EAI_AGAIN and is cancelled (its failure cached for `negativeTtlMs`). Default 1,500 ms. */
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
    const controller = new AbortController();
    const answer = resolve(hostname, { signal: controller.signal });
    const entry = { expires: now() + ttlMs, answer };
    cache.set(key, entry);
    answer.then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        if (cache.get(key) === entry) cache.set(key, { expires: now() + negativeTtlMs, answer });
      },
    );
    if (cache.size > 1_000) cache.delete(cache.keys().next().value!);
    const waited = withTimeout(answer, timeoutMs, hostname);
    // The lookup itself ends at the timeout (after the waiter's timer, set first, has fired):
    // nothing outlives the gate's patience, and its failure is cached as any other.
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    timer.unref?.();
    return waited;
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
