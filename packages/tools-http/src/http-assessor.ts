import { fileURLToPath } from 'node:url';
import {
  type AddressClass,
  addressAllowed,
  classifyAddress,
  classifyHostName,
  describeAddressClass,
  type Effect,
  type PlannedReport,
  METHOD_OVERRIDE_HEADERS,
  METHOD_OVERRIDE_QUERY_NAMES,
  type NetworkPolicy,
  ROUTING_HEADERS,
  report,
} from '@riskgate/risk';
import type { Resolver } from './dns.js';
import { findRequestSecrets } from './request-secrets.js';

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'OPTIONS',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'TRACE',
  'CONNECT',
  'PURGE',
  'MOVE',
  'COPY',
  'MKCOL',
  'PROPFIND',
  'PROPPATCH',
  'LOCK',
  'UNLOCK',
]);

export interface HttpRequestShape {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface HostVerdict {
  /** The least safe class among the host's addresses. */
  readonly kind: AddressClass;
  readonly allowed: boolean;
  readonly reason: string;
  /** The name did not resolve (or not in time). */
  readonly unresolved?: boolean;
  /** The address that decided the class, for a name. */
  readonly address?: string;
}

const ORDER: readonly AddressClass[] = ['public', 'private', 'loopback', 'reserved', 'metadata'];

/**
 * Judge a host: its literal address, or every address its name resolves to. A name that does
 * not resolve is not public.
 */
export async function judgeHost(url: URL, policy: NetworkPolicy, resolve: Resolver): Promise<HostVerdict> {
  const host = url.hostname;
  const named = classifyHostName(host);
  if (named !== 'name')
    return { kind: named, allowed: addressAllowed(named, policy), reason: describeAddressClass(named, host) };
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return {
      kind: 'reserved',
      allowed: false,
      unresolved: true,
      reason: `${host} does not resolve (${(error as { code?: string }).code ?? (error as Error).message})`,
    };
  }
  if (addresses.length === 0)
    return { kind: 'reserved', allowed: false, unresolved: true, reason: `${host} does not resolve` };
  const classes = addresses.map((address) => ({ address, kind: classifyAddress(address) }));
  const worst = classes.reduce((a, b) => (ORDER.indexOf(b.kind) > ORDER.indexOf(a.kind) ? b : a));
  if (worst.kind === 'public')
    return { kind: 'public', allowed: true, reason: `${host} resolves to public addresses`, address: worst.address };
  return {
    kind: worst.kind,
    allowed: addressAllowed(worst.kind, policy),
    reason: `${host} resolves to ${worst.address}: ${describeAddressClass(worst.kind, worst.address)}`,
    address: worst.address,
  };
}

/** The URL rules are matched against: no user name, password or fragment. */
export function subjectUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  return copy.href;
}

export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * The method the server will act on: a method-override header or `_method` parameter wins over
 * the request line (`GET /items/1` with `X-HTTP-Method-Override: DELETE` deletes), and a GraphQL
 * mutation sent in a GET query string writes. Returns the method and why, when it differs.
 */
export function effectiveMethod(
  request: HttpRequestShape,
  url: URL,
): { readonly method: string; readonly why?: string } {
  const method = request.method.toUpperCase();
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const override = value.trim().toUpperCase();
    if (METHOD_OVERRIDE_HEADERS.has(name.toLowerCase()) && override !== '' && override !== method) {
      return {
        method: KNOWN_METHODS.has(override) ? override : 'POST',
        why: `the ${name} header makes the server treat this ${method} as ${override}`,
      };
    }
  }
  for (const [name, value] of url.searchParams) {
    const override = value.trim().toUpperCase();
    if (METHOD_OVERRIDE_QUERY_NAMES.has(name.toLowerCase()) && override !== '' && override !== method) {
      return {
        method: KNOWN_METHODS.has(override) ? override : 'POST',
        why: `the query parameter ${name}=${value} makes the server treat this ${method} as ${override}`,
      };
    }
  }
  if (SAFE_METHODS.has(method)) {
    for (const [name, value] of url.searchParams) {
      if (/^\s*(#[^\n]*\n\s*)*mutation\b/i.test(value))
        return { method: 'POST', why: `the query parameter ${name} holds a GraphQL mutation, which writes` };
    }
  }
  return { method };
}

/**
 * What an http_request would do, as effects for the risk judge: one `connect` effect (host,
 * port, scheme, the method the server acts on, the class of the resolved address, the
 * credentials it carries), plus an unknown effect for each header that reroutes the request.
 * A `file://` URL is a read of that path, judged like any other read (and refused when run:
 * file_operations reads files).
 */
/** What the assessor worked out that the run needs. */
export interface HttpPlan {
  /**
   * The class of the address the request goes to, as the judge and the panel saw it (a name
   * resolved once, here): an approved request may reach that kind of host and no other. Undefined
   * when the name did not resolve: then only public addresses.
   */
  readonly hostClass: AddressClass | undefined;
}

export async function assessHttpRequest(
  request: HttpRequestShape,
  resolve: Resolver,
): Promise<PlannedReport<HttpPlan>> {
  const url = new URL(request.url);
  const requested = request.method.toUpperCase();
  const subjects = [`${requested} ${subjectUrl(url)}`];
  if (url.protocol === 'file:') {
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch (error) {
      return unplanned(
        [
          {
            kind: 'unknown',
            detail: `${url.href} is not a local file URL (${(error as Error).message})`,
            severity: 'high',
          },
        ],
        subjects,
      );
    }
    return unplanned(
      [{ kind: 'read-path', path, via: url.href, note: 'http_request does not read files: use file_operations' }],
      subjects,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return unplanned(
      [
        {
          kind: 'unknown',
          detail: `${url.protocol} URLs are not HTTP; only http and https are supported`,
          severity: 'high',
        },
      ],
      subjects,
    );
  }
  const { method, why } = effectiveMethod(request, url);
  const secrets = findRequestSecrets(url, request.headers ?? {}, request.body);
  const carried = [...secrets.inUrl, ...secrets.inHeaders, ...secrets.inBody];
  const notes: string[] = [];
  if (why !== undefined) notes.push(why);
  let addressClass: AddressClass | undefined;
  const named = classifyHostName(url.hostname);
  if (named === 'name') {
    const host = await judgeHost(url, { allowLoopback: false, allowPrivate: false }, resolve);
    if (host.unresolved) notes.push(host.reason);
    else {
      addressClass = host.kind;
      if (host.kind !== 'public') notes.push(host.reason);
    }
  }
  const effects: Effect[] = [
    {
      kind: 'connect',
      host: url.hostname,
      port: effectivePort(url),
      scheme: url.protocol.slice(0, -1),
      method,
      ...(carried.length === 0 ? {} : { carriesSecret: carried.join('; ') }),
      ...(addressClass === undefined ? {} : { addressClass }),
      ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
    },
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const reroute = ROUTING_HEADERS.get(name.toLowerCase());
    // `Host: example.com` on a request to example.com changes nothing.
    const same = [url.host, url.hostname].includes(value.trim().toLowerCase().replace(/\.$/, ''));
    if (reroute !== undefined && !same)
      effects.push({ kind: 'unknown', detail: `the ${name} header ${reroute}`, severity: 'high', via: name });
  }
  return { ...report(effects, subjects), plan: { hostClass: named === 'name' ? addressClass : named } };
}

/** A request that cannot run (not HTTP): nothing to plan. */
function unplanned(effects: readonly Effect[], subjects: readonly string[]): PlannedReport<HttpPlan> {
  return { ...report(effects, subjects), plan: { hostClass: undefined } };
}
