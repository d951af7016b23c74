import { appendFileSync, closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** How much of a file's end is read to find a line cut short by a crash (a longer cut line is cut here too). */
const TAIL_BYTES = 1024 * 1024;

/**
 * An append-only JSON-lines file that survives the faults of the disk it is on.
 *
 * - A last line cut short by a crash (SIGKILL mid-write, a full disk) is moved to `<file>.torn`
 *   before the first append of this process, so the next record starts on a fresh line and is
 *   readable, and the cut text is kept for whoever investigates.
 * - A write that fails (a full or read-only disk, a directory that cannot be created) is
 *   reported once through `onFault`; the file is not written again in this process, and the
 *   session goes on (what the caller keeps in memory stays right).
 */
export class JsonlFile {
  private checked = false;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly onFault: (message: string) => void = () => {},
  ) {}

  /** Whether writing has failed in this process (the file is no longer written). */
  get broken(): boolean {
    return this.failed;
  }

  append(value: unknown): boolean {
    if (this.failed) return false;
    try {
      if (!this.checked) {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        setAsideTornTail(this.path);
        this.checked = true;
      }
      appendRecord(this.path, `${JSON.stringify(value)}\n`);
      return true;
    } catch (error) {
      this.failed = true;
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOSPC'
          ? 'the disk is full'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : code === 'EACCES' || code === 'EPERM'
              ? 'permission denied'
              : code === 'ENOENT'
                ? 'its folder cannot be created'
                : (error as Error).message;
      this.onFault(`cannot write ${this.path} (${why}); from now on this session is kept in memory only`);
      return false;
    }
  }
}

/**
 * One record as ONE write on an O_APPEND descriptor, so records of processes sharing the file (the
 * audit log of two sessions) never interleave. When the file does not end with a newline — another
 * process was killed mid-write after this one checked the file — the record starts with one, so it
 * stays a line of its own (readers skip the cut one). A short write (the disk filled up mid-record)
 * is a fault: the rest is not written after it.
 */
function appendRecord(path: string, text: string): void {
  const descriptor = openSync(path, 'a', 0o600);
  try {
    const size = fstatSync(descriptor).size;
    let fresh = true;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const reader = openSync(path, 'r');
      try {
        readSync(reader, last, 0, 1, size - 1);
      } finally {
        closeSync(reader);
      }
      fresh = last[0] === 0x0a;
    }
    const record = Buffer.from(fresh ? text : `\n${text}`, 'utf8');
    const written = writeSync(descriptor, record);
    if (written < record.length)
      throw Object.assign(new Error(`only ${written} of ${record.length} bytes were written`), { code: 'ENOSPC' });
  } finally {
    closeSync(descriptor);
  }
}

/** Moves a last line without its newline into `<path>.torn` and cuts it off the file. */
function setAsideTornTail(path: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const size = fstatSync(descriptor).size;
    if (size === 0) return;
    const length = Math.min(size, TAIL_BYTES);
    const tail = Buffer.alloc(length);
    readSync(descriptor, tail, 0, length, size - length);
    if (tail[length - 1] === 0x0a) return;
    const lastNewline = tail.lastIndexOf(0x0a);
    if (lastNewline === -1 && size > length) {
      // A cut line longer than the tail read: end it where it is; readers skip a line they cannot parse.
      appendFileSync(path, '\n');
      return;
    }
    const cutAt = size - length + lastNewline + 1;
    appendFileSync(`${path}.torn`, Buffer.concat([tail.subarray(lastNewline + 1), Buffer.from('\n')]), { mode: 0o600 });
    ftruncateSync(descriptor, cutAt);
  } finally {
    closeSync(descriptor);
  }
}
