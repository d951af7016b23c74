import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy a test controls, in front of a real database: it forwards bytes both
 * ways until told to drop every connection (as a restart or a failover does) or to stall them
 * (as a dead network does: nothing arrives, nothing closes). `stall('replies')` lets what the
 * client sends through and holds what the server answers — a write that reached the server and
 * committed while its reply never came back.
 */
export interface FaultProxy {
  readonly port: number;
  /** Bytes from the client to the server so far (to wait until a statement went out). */
  readonly sentBytes: number;
  /** Close every open connection at once (both sides see a reset). */
  drop(): void;
  /** Stop forwarding: both ways, or only the server's replies. New connections stall too. */
  stall(which?: 'both' | 'replies'): void;
  /**
   * Once a client sends bytes containing `text` (a COMMIT, an UPDATE), forward them, then drop
   * that connection or stall its replies: the statement reached the server, its answer never
   * comes back. Other connections (a new one to ask what happened) are not touched.
   */
  whenSent(text: string, fault: 'drop' | 'stall-replies', options?: { readonly occurrence?: number }): void;
  /** Forward again (what was held back is delivered). */
  resume(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<{ client: Socket; server: Socket; own?: 'replies' }>();
  let stalled: 'none' | 'both' | 'replies' = 'none';
  let sentBytes = 0;
  let trigger: { text: string; fault: 'drop' | 'stall-replies'; left: number } | undefined;

  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    const pair: { client: Socket; server: Socket; own?: 'replies' } = { client, server: upstream };
    pairs.add(pair);
    const apply = () => {
      const now = pair.own ?? stalled;
      if (now === 'both') client.pause();
      else client.resume();
      if (now === 'none') upstream.resume();
      else upstream.pause();
    };
    client.on('data', (chunk: Buffer) => {
      sentBytes += chunk.length;
      upstream.write(chunk);
      if (trigger !== undefined && chunk.includes(trigger.text) && --trigger.left === 0) {
        const { fault } = trigger;
        trigger = undefined;
        // After the bytes left for the server: a drop a moment later, so they arrive first.
        if (fault === 'drop') {
          setTimeout(() => {
            pairs.delete(pair);
            client.resetAndDestroy();
            upstream.resetAndDestroy();
          }, 20);
        } else {
          pair.own = 'replies';
          apply();
        }
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    (client as Socket & { apply?: () => void }).apply = apply;
    apply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const reapply = () => {
    for (const pair of pairs) (pair.client as Socket & { apply?: () => void }).apply?.();
  };
  const proxy: FaultProxy = {
    port,
    get sentBytes() {
      return sentBytes;
    },
    drop() {
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.server.resetAndDestroy();
      }
      pairs.clear();
    },
    whenSent(text, fault, options = {}) {
      trigger = { text, fault, left: options.occurrence ?? 1 };
    },
    stall(which = 'both') {
      stalled = which;
      reapply();
    },
    resume() {
      stalled = 'none';
      for (const pair of pairs) pair.own = undefined;
      reapply();
    },
    async close() {
      proxy.drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
