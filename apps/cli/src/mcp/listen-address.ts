import { isIP } from 'node:net';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  /** The person named the host: only then may it be other than loopback. */
  readonly explicitHost: boolean;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/** `--listen [host:]port`: `8080`, `127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:8080`; port 0 picks a free one. */
export function parseListen(text: string): ListenAddress | { error: string } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || port > 65_535)
    return { error: `--listen ${JSON.stringify(text)}: expected [host:]port, e.g. 8765 or 127.0.0.1:8765` };
  const host = match[1]?.replace(/^\[|\]$/g, '');
  if (host?.includes(':') && isIP(host) !== 6)
    return { error: `--listen ${JSON.stringify(text)}: ${host} is not an IPv6 address` };
  return host === undefined ? { host: '127.0.0.1', port, explicitHost: false } : { host, port, explicitHost: true };
}
