import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The largest MCP request `riskgate mcp` reads, in bytes (one JSON-RPC line). Larger than any
 * tool call the gate takes (arguments over 500,000 characters are refused anyway), far below
 * what would stall the server: a larger line is skipped as it streams in — never buffered
 * whole — and answered with an error, and the server goes on serving.
 */
export const MAX_MCP_REQUEST_BYTES = 2 * 1024 * 1024;

/** Bytes of an oversized line kept to find its request id. */
const ID_WINDOW = 512;
const NEWLINE = 0x0a;

/** JSON-RPC's "invalid request" and "parse error" codes. */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

/**
 * MCP over stdio with bounded lines, in place of the SDK's transport: that one buffers up to
 * 10 MB per line re-copying the buffer on each chunk (a 10 MB request wedged the server) and
 * closes silently past it (20 MB ended riskgate mcp with exit 0, no word).
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line is being skipped: its head (for the id) and its length so far. */
  private skipping: { head: Buffer; bytes: number } | undefined;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly report: (message: string) => void = () => {},
    private readonly limit = MAX_MCP_REQUEST_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (data: Buffer | string) => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    while (chunk.length > 0) {
      const end = chunk.indexOf(NEWLINE);
      const piece = end === -1 ? chunk : chunk.subarray(0, end);
      this.take(piece);
      if (end === -1) return;
      this.endLine();
      chunk = chunk.subarray(end + 1);
    }
  };

  /** Part of the current line: kept while under the limit, else only counted. */
  private take(piece: Buffer): void {
    if (this.skipping !== undefined) {
      this.skipping.bytes += piece.length;
      return;
    }
    if (this.size + piece.length <= this.limit) {
      if (piece.length > 0) this.chunks.push(Buffer.from(piece));
      this.size += piece.length;
      return;
    }
    const head = Buffer.concat([...this.chunks, piece]).subarray(0, ID_WINDOW);
    this.skipping = { head: Buffer.from(head), bytes: this.size + piece.length };
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping !== undefined) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      const message = `the request is ${bytes.toLocaleString('en-US')} bytes; riskgate mcp takes at most ${this.limit.toLocaleString('en-US')} bytes per request; nothing was run`;
      this.report(message);
      void this.sendError(requestId(head.toString('utf8')), INVALID_REQUEST, message);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      const text = `the request is not a valid JSON-RPC message: ${(error as Error).message.slice(0, 200)}`;
      this.report(text);
      void this.sendError(requestId(line.slice(0, ID_WINDOW)), PARSE_ERROR, text);
      return;
    }
    this.onmessage?.(message);
  }

  private sendError(id: string | number | null, code: number, message: string): Promise<void> {
    // JSON-RPC answers a request it cannot read with id null.
    return this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}

/** The id of a request from its first bytes (`{"jsonrpc":"2.0","id":7,…`), or null when it is not there. */
function requestId(head: string): string | number | null {
  const match = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (match === null) return null;
  return match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : Number(match[1]);
}
