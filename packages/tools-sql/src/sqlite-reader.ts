import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqlStatementText } from './sql-lexer.js';
import type { StatementResult } from './sql-results.js';

/**
 * Whitelisted SQLite reads run on a worker thread with their own read-only handle: SQLite has
 * no interrupt reachable from better-sqlite3, so a read that runs too long (an endless
 * `WITH RECURSIVE`) is stopped by terminating the thread, and riskgate's own thread never
 * blocks. `PRAGMA hard_heap_limit` caps what SQLite may allocate; cells are cut before they
 * cross to the main thread.
 */

/** SQLite's heap in this process (a process-wide setting): a runaway value fails, riskgate does not. */
export const SQLITE_HEAP_LIMIT_BYTES = 512 * 1024 * 1024;
/** Longest text or blob cell sent to the main thread. */
export const MAX_CELL_BYTES = 64 * 1024;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const database = new Database(workerData.path, { readonly: true, fileMustExist: true });
database.pragma('busy_timeout = 5000');
database.pragma('hard_heap_limit = ' + workerData.heapLimit);
parentPort.postMessage({ ready: true });
const cut = (value) => {
  if (typeof value === 'string' && value.length > workerData.maxCell) return value.slice(0, workerData.maxCell) + '…';
  if (Buffer.isBuffer(value) && value.length > workerData.maxCell) return value.subarray(0, workerData.maxCell);
  return value;
};
parentPort.on('message', ({ id, statements, maxRows }) => {
  const results = [];
  try {
    for (const statement of statements) {
      const prepared = database.prepare(statement.text);
      if (!prepared.reader) throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
      prepared.raw(true);
      const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type }));
      const rows = [];
      let total = 0;
      let more = false;
      for (const row of prepared.iterate()) {
        if (rows.length === maxRows) {
          more = true;
          break;
        }
        total++;
        rows.push(row.map(cut));
      }
      // The rest is counted by SQLite without turning rows into JavaScript values; a text that
      // cannot be wrapped (a trailing comment, a pragma) is stepped through, one column only.
      if (more) {
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
  constructor(message: string, readonly code: string | undefined, readonly statementIndex: number | undefined) {
    super(message);
  }
}
export class SqliteReadStopped extends Error {
  constructor(readonly why: 'timeout' | 'cancelled') {
    super(why);
  }
}

export class SqliteReader {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private nextId = 0;

  constructor(private readonly path: string) {}

  /** The thread, once it has opened the database: its start-up does not count against a statement's time. */
  private start(): { thread: Worker; ready: Promise<void> } {
    if (this.worker !== undefined) return this.worker;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path: this.path, heapLimit: SQLITE_HEAP_LIMIT_BYTES, maxCell: MAX_CELL_BYTES } });
    thread.unref();
    const ready = new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      thread.once('error', reject);
    });
    ready.catch(() => {});
    this.worker = { thread, ready };
    return this.worker;
  }

  /** Runs the reads; a timeout or an abort terminates the thread (a new one starts with the next read). */
  async read(statements: readonly SqlStatementText[], options: { maxRows: number; timeoutMs: number; signal: AbortSignal }): Promise<StatementResult[]> {
    const started = this.start();
    try {
      await started.ready;
    } catch (error) {
      this.worker = undefined;
      throw new SqliteReadError((error as Error).message, undefined, undefined);
    }
    const worker = started.thread;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const stop = (why: 'timeout' | 'cancelled') => {
        cleanup();
        this.worker = undefined;
        void worker.terminate();
        reject(new SqliteReadStopped(why));
      };
      const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      const onAbort = () => stop('cancelled');
      const onMessage = (message: { id: number; results?: StatementResult[]; error?: { message: string; code?: string } }) => {
        if (message.id !== id) return;
        cleanup();
        if (message.error !== undefined) reject(new SqliteReadError(message.error.message, message.error.code, undefined));
        else resolve(message.results ?? []);
      };
      const onError = (error: Error) => {
        cleanup();
        this.worker = undefined;
        reject(new SqliteReadError(error.message, undefined, undefined));
      };
      const cleanup = () => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      if (options.signal.aborted) return stop('cancelled');
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, statements: statements.map((statement) => ({ text: statement.text, normalized: statement.normalized })), maxRows: options.maxRows });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.thread.terminate();
  }
}
