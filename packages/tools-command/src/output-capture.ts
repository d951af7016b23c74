import { StringDecoder } from 'node:string_decoder';

const NEWLINE = 0x0a;

/**
 * Newlines in a chunk. Counted once per chunk by the runner and handed to every consumer (the
 * model's head and tail, the screen's live view): `seq 1 5000000` is 38 MB of 8-byte lines, and
 * two counts with one `indexOf` call per line took 73 of the 88 ms spent reading it. Four bytes
 * at a time (a word XORed with four newlines has a zero byte per newline; the zero bytes are
 * counted without a branch), four words per step: their per-byte flags (at most 4 per byte) are
 * added before one multiply sums the bytes. 14–20 ms for those 38 MB against 18–28 ms one word
 * per step (where the multiply and shifts were half the work), 28–41 ms for a byte loop. Signed
 * words: a Uint32Array element above 2^31 is a double to V8 until the first bitwise operation.
 */
export function countLines(buffer: Uint8Array): number {
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

  result(): { head: Buffer; tail: Buffer; dropped: number; droppedLines: number } {
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.half) tail = tail.subarray(tail.length - this.half);
    const head = Buffer.concat(this.head);
    const dropped = this.total - head.length - tail.length;
    return { head, tail, dropped, droppedLines: dropped === 0 ? 0 : this.lines - countLines(head) - countLines(tail) };
  }
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
