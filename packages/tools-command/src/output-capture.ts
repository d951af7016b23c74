import { StringDecoder } from 'node:string_decoder';
import { wasmNewlines } from './newline-count-wasm.js';

const NEWLINE = 0x0a;

/**
 * Newlines in a chunk. Counted once per chunk by the runner and handed to every consumer (the
 * model's head and tail, the screen's live view): `seq 1 5000000` is 38 MB of 8-byte lines, and
 * two counts with one `indexOf` call per line took 73 of the 88 ms spent reading it. Sixteen
 * bytes at a time with WebAssembly's SIMD where it is available (newline-count-wasm.ts: 3–9 ms
 * for those 38 MB), else `countLinesByWords`; short chunks by words, where a call into the
 * module and the copy cost more than they save.
 */
export function countLines(buffer: Uint8Array): number {
  return (buffer.length >= WASM_FROM ? wasmNewlines(buffer) : undefined) ?? countLinesByWords(buffer);
}

/** From this many bytes on, a chunk is counted by the WebAssembly module. */
const WASM_FROM = 512;

/**
 * Four bytes at a time (a word XORed with four newlines has a zero byte per newline; the zero
 * bytes are counted without a branch), four words per step: their per-byte flags (at most 4 per
 * byte) are added before one multiply sums the bytes. 12–20 ms for those 38 MB against 18–28 ms
 * one word per step (where the multiply and shifts were half the work), 28–41 ms for a byte
 * loop. Signed words: a Uint32Array element above 2^31 is a double to V8 until the first bitwise
 * operation.
 */
export function countLinesByWords(buffer: Uint8Array): number {
  const length = buffer.length;
  let count = 0;
  let index = 0;
  for (; index < length && ((buffer.byteOffset + index) & 3) !== 0; index++) count += buffer[index] === NEWLINE ? 1 : 0;
  const words = (length - index) >>> 2;
  if (words > 0) {
    const view = new Int32Array(buffer.buffer, buffer.byteOffset + index, words);
    let other = 0;
    let word = 0;
    for (; word + 3 < words; word += 4) {
      const flags =
        notNewline(view[word]!) +
        notNewline(view[word + 1]!) +
        notNewline(view[word + 2]!) +
        notNewline(view[word + 3]!);
      other += Math.imul(flags, 0x01010101) >>> 24;
    }
    for (; word < words; word++) other += Math.imul(notNewline(view[word]!), 0x01010101) >>> 24;
    count += words * 4 - other;
    index += words * 4;
  }
  for (; index < length; index++) count += buffer[index] === NEWLINE ? 1 : 0;
  return count;
}

/** 1 in each byte of the word that is not a newline, else 0 (no carry crosses a byte). */
function notNewline(word: number): number {
  const value = word ^ 0x0a0a0a0a;
  return ((((value & 0x7f7f7f7f) + 0x7f7f7f7f) | value) >>> 7) & 0x01010101;
}

/**
 * Keeps the head and the tail of a stream: a command that prints a gigabyte costs a few
 * kilobytes of memory, and the model sees how it began and how it ended, and how many lines
 * were left out between them.
 */
export class HeadTail {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;
  lines = 0;

  constructor(private readonly half: number) {}

  /** `lines`: the chunk's newlines, when the caller counted them already (counted here otherwise). */
  push(chunk: Buffer, lines = countLines(chunk)): void {
    this.total += chunk.length;
    this.lines += lines;
    if (this.headBytes < this.half) {
      const take = chunk.subarray(0, this.half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.half) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  /**
   * The head and the tail, each cut where no secret can be split (`keptHeadEnd`, `keptTailStart`),
   * and what was left out between them, exactly.
   */
  result(): { head: Buffer; tail: Buffer; dropped: number; droppedLines: number } {
    const all = Buffer.concat(this.tail);
    let tail = all.length > this.half ? all.subarray(all.length - this.half) : all;
    let head = Buffer.concat(this.head);
    if (this.total - head.length - tail.length === 0) return { head, tail, dropped: 0, droppedLines: 0 };
    head = head.subarray(0, keptHeadEnd(head));
    // Whether the tail window begins a line: the byte before it, when it is still held.
    const lineStart = all.length > tail.length ? all[all.length - tail.length - 1] === NEWLINE : false;
    tail = tail.subarray(keptTailStart(tail, lineStart));
    const dropped = this.total - head.length - tail.length;
    return { head, tail, dropped, droppedLines: this.lines - countLines(head) - countLines(tail) };
  }
}

/*
 * Where the model's head and tail are cut. The secret engine (the output guard) reads what is
 * kept, and a secret the cut splits is one it cannot recognise: `ghp_aB3dE6gH` is no GitHub
 * token, and a private key's last lines without their BEGIN line are no key. So the kept parts
 * end and begin where nothing is split: at a line boundary (else, in a line longer than the
 * window, at a byte no token is made of, else not at all); an armoured block (`-----BEGIN …`)
 * the cut goes through is left out of the kept part whole; and so are base64 lines touching the
 * cut (a wrapped key or token in base64), as far as `SPLIT_BLOCK` bytes from it: any block that
 * size or smaller that the cut splits is left out on both sides. What is left out is counted in
 * the notice with the rest.
 */

/** Longer than a wrapped 4096-bit RSA private key in base64 (~4.4 KB). */
const SPLIT_BLOCK = 8 * 1024;
const BEGIN = Buffer.from('-----BEGIN ');
const END = Buffer.from('-----END ');

/** The kept head's length: `head` is followed by output that is not kept. */
export function keptHeadEnd(head: Buffer): number {
  let end = head.lastIndexOf(NEWLINE) + 1;
  if (end === 0) end = lastSeparator(head) + 1;
  const begin = head.subarray(0, end).lastIndexOf(BEGIN);
  if (begin !== -1 && head.subarray(begin, end).indexOf(END) === -1) end = head.lastIndexOf(NEWLINE, begin) + 1;
  const bound = end - SPLIT_BLOCK;
  while (end > 0 && end > bound) {
    const start = end >= 2 ? head.lastIndexOf(NEWLINE, end - 2) + 1 : 0;
    if (!isBase64Line(head.subarray(start, end))) break;
    end = start;
  }
  return end;
}

/** Where the kept tail starts: `tail` follows output that is not kept (which ended a line when `lineStart`). */
export function keptTailStart(tail: Buffer, lineStart: boolean): number {
  let start = 0;
  if (!lineStart) {
    const newline = tail.indexOf(NEWLINE);
    start = newline !== -1 ? newline + 1 : firstSeparator(tail);
  }
  const end = tail.indexOf(END, start);
  if (end !== -1 && tail.subarray(start, end).indexOf(BEGIN) === -1) {
    const newline = tail.indexOf(NEWLINE, end);
    start = newline === -1 ? tail.length : newline + 1;
  }
  const bound = start + SPLIT_BLOCK;
  while (start < tail.length && start < bound) {
    const newline = tail.indexOf(NEWLINE, start);
    const next = newline === -1 ? tail.length : newline + 1;
    if (!isBase64Line(tail.subarray(start, next))) break;
    start = next;
  }
  return start;
}

/**
 * Bytes a token may be made of: letters, digits, `+/=_-.~%`, and any byte of a non-ASCII character
 * (so a cut after a separator never splits a UTF-8 sequence either).
 */
function isTokenByte(byte: number): boolean {
  return (
    byte >= 0x80 ||
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2b ||
    byte === 0x2f ||
    byte === 0x3d ||
    byte === 0x5f ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x7e ||
    byte === 0x25
  );
}

function lastSeparator(bytes: Buffer): number {
  for (let index = bytes.length - 1; index >= 0; index--) if (!isTokenByte(bytes[index]!)) return index;
  return -1;
}

/** The first byte after a separator, or the end: none of the token it cuts. */
function firstSeparator(bytes: Buffer): number {
  for (let index = 0; index < bytes.length; index++) if (!isTokenByte(bytes[index]!)) return index + 1;
  return bytes.length;
}

/** A line of base64 as a wrapped key or token is printed: 40 or more of its characters, and nothing else. */
function isBase64Line(line: Buffer): boolean {
  let length = line.length;
  if (length > 0 && line[length - 1] === NEWLINE) length--;
  if (length > 0 && line[length - 1] === 0x0d) length--;
  if (length < 40) return false;
  for (let index = 0; index < length; index++) {
    const byte = line[index]!;
    const letterOrDigit =
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
    if (!letterOrDigit && byte !== 0x2b && byte !== 0x2f && byte !== 0x3d) return false;
  }
  return true;
}

/** "… 4,999,000 more lines (38,888,000 bytes) not shown …" */
export function cutNotice(lines: number, bytes: number): string {
  return `… ${lines.toLocaleString('en-US')} more line${lines === 1 ? '' : 's'} (${bytes.toLocaleString('en-US')} bytes) not shown …`;
}

/**
 * Output for the screen as it arrives, bounded. The first `budget` bytes pass through as they
 * come; after that, at most one update per `intervalMs`: a count of the lines skipped since the
 * last update and the last few lines. Why: every chunk used to become an event for the screen
 * (and a JSON line in `--output stream-json`), which for `seq 1 5000000` meant thousands of
 * events carrying 38 MB that nobody reads; the screen shows the last lines anyway.
 */
export class LiveOutput {
  private readonly decoder = new StringDecoder('utf8');
  private sent = 0;
  private skippedLines = 0;
  private skippedBytes = 0;
  private pending: { readonly bytes: Buffer; readonly lines: number }[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly budget = 64 * 1024,
    private readonly intervalMs = 100,
    private readonly tailBytes = 2 * 1024,
  ) {}

  /** `lines`: the chunk's newlines, when the caller counted them already. */
  push(chunk: Buffer, lines?: number): void {
    if (this.sent < this.budget) {
      const take = chunk.subarray(0, this.budget - this.sent);
      this.sent += take.length;
      const text = this.decoder.write(take);
      if (text !== '') this.emit(text);
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
      const rest = this.decoder.end();
      if (rest !== '') this.emit(rest);
      // Only the part past the budget waits here; its lines are counted once, now.
      lines = undefined;
    }
    this.pending.push({ bytes: chunk, lines: lines ?? countLines(chunk) });
    this.pendingBytes += chunk.length;
    while (this.pendingBytes - (this.pending[0]?.bytes.length ?? 0) >= this.tailBytes) {
      const dropped = this.pending.shift()!;
      this.pendingBytes -= dropped.bytes.length;
      this.skippedBytes += dropped.bytes.length;
      this.skippedLines += dropped.lines;
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends what is waiting (at the end, and on each tick). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes === 0) return;
    let tail = Buffer.concat(this.pending.map((entry) => entry.bytes));
    this.pending = [];
    this.pendingBytes = 0;
    // After a skip, start at a line boundary: the screen shows whole lines.
    if (this.skippedBytes > 0) {
      const cut = tail.indexOf(NEWLINE);
      if (cut !== -1 && cut < tail.length - 1) {
        this.skippedBytes += cut + 1;
        this.skippedLines += 1;
        tail = tail.subarray(cut + 1);
      }
    }
    const notice = this.skippedBytes > 0 ? `\n${cutNotice(this.skippedLines, this.skippedBytes)}\n` : '';
    this.skippedBytes = 0;
    this.skippedLines = 0;
    this.emit(`${notice}${tail.toString('utf8')}`);
  }
}
