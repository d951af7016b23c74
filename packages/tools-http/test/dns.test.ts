import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { boundedResolver, createSystemResolver } from '../src/index.js';

/**
 * A DNS server on 127.0.0.1 made here: it answers A and AAAA from `records`, and never answers a
 * name in `silent` (or, for `v6-silent.*`, never answers its AAAA) — the resolver that a lookup
 * must be able to give up on.
 */
interface TestServer {
  readonly address: string;
  readonly queries: string[];
  close(): Promise<void>;
}

const records: Record<string, { readonly a?: readonly string[]; readonly aaaa?: readonly string[] }> = {
  'both.example': { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1::1'] },
  'v4only.example': { a: ['93.184.216.35'] },
  'rebind.example': { a: ['93.184.216.36'], aaaa: ['::ffff:169.254.169.254'] },
  'v6-silent.example': { a: ['93.184.216.37'] },
};

function questionOf(message: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (message[at]! !== 0) {
    labels.push(message.subarray(at + 1, at + 1 + message[at]!).toString('latin1'));
    at += message[at]! + 1;
  }
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(at + 1), end: at + 5 };
}

function answer(query: Buffer, addresses: readonly string[], type: number): Buffer {
  const { end } = questionOf(query);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8180, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const answers = addresses.map((address) => {
    const data =
      type === 1
        ? Buffer.from(address.split('.').map(Number))
        : Buffer.from(
            expandIPv6(address)
              .split(':')
              .flatMap((group) => [Number.parseInt(group, 16) >> 8, Number.parseInt(group, 16) & 0xff]),
          );
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(type, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

function expandIPv6(address: string): string {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const last = right.at(-1) ?? left.at(-1) ?? '';
  if (last.includes('.')) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    const groups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (right.length > 0) right.splice(-1, 1, ...groups);
    else left.splice(-1, 1, ...groups);
  }
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...(tail === undefined ? [] : zeros), ...right].join(':');
}

async function startServer(): Promise<TestServer> {
  const socket: Socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, peer) => {
    const { name, type } = questionOf(message);
    queries.push(`${name}/${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}`);
    if (name.startsWith('silent.')) return;
    if (name.startsWith('v6-silent.') && type === 28) return;
    const found = records[name];
    const addresses = (type === 1 ? found?.a : type === 28 ? found?.aaaa : undefined) ?? [];
    const reply = answer(message, addresses, type);
    // No such name: NXDOMAIN (rcode 3).
    if (found === undefined) reply.writeUInt16BE(0x8183, 2);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

let server: TestServer;
const directory = mkdtempSync(join(tmpdir(), 'riskgate-dns-'));
const hostsFile = join(directory, 'hosts');
writeFileSync(
  hostsFile,
  '127.0.0.1 localhost\n::1 localhost ip6-localhost\n# a comment 10.9.9.9 commented.example\n10.1.2.3 intranet.example db\n192.0.2.7 intranet.example\nfe80::1%eth0 linklocal.example\n',
);
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const resolverFor = (extra: { timeoutMs?: number; tries?: number; hostsFile?: string } = {}) =>
  createSystemResolver({ servers: [server.address], hostsFile, timeoutMs: 5_000, tries: 1, ...extra });

describe('the system resolver (c-ares after the hosts file)', () => {
  it('returns the A and the AAAA addresses together', async () => {
    expect(await resolverFor()('both.example')).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    expect(await resolverFor()('BOTH.example.')).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    expect(await resolverFor()('v4only.example')).toEqual(['93.184.216.35']);
  });

  it('keeps an AAAA answer that embeds a metadata address, for the judge to refuse', async () => {
    expect(await resolverFor()('rebind.example')).toContain('::ffff:169.254.169.254');
  });

  it('fails when one family does not answer: an address not learnt might be the private one', async () => {
    await expect(resolverFor({ timeoutMs: 200 })('v6-silent.example')).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });

  it('fails for a name DNS does not know', async () => {
    await expect(resolverFor()('missing.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('honours the hosts file first, every line that names the host, without asking DNS', async () => {
    const before = server.queries.length;
    expect(await resolverFor()('intranet.example')).toEqual(['10.1.2.3', '192.0.2.7']);
    expect(await resolverFor()('linklocal.example')).toEqual(['fe80::1']);
    expect(await resolverFor()('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(server.queries.length).toBe(before);
    await expect(resolverFor()('commented.example')).rejects.toBeDefined();
  });

  it('answers localhost as loopback when the hosts file does not name it', async () => {
    const resolve = resolverFor({ hostsFile: join(directory, 'absent') });
    expect(await resolve('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(await resolve('app.localhost')).toEqual(['127.0.0.1', '::1']);
  });

  it('gives an IP literal back as it is', async () => {
    expect(await resolverFor()('169.254.169.254')).toEqual(['169.254.169.254']);
    expect(await resolverFor()('[::1]')).toEqual(['::1']);
  });

  it('frees a lookup at once when it is aborted, though the server never answers', async () => {
    const controller = new AbortController();
    const before = server.queries.length;
    const started = performance.now();
    const pending = resolverFor()('silent.example', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toBeDefined();
    // The query went out (c-ares asked the server), and the abort, not the 5 s timeout, ended it.
    expect(server.queries.slice(before)).toContain('silent.example/A');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('holds no thread-pool thread while lookups hang: file reads go on', async () => {
    const controller = new AbortController();
    const hanging = Array.from({ length: 8 }, (_, index) =>
      resolverFor()(`silent${index}.silent.example`, { signal: controller.signal }).catch(() => 'ended'),
    );
    const { readFile } = await import('node:fs/promises');
    // The pool has four threads: eight getaddrinfo calls would hold them all and queue this read.
    const read = await Promise.race([
      readFile(hostsFile, 'utf8').then(() => 'read'),
      new Promise((resolve) => setTimeout(() => resolve('stalled'), 3_000)),
    ]);
    expect(read).toBe('read');
    controller.abort();
    expect(await Promise.all(hanging)).toEqual(Array.from({ length: 8 }, () => 'ended'));
  });
});

describe('boundedResolver', () => {
  it('cancels the lookup at its timeout (the signal it passes is aborted)', async () => {
    let seen: AbortSignal | undefined;
    const resolve = boundedResolver(
      (_, options) =>
        new Promise((_resolve, reject) => {
          seen = options?.signal;
          options?.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
      { timeoutMs: 50 },
    );
    await expect(resolve('slow.example')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    // The waiter's timer fires first; the lookup's own, set just after it, fires in the same turn
    // or, on a loaded machine, a millisecond later: wait for it rather than for one turn.
    await vi.waitFor(() => expect(seen?.aborted).toBe(true), { timeout: 2_000, interval: 5 });
  });

  it('ends a real c-ares lookup at the timeout through cancel()', async () => {
    const started = performance.now();
    const resolve = boundedResolver(resolverFor(), { timeoutMs: 100 });
    await expect(resolve('silent.example')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
