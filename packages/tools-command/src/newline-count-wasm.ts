/**
 * Newlines counted sixteen bytes at a time with WebAssembly's SIMD: `seq 1 5000000` is 38 MB,
 * and the exact count of its lines (for "… N more lines not shown …") is the largest part of
 * riskgate's own work in reading it. 3–9 ms for those 38 MB (the CLI runs WebAssembly on
 * Liftoff only: the upper figure), against 12–30 ms for four bytes at a time in JavaScript
 * (countLines' fallback, used where WebAssembly's SIMD is not available).
 *
 * The module is written out here instruction by instruction rather than shipped as a binary,
 * so that what it does can be read: `count(length)` returns the number of 0x0a bytes among the
 * first `length` bytes of its memory, which the caller fills (at most WINDOW bytes at a time).
 * Its memory is two pages; an extra memory reserves address space (10 GB), which does not make
 * spawning slower (measured: 1.3–3.3 ms for a spawn with none or three more, the noise).
 */

/** Bytes counted per call: the module's memory is two 64 KiB pages. */
const WINDOW = 64 * 1024;

// Locals of count(length): 0 length, 1 i, 2 end, 3 k, 4 result (i32); 5 acc, 6 total, 7 newlines (v128).
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const simd = (opcode: number) => [0xfd, ...unsignedLeb(opcode)];
/** acc -= (16 bytes at i + offset == newlines): a matching lane's byte goes up by one. */
const countVector = (offset: number) => [
  ...get(1),
  ...simd(0x00), // v128.load
  0x00,
  offset, // memarg: alignment hint 1, offset
  ...get(7),
  ...simd(0x23), // i8x16.eq: 0xff where the byte is a newline
  ...simd(0x71), // i8x16.sub
];

const BODY = [
  0x02,
  0x04,
  0x7f, // four i32 locals
  0x03,
  0x7b, // three v128 locals (zeroed, as every local)
  ...[0x41, 0x0a, ...simd(0x0f), ...set(7)], // newlines = i8x16.splat(10)
  ...[...get(0), 0x41, 0x40, 0x71, ...set(2)], // end = length & -64
  ...[0x02, 0x40, 0x03, 0x40], // block; loop (over runs of up to 63 × 64 bytes)
  ...[...get(1), ...get(2), 0x4f, 0x0d, 0x01], // i >= end: out of the block
  ...[...simd(0x0c), ...new Array<number>(16).fill(0), ...set(5)], // acc = 0
  ...[0x41, 0x00, ...set(3)], // k = 0
  ...[0x03, 0x40], // loop: 64 bytes into acc's sixteen byte lanes, at most 63 times (63 × 4 < 256)
  ...get(5),
  ...countVector(0),
  ...countVector(16),
  ...countVector(32),
  ...countVector(48),
  ...set(5),
  ...[...get(1), 0x41, 0xc0, 0x00, 0x6a, ...tee(1), ...get(2), 0x49], // (i += 64) < end
  ...[...get(3), 0x41, 0x01, 0x6a, ...tee(3), 0x41, 0x3f, 0x49], // (k += 1) < 63
  ...[0x71, 0x0d, 0x00, 0x0b], // both: again; end of the inner loop
  // total += acc's byte lanes widened to four i32 lanes
  ...[...get(6), ...get(5), ...simd(0x7d), ...simd(0x7f), ...simd(0xae), ...set(6)],
  ...[0x0c, 0x00, 0x0b, 0x0b], // again; end of the loop and the block
  // result = the sum of total's four lanes
  ...[...get(6), ...simd(0x1b), 0x00, ...get(6), ...simd(0x1b), 0x01, 0x6a],
  ...[...get(6), ...simd(0x1b), 0x02, 0x6a, ...get(6), ...simd(0x1b), 0x03, 0x6a, ...set(4)],
  // the last bytes (fewer than 64), one at a time
  ...[0x02, 0x40, 0x03, 0x40, ...get(1), ...get(0), 0x4f, 0x0d, 0x01],
  ...[...get(4), ...get(1), 0x2d, 0x00, 0x00, 0x41, 0x0a, 0x46, 0x6a, ...set(4)], // result += (byte == 10)
  ...[...get(1), 0x41, 0x01, 0x6a, ...set(1), 0x0c, 0x00, 0x0b, 0x0b],
  ...get(4),
  0x0b,
];

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

const section = (id: number, content: readonly number[]) => [id, ...unsignedLeb(content.length), ...content];
const name = (text: string) => [text.length, ...Buffer.from(text, 'latin1')];

function moduleBytes(): Uint8Array {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]), // one type: (i32) -> i32
    ...section(3, [0x01, 0x00]), // one function of that type
    ...section(5, [0x01, 0x00, 0x02]), // one memory of two pages
    ...section(7, [0x02, ...name('count'), 0x00, 0x00, ...name('memory'), 0x02, 0x00]),
    ...section(10, [0x01, ...unsignedLeb(BODY.length), ...BODY]),
  ]);
}

interface Counter {
  readonly count: (length: number) => number;
  readonly memory: Uint8Array;
}

let counter: Counter | null | undefined;

/** The part of the WebAssembly API used here (its types come with the DOM's, not Node's). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: Readonly<Record<string, unknown>> };
}

/** Compiled at the first long chunk; null where WebAssembly or its SIMD is not available. */
function wasmCounter(): Counter | null {
  if (counter !== undefined) return counter;
  try {
    const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
    if (api === undefined) throw new Error('no WebAssembly');
    const instance = new api.Instance(new api.Module(moduleBytes()));
    const memory = instance.exports.memory as { readonly buffer: ArrayBuffer };
    counter = { count: instance.exports.count as (length: number) => number, memory: new Uint8Array(memory.buffer) };
  } catch {
    counter = null;
  }
  return counter;
}

/** The newlines in `bytes`, or undefined when WebAssembly's SIMD is not available here. */
export function wasmNewlines(bytes: Uint8Array): number | undefined {
  const wasm = wasmCounter();
  if (wasm === null) return undefined;
  let count = 0;
  for (let start = 0; start < bytes.length; start += WINDOW) {
    const part = bytes.subarray(start, start + WINDOW);
    wasm.memory.set(part);
    count += wasm.count(part.length);
  }
  return count;
}
