import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PlannedStatement } from './sql-plan.js';
import type { StatementResult } from './sql-results.js';

/**
 * SQLite reads run in a child process with its own read-only handle. SQLite has no interrupt
 * reachable from better-sqlite3, and a worker thread cannot be stopped either while it is inside
 * native code (`Worker.terminate` waits for JavaScript: an endless `WITH RECURSIVE` kept spinning
 * at 100% CPU, holding its read lock, so the session's and other programs' writes failed
 * "database is locked" and riskgate never exited). A process can be killed: at the deadline it
 * gets SIGKILL, the operating system releases its file locks, and the next read starts a fresh
 * one. `PRAGMA hard_heap_limit` caps what SQLite may allocate; cells are cut before they cross.
 */

/** SQLite's heap in the reader process: a runaway value fails, riskgate does not. */
export const SQLITE_HEAP_LIMIT_BYTES = 512 * 1024 * 1024;
/**
 * Counting the rows past the kept ones while the statement runs may take this long, or as long as
 * the statement took to its first row if longer; then a count-only run counts the rest.
 */
export const COUNT_WHILE_READING_MS = 10;
/** Longest text or blob cell sent to riskgate. */
export const MAX_CELL_BYTES = 64 * 1024;

const READER_SOURCE = `
const workerData = JSON.parse(process.env.RISKGATE_SQLITE_READER);
const parentPort = { postMessage: (message) => process.send(message), on: (event, listener) => process.on(event, listener) };
process.on('disconnect', () => process.exit(0));
const Database = require(workerData.module);
const database = new Database(workerData.path, { readonly: true, fileMustExist: true });
// The file riskgate's assessor judges is the one it opened: a file moved over the path since then (a
// new inode) would be read here unjudged, its credential keys and views unseen. Checked after the open:
// a rename between the open and the check is refused too.
if (workerData.identity !== undefined) {
  const stats = require('node:fs').statSync(workerData.path, { bigint: true });
  if (String(stats.dev) !== workerData.identity.dev || String(stats.ino) !== workerData.identity.ino) {
    process.stderr.write('the database file was replaced since riskgate opened it (another file at the same path); open it again');
    process.exit(3);
  }
}
database.pragma('busy_timeout = 5000');
database.pragma('hard_heap_limit = ' + workerData.heapLimit);
parentPort.postMessage({ ready: true });
const cut = (value) => {
  if (typeof value === 'string' && value.length > workerData.maxCell) return value.slice(0, workerData.maxCell) + '…';
  if (Buffer.isBuffer(value) && value.length > workerData.maxCell) return value.subarray(0, workerData.maxCell);
  return value;
};
// Statements stay prepared between reads (a client repeating a query; a bound on memory). SQLite
// prepares one again itself when the schema changed, and its columns are read after its rows.
const preparedByText = new Map();
const prepare = (text) => {
  let prepared = preparedByText.get(text);
  if (prepared !== undefined) return prepared;
  prepared = database.prepare(text);
  if (prepared.reader) prepared.raw(true);
  if (preparedByText.size >= 64) preparedByText.delete(preparedByText.keys().next().value);
  preparedByText.set(text, prepared);
  return prepared;
};
parentPort.on('message', ({ id, statements, maxRows }) => {
  const results = [];
  try {
    for (const statement of statements) {
      const prepared = prepare(statement.text);
      if (!prepared.reader) throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
      const rows = [];
      let total = 0;
      let counted = true;
      // The rows past the kept ones are counted as they come, so the statement runs once (a
      // GROUP BY over a million rows, counted by a second run, took twice its time). Counting
      // them here turns each into JavaScript values, though: once that has cost as much as a
      // second run would (the time the statement took to its first row, at least countMs), the
      // rest is counted by SQLite alone in a count-only run, which it answers from the table
      // for a plain scan: about twice the cheaper of the two at worst, never the statement twice for a small result.
      const started = performance.now();
      let firstRowMs = -1;
      let countingSince = started;
      for (const row of prepared.iterate()) {
        if (firstRowMs < 0) firstRowMs = performance.now() - started;
        total++;
        if (rows.length < maxRows) {
          rows.push(row.map(cut));
          if (rows.length === maxRows) countingSince = performance.now();
        } else if ((total & 1023) === 0 && performance.now() - countingSince > Math.max(firstRowMs, workerData.countMs)) {
          counted = false;
          break;
        }
      }
      // The columns as SQLite stepped the statement, never as it was prepared: a schema changed by
      // another connection since this one last read it (a column renamed to password) makes the
      // first step prepare the statement again, and the rows then carry the new columns — named
      // by the old list, the password cells went to the model unnamed, so never withheld.
      const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type }));
      if (rows.some((row) => row.length !== columns.length)) throw new Error('the schema changed while the statement ran; run it again');
      // A text that cannot be wrapped (a trailing comment, a pragma) is stepped through, one column only.
      if (!counted) {
        try {
          total = database.prepare('SELECT count(*) FROM (' + statement.text + '\\n)').pluck(true).get();
        } catch {
          total = 0;
          for (const _ of database.prepare(statement.text).pluck(true).iterate()) total++;
        }
      }
      results.push({ statement: statement.normalized, columns, rows, truncated: total > maxRows, totalRows: total, affectedRows: null });
    }
    parentPort.postMessage({ id, results });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

export class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly statementIndex: number | undefined,
  ) {
    super(message);
  }
}
export class SqliteReadStopped extends Error {
  constructor(readonly why: 'timeout' | 'cancelled') {
    super(why);
  }
}

/** util-linux's setpriv, to tie the reader's life to riskgate's (PR_SET_PDEATHSIG). */
const PARENT_DEATH_SIGNAL =
  process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path)) : undefined;

/** Readers alive in this process: killed when riskgate exits, however it exits (but SIGKILL, see above). */
const LIVE_READERS = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of LIVE_READERS) child.kill('SIGKILL');
});

export class SqliteReader {
  private reader: { process: ChildProcess; ready: Promise<void> } | undefined;
  private nextId = 0;

  /** `identity`: the device and inode of the file the assessor's connection opened (the reader refuses another). */
  constructor(
    private readonly path: string,
    private readonly identity?: { readonly dev: string; readonly ino: string },
  ) {}

  /** The process, once it has opened the database: its start-up does not count against a statement's time. */
  private start(): { process: ChildProcess; ready: Promise<void> } {
    if (this.reader !== undefined) return this.reader;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const settings = JSON.stringify({
      module,
      path: this.path,
      identity: this.identity,
      heapLimit: SQLITE_HEAP_LIMIT_BYTES,
      maxCell: MAX_CELL_BYTES,
      countMs: COUNT_WHILE_READING_MS,
    });
    // `advanced` serialization carries Buffers and BigInts as they are. Where setpriv exists
    // (Linux), the reader is killed with riskgate even when riskgate is killed with SIGKILL and
    // the reader is deep in SQLite (it could not hear the IPC channel close).
    const [command, ...prefix] =
      PARENT_DEATH_SIGNAL === undefined
        ? [process.execPath]
        : [PARENT_DEATH_SIGNAL, '--pdeathsig', 'KILL', process.execPath];
    const child = spawn(command!, [...prefix, '-e', READER_SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, RISKGATE_SQLITE_READER: settings },
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    // An idle reader never keeps riskgate running; a read in progress does (its timer).
    child.unref();
    child.channel?.unref();
    const ready = new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`the SQLite reader exited (${signal ?? code}) before it started: ${stderr.trim()}`)),
      );
    });
    ready.catch(() => {});
    const started = { process: child, ready };
    LIVE_READERS.add(child);
    child.once('exit', () => {
      LIVE_READERS.delete(child);
      if (this.reader === started) this.reader = undefined;
    });
    this.reader = started;
    return started;
  }

  /** Runs the reads; a timeout or an abort kills the process (a new one starts with the next read). */
  async read(
    statements: readonly PlannedStatement[],
    options: { maxRows: number; timeoutMs: number; signal: AbortSignal },
  ): Promise<StatementResult[]> {
    const started = this.start();
    try {
      await started.ready;
    } catch (error) {
      this.reader = undefined;
      throw new SqliteReadError((error as Error).message, undefined, undefined);
    }
    const child = started.process;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const stop = (why: 'timeout' | 'cancelled') => {
        cleanup();
        if (this.reader === started) this.reader = undefined;
        child.kill('SIGKILL');
        reject(new SqliteReadStopped(why));
      };
      const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      const onAbort = () => stop('cancelled');
      const onMessage = (message: {
        id?: number;
        results?: StatementResult[];
        error?: { message: string; code?: string };
      }) => {
        if (message.id !== id) return;
        cleanup();
        if (message.error !== undefined)
          reject(new SqliteReadError(message.error.message, message.error.code, undefined));
        else resolve(message.results ?? []);
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        // Killed from outside, or out of memory: the read did not finish; it could not write.
        reject(
          new SqliteReadError(
            `the SQLite reader stopped (${signal ?? `exit ${code}`}) before the read finished`,
            undefined,
            undefined,
          ),
        );
      };
      const cleanup = () => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      if (options.signal.aborted) return stop('cancelled');
      options.signal.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({
        id,
        statements: statements.map((statement) => ({ text: statement.text, normalized: statement.normalized })),
        maxRows: options.maxRows,
      });
    });
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    reader?.process.kill('SIGKILL');
  }
}
