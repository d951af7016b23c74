import ipaddr from 'ipaddr.js';

/**
 * Where an address leads. Only `public` may be reached by a whitelisted request. Used by the
 * HTTP tool (URLs, resolved names, every redirect hop, the connected socket) and by the judge
 * for `connect` effects of any tool.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'metadata' | 'reserved';

/**
 * Cloud instance metadata services and other link-local control endpoints: they hand out
 * credentials to whoever asks from the machine. One row per address, with whose it is.
 */
export const METADATA_ADDRESSES: ReadonlyMap<string, string> = new Map([
  ['169.254.169.254', 'AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle instance metadata'],
  ['169.254.170.2', 'AWS ECS task metadata and credentials'],
  ['169.254.170.23', 'AWS EKS pod identity credentials'],
  ['169.254.169.123', 'AWS time sync'],
  ['169.254.169.253', 'AWS VPC DNS'],
  ['169.254.0.23', 'Tencent Cloud metadata'],
  ['169.254.42.42', 'Scaleway metadata'],
  ['100.100.100.200', 'Alibaba Cloud metadata'],
  ['192.0.0.192', 'Oracle Cloud metadata'],
  ['168.63.129.16', 'Azure WireServer'],
  ['fd00:ec2::254', 'AWS instance metadata (IPv6)'],
  ['fd00:ec2::23', 'AWS EKS pod identity (IPv6)'],
  ['fd00:ec2::123', 'AWS time sync (IPv6)'],
  ['fd20:ce::254', 'GCP metadata (IPv6)'],
  ['fd00:a9fe:a9fe::1', 'Linode metadata (IPv6)'],
  ['fd00:c1::a9fe:a9fe', 'Oracle Cloud metadata (IPv6)'],
]);

/** Host names of metadata services (compared without a trailing dot, lower case). */
export const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net', // Equinix Metal, earlier name
  'api.metadata.cloud.ibm.com', // IBM Cloud VPC metadata
]);

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
}

/** The IPv4 address an IPv6 one carries inside it (mapped, compatible, NAT64, 6to4, Teredo). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const v4 = (offset: number) => ipaddr.fromByteArray(bytes.slice(offset, offset + 4)) as ipaddr.IPv4;
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const range = address.range();
  // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks), but not :: or ::1.
  if (bytes.slice(0, 12).every((byte) => byte === 0) && !(range === 'unspecified' || range === 'loopback'))
    return v4(12);
  if (
    range === 'rfc6052' ||
    range === 'rfc6145' ||
    (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b)
  )
    return v4(12); // NAT64 64:ff9b::/96 (and /48 local use)
  if (range === '6to4') return v4(2);
  if (range === 'teredo') {
    // Teredo carries the client's address inverted in the last four bytes.
    return ipaddr.fromByteArray(bytes.slice(12, 16).map((byte) => byte ^ 0xff)) as ipaddr.IPv4;
  }
  return undefined;
}

export function classifyAddress(address: string): AddressClass {
  const parsed = parse(address);
  if (parsed === undefined) return 'reserved';
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString()))
    return 'metadata';
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIPv4(parsed as ipaddr.IPv6);
    if (inner !== undefined) {
      const innerClass = classifyAddress(inner.toString());
      // An address that wraps another is never plain public: it reaches what it wraps.
      return innerClass === 'public' ? 'reserved' : innerClass;
    }
  }
  switch (parsed.range()) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'unspecified':
      // 0.0.0.0 and :: reach this machine.
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'linkLocal':
    case 'carrierGradeNat':
      return 'private';
    default:
      // broadcast, multicast, documentation, benchmarking, reserved ranges.
      return 'reserved';
  }
}

/** A host as the URL parser left it: an IP literal (IPv4 forms such as 0x7f.1 already normalised) or a name. */
export function classifyHostName(hostname: string): AddressClass | 'name' {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (ipaddr.isValid(host.replace(/^\[|\]$/g, '').replace(/%.*$/, ''))) return classifyAddress(host);
  if (METADATA_NAMES.has(host)) return 'metadata';
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === 'localhost.localdomain' ||
    host === 'ip6-localhost' ||
    host === 'ip6-loopback'
  )
    return 'loopback';
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
