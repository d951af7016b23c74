import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Where an address leads. Only `public` may be reached by a whitelisted request. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'metadata' | 'reserved';

/** Resolves a host name to every address it has (tests inject their own). */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Cloud instance metadata services: they hand out credentials to whoever asks. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '169.254.170.23', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254', 'fd00:ec2::23']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);

export function classifyAddress(address: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'reserved';
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  const range = parsed.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'linkLocal':
    case 'carrierGradeNat':
      return 'private';
    default:
      // unspecified (0.0.0.0 reaches this machine), broadcast, multicast, 6to4, teredo and
      // NAT64 (which embed other addresses), documentation and reserved ranges.
      return 'reserved';
  }
}

/** A host as the URL parser left it: an IP literal (IPv4 forms such as 0x7f.1 already normalised) or a name. */
export function classifyHostName(hostname: string): AddressClass | 'name' {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (ipaddr.isValid(host.replace(/^\[|\]$/g, ''))) return classifyAddress(host);
  if (METADATA_NAMES.has(host)) return 'metadata';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return 'name';
}

export interface NetworkPolicy {
  /** Loopback (this machine) may be reached without asking. Default false. */
  readonly allowLoopback: boolean;
  /** Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7, link-local) may be reached without asking. Default false. */
  readonly allowPrivate: boolean;
}

export const STRICT_NETWORK: NetworkPolicy = { allowLoopback: false, allowPrivate: false };

/** Metadata and reserved addresses are never allowed; the rest by the policy. */
export function addressAllowed(kind: AddressClass, policy: NetworkPolicy): boolean {
  switch (kind) {
    case 'public':
      return true;
    case 'loopback':
      return policy.allowLoopback;
    case 'private':
      return policy.allowPrivate;
    case 'metadata':
    case 'reserved':
      return false;
  }
}

export function describeAddressClass(kind: AddressClass, host: string): string {
  switch (kind) {
    case 'public':
      return `${host} is a public address`;
    case 'loopback':
      return `${host} is this machine (loopback)`;
    case 'private':
      return `${host} is on a private network`;
    case 'metadata':
      return `${host} is a cloud metadata service, which hands out credentials`;
    case 'reserved':
      return `${host} is a reserved or special-purpose address`;
  }
}
