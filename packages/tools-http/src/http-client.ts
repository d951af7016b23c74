import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIPv6 } from 'node:net';
import {
  type AddressClass,
  addressAllowed,
  classifyAddress,
  classifyHostName,
  describeAddressClass,
  looksBinary,
  type NetworkPolicy,
} from '@riskgate/risk';
import got, { type Method, RequestError } from 'got';
import type { Resolver } from './dns.js';
import { effectivePort, judgeHost, SAFE_METHODS } from './http-assessor.js';

export interface HttpCallOptions {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly resolve: Resolver;
  /**
   * What every hop (and every address connected to) must satisfy. For a whitelisted request:
   * public only. For a confirmed one: what the person saw — never metadata, and no private or
   * loopback hop unless the confirmed host itself was one.
   */
  readonly policy: NetworkPolicy;
}

export interface HttpResponseData {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly bodyBytes: number;
  readonly truncated: boolean;
  readonly binary: boolean;
  readonly redirects: readonly string[];
  /** A redirect that was not followed, and why. */
  readonly redirectStopped?: { readonly to: string; readonly reason: string };
  readonly elapsedMs: number;
}

export type HttpErrorCode =
  | 'http-blocked-address'
  | 'http-dns-failed'
  | 'http-connection-refused'
  | 'http-timeout'
  | 'http-tls-error'
  | 'http-cancelled'
  | 'http-outcome-unknown'
  | 'http-unsupported-scheme'
  | 'http-error';

export interface HttpFailure {
  readonly type: 'http-error';
  readonly code: HttpErrorCode;
  readonly message: string;
}

/** Sent unless the request names its own User-Agent: a server sees who calls, not the HTTP library. */
const USER_AGENT = `riskgate (Node.js ${process.version})`;

/**
 * Response headers that inform and hold no credential; what OPTIONS and HEAD are sent for
 * (`allow`, the CORS answers, ranges, encodings) among them. A cookie never is.
 */
const KEPT_HEADERS = [
  'allow',
  'accept-patch',
  'accept-ranges',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'content-encoding',
  'content-language',
  'content-disposition',
  'vary',
  'expires',
  'age',
  'content-type',
  'content-length',
  'location',
  'date',
  'last-modified',
  'etag',
  'cache-control',
  'retry-after',
  'www-authenticate',
  'server',
];

class BlockedAddressError extends Error {
  readonly code = 'ERR_RISKGATE_BLOCKED_ADDRESS';
}

/**
 * The DNS lookup got uses to connect: it resolves and refuses an address the policy does not
 * allow, so the address checked is the address connected to (a name that resolved to a
 * public address for the assessor and to 127.0.0.1 now is refused).
 */
function guardedLookup(resolve: Resolver, policy: NetworkPolicy) {
  return (
    hostname: string,
    options: LookupOptions | number | ((...args: never[]) => void),
    callback?: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const done = (typeof options === 'function' ? options : callback) as NonNullable<typeof callback>;
    const all = typeof options === 'object' && options !== null && options.all === true;
    resolve(hostname).then(
      (addresses) => {
        for (const address of addresses) {
          const kind = classifyAddress(address);
          if (!addressAllowed(kind, policy)) {
            done(
              new BlockedAddressError(`${hostname} resolved to ${address}: ${describeAddressClass(kind, address)}`),
              '',
              4,
            );
            return;
          }
        }
        if (addresses.length === 0) {
          done(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        if (all)
          done(
            null,
            addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 })),
          );
        else done(null, addresses[0]!, isIPv6(addresses[0]!) ? 6 : 4);
      },
      (error: NodeJS.ErrnoException) => done(error, '', 4),
    );
  };
}

export function networkPolicyFor(kind: AddressClass, base: NetworkPolicy): NetworkPolicy {
  return {
    allowLoopback: base.allowLoopback || kind === 'loopback',
    allowPrivate: base.allowPrivate || kind === 'private',
  };
}

/**
 * Why a redirect is not followed, or undefined when it may be: only a GET may be followed, and
 * only to the same scheme, host and port the person or the whitelist approved. Anything else
 * is a new operation, which the model must ask for in a new call that the gate judges.
 */
function redirectRefusal(method: string, from: URL, to: URL): string | undefined {
  if (method !== 'GET') return `a redirect of a ${method} is a new request`;
  const sameOrigin =
    to.protocol === from.protocol && to.hostname === from.hostname && effectivePort(to) === effectivePort(from);
  if (sameOrigin) return undefined;
  const named = classifyHostName(to.hostname);
  const kind = named === 'name' || named === 'public' ? '' : ` (${describeAddressClass(named, to.hostname)})`;
  if (to.hostname !== from.hostname) return `it leads to another host, ${to.host}${kind}`;
  if (to.protocol !== from.protocol) return `it changes the scheme to ${to.protocol.slice(0, -1)}`;
  return `it leads to another port, ${effectivePort(to)}${kind}`;
}

export async function performHttpRequest(options: HttpCallOptions): Promise<HttpResponseData | HttpFailure> {
  const started = performance.now();
  const redirects: string[] = [];
  const method = options.method.toUpperCase();
  const approved = new URL(options.url);
  let url = approved;

  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return {
        type: 'http-error',
        code: 'http-unsupported-scheme',
        message: `${url.protocol} URLs are not supported by http_request${url.protocol === 'file:' ? '; use file_operations to read files' : ''}`,
      };
    }
    // Each hop's address is checked before it is requested (and again when connecting).
    const host = await judgeHost(url, options.policy, options.resolve);
    if (!host.allowed)
      return {
        type: 'http-error',
        code: host.unresolved ? 'http-dns-failed' : 'http-blocked-address',
        message: host.reason,
      };
    const response = await requestOnce(url, method, options.headers, options.body, options);
    if ('type' in response) return response;
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location !== undefined) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { ...response, redirects, elapsedMs: performance.now() - started };
      }
      const refusal =
        redirectRefusal(method, approved, next) ??
        (hop >= options.maxRedirects ? `more than ${options.maxRedirects} redirects` : undefined);
      if (refusal !== undefined)
        return {
          ...response,
          redirects,
          redirectStopped: { to: next.href, reason: refusal },
          elapsedMs: performance.now() - started,
        };
      redirects.push(next.href);
      url = next;
      continue;
    }
    return { ...response, redirects, elapsedMs: performance.now() - started };
  }
}

async function requestOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: HttpCallOptions,
): Promise<HttpResponseData | HttpFailure> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const stream = openStream(url, method, headers, body, options);
    const connected = trackConnection(stream, url);
    const response = { status: 0, statusText: '', headers: {} as Record<string, string> };
    const collected = { chunks: [] as Buffer[], kept: 0, total: 0, truncated: false };
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      const buffer = Buffer.concat(collected.chunks);
      const binary = looksBinary(buffer);
      resolvePromise({
        url: url.href,
        ...response,
        body: binary ? '' : buffer.toString('utf8'),
        bodyBytes: collected.total,
        truncated: collected.truncated,
        binary,
        redirects: [],
        elapsedMs: performance.now() - started,
      });
    };
    stream.on('response', (answer: GotResponseHead) => {
      response.status = answer.statusCode;
      response.statusText = answer.statusMessage ?? '';
      response.headers = keptHeaders(answer.headers);
    });
    stream.on('data', (chunk: Buffer) => {
      collected.total += chunk.length;
      if (collected.kept < options.maxBodyBytes) {
        const part = chunk.subarray(0, options.maxBodyBytes - collected.kept);
        collected.chunks.push(part);
        collected.kept += part.length;
      }
      // A huge body is not downloaded past the cap.
      if (collected.kept >= options.maxBodyBytes && collected.total > collected.kept) {
        collected.truncated = true;
        stream.destroy();
        finish();
      }
    });
    stream.on('end', finish);
    stream.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      const state = { sent: connected() && !SAFE_METHODS.has(method), status: response.status };
      resolvePromise(httpFailure(error, url, options, state));
    });
  });
}

interface GotResponseHead {
  readonly statusCode: number;
  readonly statusMessage?: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

function openStream(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: HttpCallOptions,
) {
  // A GET, HEAD or OPTIONS is judged as a read: it never carries a body, whatever the call says.
  const sent = body === undefined || SAFE_METHODS.has(method) ? undefined : body;
  const stream = got.stream(url, {
    method: method as Method,
    headers: Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')
      ? headers
      : { 'user-agent': USER_AGENT, ...headers },
    ...(sent === undefined ? {} : { body: sent }),
    followRedirect: false,
    throwHttpErrors: false,
    retry: { limit: 0 },
    timeout: { request: options.timeoutMs },
    dnsLookup: guardedLookup(options.resolve, options.policy) as never,
    signal: options.signal,
    decompress: true,
  });
  // got's stream waits for a request body for every method but GET and HEAD: end it, or an
  // OPTIONS or a DELETE without a body would never be sent.
  if (sent === undefined && method !== 'GET' && method !== 'HEAD') stream.end();
  return stream;
}

type SocketLike = { connecting: boolean; once(event: string, listener: () => void): void };

/**
 * Whether the request may have reached the server: from the moment the connection is up. A
 * POST, PUT, PATCH or DELETE that fails after that may have been acted on.
 */
function trackConnection(stream: ReturnType<typeof got.stream>, url: URL): () => boolean {
  let connected = false;
  stream.on('request', (request: { once(event: 'socket', listener: (socket: SocketLike) => void): void }) => {
    request.once('socket', (socket) => {
      // A socket already up (kept alive from an earlier request) carries the request at once. On a
      // new one over TLS nothing of the request leaves before the handshake: one that stalls sent nothing.
      if (!socket.connecting) connected = true;
      else
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          connected = true;
        });
    });
  });
  return () => connected;
}

/** The response headers the model is shown (KEPT_HEADERS), each as one string. */
function keptHeaders(headers: GotResponseHead['headers']): Record<string, string> {
  return Object.fromEntries(
    KEPT_HEADERS.filter((name) => headers[name] !== undefined).map((name) => {
      const value = headers[name]!;
      return [name, Array.isArray(value) ? value.join(', ') : value];
    }),
  );
}

function httpFailure(
  error: Error,
  url: URL,
  options: HttpCallOptions,
  state: { readonly sent: boolean; readonly status: number },
): HttpFailure {
  const code = (error as { code?: string }).code ?? (error instanceof RequestError ? error.code : undefined);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const anyCode = code === 'ERR_GOT_REQUEST_ERROR' ? (cause?.code ?? code) : code;
  const message = cause?.message && anyCode !== code ? cause.message : error.message;
  const tls =
    (anyCode !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL/.test(anyCode)) ||
    (anyCode === 'EPROTO' && /SSL routines|TLS/i.test(message));
  const cancelled = options.signal.aborted || anyCode === 'ERR_ABORTED' || error.name === 'AbortError';
  const timedOut = anyCode === 'ETIMEDOUT' || error.name === 'TimeoutError';
  if (state.sent && !tls && anyCode !== 'ERR_RISKGATE_BLOCKED_ADDRESS') {
    // A write that went out and got no answer: never a plain failure, or the model retries a
    // payment, an order, a DELETE that the server already carried out.
    const method = options.method.toUpperCase();
    const why = cancelled
      ? 'it was cancelled'
      : timedOut
        ? `no answer came within ${options.timeoutMs} ms`
        : `the connection failed (${message})`;
    if (state.status !== 0) {
      return {
        type: 'http-error',
        code: 'http-error',
        message: `the ${method} to ${url.host} was answered ${state.status}, then ${why} before the body ended: the server received it and acted as that status says`,
      };
    }
    return {
      type: 'http-error',
      code: 'http-outcome-unknown',
      message: `outcome unknown: the ${method} to ${url.host} was sent and ${why} before an answer came, so the server may have acted on it. Check before retrying (a retry may do it twice)`,
    };
  }
  if (cancelled) {
    return { type: 'http-error', code: 'http-cancelled', message: `the request to ${url.host} was cancelled` };
  }
  if (
    anyCode === 'ERR_RISKGATE_BLOCKED_ADDRESS' ||
    error instanceof BlockedAddressError ||
    cause instanceof BlockedAddressError
  ) {
    return { type: 'http-error', code: 'http-blocked-address', message: `refused to connect: ${message}` };
  }
  if (timedOut) {
    return {
      type: 'http-error',
      code: 'http-timeout',
      message: `no complete answer from ${url.host} within ${options.timeoutMs} ms`,
    };
  }
  if (anyCode === 'ENOTFOUND' || anyCode === 'EAI_AGAIN')
    return { type: 'http-error', code: 'http-dns-failed', message: `${url.hostname} does not resolve` };
  if (anyCode === 'ECONNREFUSED')
    return { type: 'http-error', code: 'http-connection-refused', message: `${url.host} refused the connection` };
  if (tls) {
    return { type: 'http-error', code: 'http-tls-error', message: `TLS with ${url.host} failed: ${message}` };
  }
  return { type: 'http-error', code: 'http-error', message: `${url.host}: ${message}` };
}
