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
  const proxy = new TcpFaultProxy(target);
  await proxy.listen();
  return proxy;
}

interface Pair {
  readonly client: Socket;
  readonly server: Socket;
  /** This connection's own stall (a `whenSent` trigger), over the proxy's. */
  own?: 'replies';
}

class TcpFaultProxy implements FaultProxy {
  private readonly pairs = new Set<Pair>();
  private readonly server: Server = createServer((client) => this.connect(client));
  private stalled: 'none' | 'both' | 'replies' = 'none';
  private trigger: { text: string; fault: 'drop' | 'stall-replies'; left: number } | undefined;
  port = 0;
  sentBytes = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  private connect(client: Socket): void {
    const pair: Pair = { client, server: createConnection(this.target) };
    this.pairs.add(pair);
    client.on('data', (chunk: Buffer) => this.forward(pair, chunk));
    pair.server.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      pair.server.destroy();
    };
    client.on('error', end).on('close', end);
    pair.server.on('error', end).on('close', end);
    this.apply(pair);
  }

  private forward(pair: Pair, chunk: Buffer): void {
    this.sentBytes += chunk.length;
    pair.server.write(chunk);
    const trigger = this.trigger;
    if (trigger === undefined || !chunk.includes(trigger.text) || --trigger.left !== 0) return;
    this.trigger = undefined;
    // After the bytes left for the server: a drop a moment later, so they arrive first.
    if (trigger.fault === 'drop') {
      setTimeout(() => {
        this.pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.server.resetAndDestroy();
      }, 20);
    } else {
      pair.own = 'replies';
      this.apply(pair);
    }
  }

  private apply(pair: Pair): void {
    const now = pair.own ?? this.stalled;
    if (now === 'both') pair.client.pause();
    else pair.client.resume();
    if (now === 'none') pair.server.resume();
    else pair.server.pause();
  }

  drop(): void {
    for (const pair of this.pairs) {
      pair.client.resetAndDestroy();
      pair.server.resetAndDestroy();
    }
    this.pairs.clear();
  }

  whenSent(text: string, fault: 'drop' | 'stall-replies', options: { readonly occurrence?: number } = {}): void {
    this.trigger = { text, fault, left: options.occurrence ?? 1 };
  }

  stall(which: 'both' | 'replies' = 'both'): void {
    this.stalled = which;
    for (const pair of this.pairs) this.apply(pair);
  }

  resume(): void {
    this.stalled = 'none';
    for (const pair of this.pairs) {
      pair.own = undefined;
      this.apply(pair);
    }
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
