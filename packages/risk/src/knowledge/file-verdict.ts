import { spawnSync } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { contentHoldsSecret } from './content-secret.js';
import { type AnyStats, identityKey, settledBefore } from './file-identity.js';

/**
 * One verdict per file, for the judge's reads, the tree scans and the sandbox's workspace scan:
 * what the file's whole content says, read once and remembered until the file changes.
 *
 * Reading only a file's head let secrets through that lay past it (the red team put one 300 KiB
 * into a log: `grep PASSWORD big.log | rev`), and compressed files hid theirs from any text test
 * (`zcat .env.gz | rev`, `unzip -p creds.zip`). So:
 *
 * - a file is read whole up to `MAX_FILE_BYTES`, and tested in overlapping chunks;
 * - gzip (and so `.tar.gz`), zip, bzip2, xz and zstd are unpacked, bounded by the same number of
 *   bytes (bzip2, xz and zstd by their own programs, with a time bound: Node has no decoder);
 * - what cannot be checked — larger than the bound, unpacking past it, a compression that cannot
 *   be read here, an archive inside an archive — is `unchecked`: the sandbox hides it and the
 *   judge asks, as for a secret. A file nobody could check is not known to hold none.
 */
export interface FileVerdict {
  /** What secret the content holds ("the value of DB_PASSWORD"), if any. */
  readonly secret?: string;
  /** Why the content could not be checked whole, if it could not. */
  readonly unchecked?: string;
}

/** Files larger than this are not read whole: a 10 MB log is checked, a 200 MB dump is not. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Chunks of text tested at a time, and how much they overlap so no secret is cut in two. */
const CHUNK = 256 * 1024;
const OVERLAP = 4 * 1024;
/** Time an external decompressor may take. */
const UNPACK_MS = 2_000;

interface Cached {
  readonly key: string;
  readonly verdict: FileVerdict;
}

/** Verdicts that may be reused (file-identity.ts: the whole identity, and times settled before the read). */
const cache = new Map<string, Cached>();
const MAX_CACHED = 100_000;

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/**
 * The verdict on the regular file at `path` (`stats` its lstat or stat, to key the cache): the
 * content test over the whole file, unpacked. Undefined when it cannot be opened.
 */
export function fileVerdict(path: string, stats: AnyStats): FileVerdict | undefined {
  const key = identityKey(stats);
  const cached = cache.get(path);
  if (cached?.key === key) return cached.verdict;
  // Taken before the read: a write after it that kept the key (same tick) is ruled out by `settledBefore`.
  const readAt = Date.now();
  const verdict = judge(path, stats);
  if (verdict === undefined) return undefined;
  if (cache.size >= MAX_CACHED) cache.clear();
  if (settledBefore(stats, readAt)) cache.set(path, { key, verdict });
  else cache.delete(path);
  return verdict;
}

/** Verdicts held, for tests of the cache's rules. */
export function cachedVerdictCount(): number {
  return cache.size;
}

function judge(path: string, stats: AnyStats): FileVerdict | undefined {
  const size = Number(stats.size);
  if (size > MAX_FILE_BYTES)
    return {
      unchecked: `a file too large to check for secrets (${mebibytes(size)}, over ${mebibytes(MAX_FILE_BYTES)})`,
    };
  const bytes = readWhole(path, size);
  if (bytes === undefined) return undefined;
  return verdictOf(bytes, 0);
}

/** The whole file, or undefined when it cannot be read (O_NONBLOCK: a file swapped for a pipe must not hang the judge). */
function readWhole(path: string, size: number): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(size, MAX_FILE_BYTES));
    let read = 0;
    while (read < buffer.length) {
      const got = readSync(descriptor, buffer, read, buffer.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Compressions by their magic bytes, with the program that unpacks those Node cannot. */
const PACKED: readonly {
  readonly what: string;
  readonly magic: readonly number[];
  readonly program?: readonly [string, ...string[]];
}[] = [
  { what: 'gzip', magic: [0x1f, 0x8b] },
  { what: 'zip', magic: [0x50, 0x4b, 0x03, 0x04] },
  { what: 'bzip2', magic: [0x42, 0x5a, 0x68], program: ['bzip2', '-dc'] },
  { what: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], program: ['xz', '-dc'] },
  { what: 'zstd', magic: [0x28, 0xb5, 0x2f, 0xfd], program: ['zstd', '-dc'] },
];

function packing(bytes: Buffer): (typeof PACKED)[number] | undefined {
  return PACKED.find((entry) => entry.magic.every((byte, index) => bytes[index] === byte));
}

function verdictOf(bytes: Buffer, depth: number): FileVerdict {
  const packed = packing(bytes);
  if (packed === undefined) return textVerdict(bytes);
  // An archive inside an archive inside an archive: not followed further.
  if (depth >= 2) return { unchecked: `${packed.what} data nested in other compressed data` };
  if (packed.what === 'zip') return zipVerdict(bytes, depth);
  let unpacked: Buffer | undefined;
  try {
    unpacked =
      packed.program === undefined
        ? gunzipSync(bytes, { maxOutputLength: MAX_FILE_BYTES })
        : unpackWith(packed.program, bytes);
  } catch {
    unpacked = undefined;
  }
  if (unpacked === undefined)
    return {
      unchecked: `${packed.what}-compressed data that could not be unpacked within ${mebibytes(MAX_FILE_BYTES)}`,
    };
  const inner = verdictOf(unpacked, depth + 1);
  return inner.secret === undefined ? inner : { secret: `${inner.secret} (${packed.what}-compressed)` };
}

function unpackWith([program, ...args]: readonly [string, ...string[]], bytes: Buffer): Buffer | undefined {
  const result = spawnSync(program, args, {
    input: bytes,
    maxBuffer: MAX_FILE_BYTES,
    timeout: UNPACK_MS,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  if (result.error !== undefined || result.status !== 0 || result.stdout === null) return undefined;
  return result.stdout;
}

/** Each member of a zip archive, by its central directory (sizes in local headers may be zero). */
function zipVerdict(bytes: Buffer, depth: number): FileVerdict {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > bytes.length) return { unchecked: 'a zip archive whose directory could not be read' };
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let member = 0; member < count; member++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50)
      return { unchecked: 'a zip archive whose directory could not be read' };
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (flags & 1) return { unchecked: `an encrypted member of a zip archive (${name})` };
    total += size;
    if (total > MAX_FILE_BYTES || compressed === 0xffffffff)
      return { unchecked: `a zip archive larger than ${mebibytes(MAX_FILE_BYTES)} unpacked` };
    if (local + 30 > bytes.length) return { unchecked: 'a zip archive whose members could not be read' };
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + compressed);
    let content: Buffer;
    try {
      if (method === 0) content = data;
      else if (method === 8) content = inflateRawSync(data, { maxOutputLength: MAX_FILE_BYTES });
      else return { unchecked: `a zip member packed in a way riskgate cannot read (${name})` };
    } catch {
      return { unchecked: `a zip member that could not be unpacked (${name})` };
    }
    const inner = verdictOf(content, depth + 1);
    if (inner.secret !== undefined) return { secret: `${inner.secret} (in ${name}, zipped)` };
    if (inner.unchecked !== undefined) return inner;
  }
  return {};
}

/** The content test over the whole text, chunk by chunk (bounded regex work per call, no secret cut in two). */
function textVerdict(bytes: Buffer): FileVerdict {
  if (bytes.length === 0) return {};
  for (let start = 0; start < bytes.length; start += CHUNK) {
    // UTF-8 for the content test: an ellipsis (`sk-…` in a README) is one character, not three.
    // NUL runs end lines: a tar member's text follows its header's padding, not a newline.
    const text = bytes.toString('utf8', start, Math.min(bytes.length, start + CHUNK + OVERLAP));
    const secret = contentHoldsSecret(text.includes('\0') ? text.replace(/\0+/g, '\n') : text);
    if (secret !== undefined) return { secret };
  }
  return {};
}
