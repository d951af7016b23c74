import {
  appendFileSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
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
  private readonly appender: Appender;

  constructor(
    readonly path: string,
    private readonly onFault: (message: string) => void = () => {},
  ) {
    this.appender = new Appender(path);
    DESCRIPTORS.register(this, this.appender);
  }

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
      this.appender.append(`${JSON.stringify(value)}\n`);
      return true;
    } catch (error) {
      this.failed = true;
      this.appender.close();
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

/** A file's descriptor is closed when its JsonlFile is collected (tests open hundreds); the process's end closes the rest. */
const DESCRIPTORS = new FinalizationRegistry<Appender>((appender) => appender.close());

/**
 * One record as ONE write on an O_APPEND descriptor, so records of processes sharing the file (the
 * audit log of two sessions) never interleave. When the file does not end with a newline — another
 * process was killed mid-write after this one checked the file — the record starts with one, so it
 * stays a line of its own (readers skip the cut one). A short write (the disk filled up mid-record)
 * is a fault: the rest is not written after it.
 *
 * The descriptor stays open between records (opening the file, a second descriptor to read its last
 * byte and two closes per record cost ~0.07 ms of every audited call, twice). What that must not
 * change: a record always lands in the file now at the path — one moved away or deleted (log
 * rotation, a person clearing it) is opened again, as a fresh open per record did — and the last
 * byte is read again whenever the file's size is not the one this process's last write left.
 */
class Appender {
  private descriptor: number | undefined;
  private identity = '';
  /** The file's size just after this process's last record; -1 when unknown. */
  private end = -1;

  constructor(private readonly path: string) {}

  append(text: string): void {
    const descriptor = this.open();
    const size = fstatSync(descriptor).size;
    let fresh = true;
    if (size > 0 && size !== this.end) {
      const last = Buffer.alloc(1);
      readSync(descriptor, last, 0, 1, size - 1);
      fresh = last[0] === 0x0a;
    }
    const record = Buffer.from(fresh ? text : `\n${text}`, 'utf8');
    this.end = -1;
    const written = writeSync(descriptor, record);
    if (written < record.length)
      throw Object.assign(new Error(`only ${written} of ${record.length} bytes were written`), { code: 'ENOSPC' });
    this.end = size + written;
  }

  /** The descriptor of the file at the path now: the kept one while the path still names its file. */
  private open(): number {
    let current = '';
    try {
      const stats = statSync(this.path);
      current = `${stats.dev}:${stats.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (this.descriptor !== undefined && current === this.identity) return this.descriptor;
    this.close();
    // Read and append (O_RDWR | O_APPEND): the last byte is read through the same descriptor.
    const descriptor = openSync(this.path, 'a+', 0o600);
    const stats = fstatSync(descriptor);
    this.descriptor = descriptor;
    this.identity = `${stats.dev}:${stats.ino}`;
    this.end = -1;
    return descriptor;
  }

  close(): void {
    if (this.descriptor === undefined) return;
    try {
      closeSync(this.descriptor);
    } catch {
      // Already closed: nothing to release.
    }
    this.descriptor = undefined;
    this.end = -1;
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
