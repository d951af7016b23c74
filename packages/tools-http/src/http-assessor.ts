import { type LegacyVerdict, maxRiskLevel, type RiskLevel } from '@riskgate/risk';
import {
  type AddressClass,
  addressAllowed,
  classifyAddress,
  classifyHostName,
  describeAddressClass,
  type NetworkPolicy,
  type Resolver,
} from './address-policy.js';
import { findRequestSecrets } from './request-secrets.js';

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  /** The name did not resolve at all. */
  readonly unresolved?: boolean;
}

const ORDER: readonly AddressClass[] = ['public', 'private', 'loopback', 'reserved', 'metadata'];

/**
 * Judge a host: its literal address, or every address its name resolves to. A name that does
 * not resolve is not public.
 */
export async function judgeHost(url: URL, policy: NetworkPolicy, resolve: Resolver): Promise<HostVerdict> {
  const host = url.hostname;
  const named = classifyHostName(host);
  if (named !== 'name') return { kind: named, allowed: addressAllowed(named, policy), reason: describeAddressClass(named, host) };
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return { kind: 'reserved', allowed: false, unresolved: true, reason: `${host} does not resolve (${(error as { code?: string }).code ?? (error as Error).message})` };
  }
  if (addresses.length === 0) return { kind: 'reserved', allowed: false, unresolved: true, reason: `${host} does not resolve` };
  const classes = addresses.map((address) => ({ address, kind: classifyAddress(address) }));
  const worst = classes.reduce((a, b) => (ORDER.indexOf(b.kind) > ORDER.indexOf(a.kind) ? b : a));
  if (worst.kind === 'public') return { kind: 'public', allowed: true, reason: `${host} resolves to public addresses` };
  return {
    kind: worst.kind,
    allowed: addressAllowed(worst.kind, policy),
    reason: `${host} resolves to ${worst.address}: ${describeAddressClass(worst.kind, worst.address)}`,
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

export async function assessHttpRequest(request: HttpRequestShape, policy: NetworkPolicy, resolve: Resolver): Promise<LegacyVerdict> {
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const subjects = [`${method} ${subjectUrl(url)}`];
  const findings: { level: RiskLevel; reason: string }[] = [];

  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    findings.push({ level: 'high', reason: `${url.protocol} URLs are not HTTP; only http and https are supported` });
  } else {
    const host = await judgeHost(url, policy, resolve);
    if (!host.allowed) findings.push({ level: host.kind === 'metadata' ? 'high' : 'medium', reason: host.reason });
  }
  if (!SAFE_METHODS.has(method)) {
    findings.push(
      method === 'DELETE'
        ? { level: 'high', reason: `DELETE asks ${url.host} to remove a resource` }
        : { level: 'medium', reason: `${method} sends data to ${url.host}` },
    );
  }
  const secrets = findRequestSecrets(url, request.headers ?? {}, request.body);
  for (const what of secrets.inUrl) findings.push({ level: 'high', reason: `the URL carries ${what} to ${url.host}` });
  for (const what of secrets.inHeaders) findings.push({ level: 'medium', reason: `sends ${what} to ${url.host}` });
  for (const what of secrets.inBody) findings.push({ level: 'high', reason: `the body carries ${what} to ${url.host}` });

  if (findings.length === 0) {
    return { level: 'low', whitelisted: true, reasons: [`${method} to a public host reads without changing anything`], subjects };
  }
  return { level: maxRiskLevel(...findings.map((finding) => finding.level)), whitelisted: false, reasons: findings.map((finding) => finding.reason), subjects };
}
