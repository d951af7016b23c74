import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server that records the SQL text of every statement a
 * client sends, read from the wire protocol itself: PostgreSQL's Query ('Q') and Parse ('P')
 * messages, MySQL's COM_QUERY and COM_STMT_PREPARE packets. What it records is what the server
 * received, byte for byte — no server setting (log_statement, general_log) is changed.
 */
export interface RecordingProxy {
  readonly port: number;
  /** Every statement text sent since the last clear, in order. */
  readonly sent: readonly string[];
  clear(): void;
  close(): Promise<void>;
}

export async function startRecordingProxy(
  target: { host: string; port: number },
  protocol: 'postgres' | 'mysql',
): Promise<RecordingProxy> {
  const sent: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    const read = protocol === 'postgres' ? postgresReader(sent) : mysqlReader(sent);
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    get sent() {
      return sent;
    },
    clear() {
      sent.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** PostgreSQL frontend messages: a start-up message without a type byte, then type + int32 length + body. */
function postgresReader(sent: string[]): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 4) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        buffer = buffer.subarray(length);
        started = true;
        continue;
      }
      if (buffer.length < 5) return;
      const type = String.fromCharCode(buffer[0]!);
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      const body = buffer.subarray(5, 1 + length);
      buffer = buffer.subarray(1 + length);
      if (type === 'Q') sent.push(body.subarray(0, body.indexOf(0)).toString('utf8'));
      else if (type === 'P') {
        const query = body.subarray(body.indexOf(0) + 1);
        sent.push(query.subarray(0, query.indexOf(0)).toString('utf8'));
      }
    }
  };
}

/** MySQL client packets: int24 length, sequence id, payload. A command starts a sequence (id 0). */
function mysqlReader(sent: string[]): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4) {
      const length = buffer.readUIntLE(0, 3);
      if (buffer.length < 4 + length) return;
      const sequence = buffer[3];
      const payload = buffer.subarray(4, 4 + length);
      buffer = buffer.subarray(4 + length);
      // The handshake response and authentication packets continue the server's sequence (id ≥ 1).
      if (sequence === 0 && (payload[0] === 0x03 || payload[0] === 0x16))
        sent.push(payload.subarray(1).toString('utf8'));
    }
  };
}
