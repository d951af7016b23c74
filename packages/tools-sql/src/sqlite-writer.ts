import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deserialize } from 'node:v8';
import { changesRows, type PlannedStatement } from './sql-plan.js';
import type { StatementResult } from './sql-results.js';
import { SQLITE_HEAP_LIMIT_BYTES } from './sqlite-reader.js';

/**
 * Confirmed SQLite statements run in a child process of their own, one per call, killed
 * (SIGKILL) at the deadline or on cancel. They used to run on riskgate's own thread: an endless
 * `UPDATE … (WITH RECURSIVE …)` blocked the event loop for good — no timeout, no Esc, no SIGTERM,
 * the write lock held against every other program. A killed process releases its locks, and
 * SQLite rolls back what it had not committed (the next handle finds the hot journal).
 *
 * The truth about what committed comes from markers the child writes to its stdout with a
 * synchronous write *before* each step: bytes in a pipe outlive the process that wrote them, so
 * after the kill riskgate reads every marker that was written. A script riskgate wraps in one
 * transaction is killed only before its COMMIT started ("nothing was changed"); once the COMMIT
 * began it is given time to finish, and one that still does not is "outcome unknown". A script
 * that manages its own transactions (or holds a statement that cannot run in one: VACUUM,
 * ATTACH) has no such point: stopped after a statement began, it is "outcome unknown".
 */

/** How long a COMMIT that has begun is waited for after the deadline before it is killed. */
export const COMMIT_GRACE_MS = 5_000;

const WRITER_SOURCE = `
const { writeSync } = require('node:fs');
const { serialize } = require('node:v8');
const settings = JSON.parse(process.env.RISKGATE_SQLITE_WRITER);
const say = (line) => writeSync(1, JSON.stringify(line) + '\\n');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const job = JSON.parse(input);
  const Database = require(settings.module);
  let database;
  try {
    database = new Database(settings.path, { fileMustExist: true });
    database.pragma('busy_timeout = 5000');
    database.pragma('hard_heap_limit = ' + settings.heapLimit);
  } catch (error) {
    say({ error: { message: error.message, code: error.code } });
    return;
  }
  say({ ready: true });
  if (job.preview) {
    // A rolled-back run that counts what each write would change; it never commits.
    database.exec('BEGIN');
    const changes = [];
    try {
      for (const statement of job.statements) {
        const prepared = database.prepare(statement.text);
        if (prepared.reader && !statement.counts) {
          const iterator = prepared.iterate();
          iterator.next();
          if (iterator.return) iterator.return();
          changes.push(null);
        } else if (prepared.reader) {
          let count = 0;
          for (const _row of prepared.iterate()) count++;
          changes.push(count);
        } else changes.push(prepared.run().changes);
      }
      say({ preview: changes });
    } catch (error) {
      say({ error: { message: error.message, code: error.code } });
    } finally {
      if (database.inTransaction) database.exec('ROLLBACK');
    }
    return;
  }
  const results = [];
  if (job.wrap) database.exec('BEGIN');
  for (const [index, statement] of job.statements.entries()) {
    say({ start: index });
    try {
      const prepared = database.prepare(statement.text);
      if (!prepared.reader) {
        const { changes } = prepared.run();
        results.push({ statement: statement.normalized, columns: [], rows: [], truncated: false, affectedRows: changes });
      } else {
        prepared.raw(true);
        const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type }));
        const rows = [];
        let truncated = false;
        for (const row of prepared.iterate()) {
          if (rows.length === job.maxRows) { truncated = true; break; }
          rows.push(row);
        }
        results.push({ statement: statement.normalized, columns, rows, truncated, affectedRows: statement.writes ? rows.length : null });
      }
    } catch (error) {
      if (job.wrap && database.inTransaction) database.exec('ROLLBACK');
      say({ error: { message: error.message, code: error.code, statementIndex: index + 1, rolledBack: job.wrap } });
      return;
    }
    say({ done: index });
  }
  if (job.wrap) {
    say({ committing: true });
    database.exec('COMMIT');
    say({ committed: true });
  }
  say({ results: serialize(results).toString('base64') });
  database.close();
});
`;

/** util-linux's setpriv, so a writer dies with riskgate even when riskgate is killed with SIGKILL. */
const PARENT_DEATH_SIGNAL =
  process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path)) : undefined;

/** Writers alive in this process: killed when riskgate exits however it exits (SIGKILL: see PARENT_DEATH_SIGNAL), so none commits behind its back. */
const LIVE_WRITERS = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of LIVE_WRITERS) child.kill('SIGKILL');
});

/** Statements that cannot run inside a transaction riskgate opens (transaction control aside, which the plan marks). */
const NOT_IN_A_TRANSACTION = new Set(['VACUUM', 'ATTACH', 'DETACH', 'PRAGMA']);

export type SqliteWriteOutcome =
  | { readonly kind: 'done'; readonly results: StatementResult[]; readonly late: boolean }
  | { readonly kind: 'preview'; readonly changes: readonly (number | null)[] }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly code: string | undefined;
      readonly statementIndex: number | undefined;
      readonly rolledBack: boolean;
    }
  | {
      readonly kind: 'stopped';
      readonly why: 'timeout' | 'cancelled' | 'exited';
      readonly changed: 'nothing' | 'unknown';
      readonly detail: string;
    };

interface Marker {
  readonly ready?: true;
  readonly start?: number;
  readonly done?: number;
  readonly committing?: true;
  readonly committed?: true;
  readonly results?: string;
  readonly preview?: (number | null)[];
  readonly error?: {
    readonly message: string;
    readonly code?: string;
    readonly statementIndex?: number;
    readonly rolledBack?: boolean;
  };
}

interface WriteOptions {
  readonly maxRows: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly commitGraceMs?: number;
  /** A rolled-back preview: for each statement, whether its rows are counted (a write with RETURNING). */
  readonly preview?: readonly boolean[];
}

/** What the writer left behind when it exited: its markers, why it was stopped, its last words. */
interface WriterEnd {
  readonly markers: readonly Marker[];
  readonly stopped: 'timeout' | 'cancelled' | undefined;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Runs confirmed statements on `path` in a child process bounded by `timeoutMs` and `signal`. */
export async function runSqliteWrite(
  path: string,
  statements: readonly PlannedStatement[],
  options: WriteOptions,
): Promise<SqliteWriteOutcome> {
  const wrap =
    options.preview === undefined &&
    !statements.some((statement) => statement.transactionControl || NOT_IN_A_TRANSACTION.has(statement.verb));
  const child = startWriter(path, {
    wrap,
    preview: options.preview !== undefined,
    maxRows: options.maxRows,
    statements: statements.map((statement, index) => ({
      text: statement.text,
      normalized: statement.normalized,
      writes: changesRows(statement),
      counts: options.preview?.[index] === true,
    })),
  });
  const end = await watchWriter(child, options);
  return outcomeOf(end, { wrap, preview: options.preview !== undefined, statements: statements.length });
}

/** The writer process, handed its job on stdin; it dies with riskgate. */
function startWriter(path: string, job: object): ChildProcessWithoutNullStreams {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const settings = JSON.stringify({ module, path, heapLimit: SQLITE_HEAP_LIMIT_BYTES });
  const [command, ...prefix] =
    PARENT_DEATH_SIGNAL === undefined
      ? [process.execPath]
      : [PARENT_DEATH_SIGNAL, '--pdeathsig', 'KILL', process.execPath];
  const child = spawn(command!, [...prefix, '-e', WRITER_SOURCE], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, RISKGATE_SQLITE_WRITER: settings },
  });
  LIVE_WRITERS.add(child);
  child.once('exit', () => LIVE_WRITERS.delete(child));
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify(job));
  return child;
}

/**
 * Reads the writer's markers until it exits, killing it at the deadline or on cancel — except
 * during a COMMIT that has begun, which is given `commitGraceMs` to finish (killing it would
 * leave its fate unknown).
 */
function watchWriter(child: ChildProcessWithoutNullStreams, options: WriteOptions): Promise<WriterEnd> {
  return new Promise((resolve) => {
    const markers: Marker[] = [];
    let pending = '';
    let stderr = '';
    let stopped: 'timeout' | 'cancelled' | undefined;
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = (why: 'timeout' | 'cancelled') => {
      if (stopped !== undefined) return;
      stopped = why;
      if (markers.some((marker) => marker.committing === true)) {
        graceTimer = setTimeout(() => child.kill('SIGKILL'), options.commitGraceMs ?? COMMIT_GRACE_MS);
        return;
      }
      child.kill('SIGKILL');
    };
    const onAbort = () => stop('cancelled');
    // A writer that never opens the database is bounded too.
    const startup = setTimeout(() => stop('timeout'), options.timeoutMs + 10_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let marker: Marker;
        try {
          marker = JSON.parse(line) as Marker;
        } catch {
          continue;
        }
        markers.push(marker);
        if (marker.ready === true) clearTimeout(startup);
        // The deadline counts from when the database is open: the child's start-up is not the statement's time.
        if (marker.ready === true && stopped === undefined)
          timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    if (options.signal.aborted) stop('cancelled');
    else options.signal.addEventListener('abort', onAbort, { once: true });
    // 'close': the process has exited and every byte it wrote has been read.
    child.once('close', (code, signal) => {
      clearTimeout(startup);
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ markers, stopped, code, signal, stderr });
    });
  });
}

/** What committed, from the markers the writer wrote before each step (see the top of this file). */
function outcomeOf(
  { markers, stopped, code, signal, stderr }: WriterEnd,
  run: { wrap: boolean; preview: boolean; statements: number },
): SqliteWriteOutcome {
  const seen = (test: (marker: Marker) => boolean) => markers.some(test);
  const error = markers.find((marker) => marker.error !== undefined)?.error;
  const results = markers.find((marker) => marker.results !== undefined)?.results;
  const preview = markers.find((marker) => marker.preview !== undefined)?.preview;
  if (preview !== undefined) return { kind: 'preview', changes: preview };
  if (run.preview && error === undefined)
    return {
      kind: 'stopped',
      why: stopped ?? 'exited',
      changed: 'nothing',
      detail: 'it ran in a transaction that is always rolled back, so nothing was changed',
    };
  if (results !== undefined)
    return {
      kind: 'done',
      results: deserialize(Buffer.from(results, 'base64')) as StatementResult[],
      late: stopped !== undefined,
    };
  if (error !== undefined)
    return {
      kind: 'error',
      message: error.message,
      code: error.code,
      statementIndex: error.statementIndex,
      rolledBack: error.rolledBack === true,
    };
  const why = stopped ?? 'exited';
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const exited =
    stopped === undefined
      ? `the SQLite writer stopped (${signal ?? `exit ${code}`}${last === '' ? '' : `: ${last}`}); `
      : '';
  const stoppedAfter = (changed: 'nothing' | 'unknown', detail: string): SqliteWriteOutcome => ({
    kind: 'stopped',
    why,
    changed,
    detail: exited + detail,
  });
  // Committed, and killed before its results came out: the change was made.
  if (seen((marker) => marker.committed === true))
    return stoppedAfter('unknown', 'the transaction had committed before it was stopped, so its changes were made');
  if (run.wrap)
    return seen((marker) => marker.committing === true)
      ? stoppedAfter(
          'unknown',
          'it was stopped during its COMMIT, so it may have committed. Check the data before retrying',
        )
      : stoppedAfter('nothing', 'it ran in one transaction that never committed, so nothing was changed');
  const began = markers.filter((marker) => marker.start !== undefined).length;
  if (began === 0) return stoppedAfter('nothing', 'no statement had started, so nothing was changed');
  const finished = markers.filter((marker) => marker.done !== undefined).length;
  return stoppedAfter(
    'unknown',
    `statement ${began} of ${run.statements} was running (${finished} had finished) and the script manages its own transactions, so some of it may have been committed. Check the data before retrying`,
  );
}
