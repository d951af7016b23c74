import type pg from 'pg';
import pgDriver from 'pg';
import type { RunOptions } from './sql-connection.js';

/** What became of a transaction whose connection was lost: the server's own word, or unknown. */
export type PgOutcome = 'committed' | 'aborted' | 'unknown';

/** How long riskgate spends finding out, at most: the person is waiting, and the network may be gone. */
export const OUTCOME_BUDGET_MS = 5_000;

/**
 * Asks PostgreSQL, on a fresh connection, what became of transaction `xid` (`txid_status`,
 * PostgreSQL 10+). A backend still holding it open (the connection stalled rather than dropped,
 * so the server has not noticed) is terminated first, which rolls back a transaction whose
 * COMMIT never arrived — then the answer is final, not "in progress". Unknown when the server
 * cannot be reached within the budget or no longer knows the transaction.
 */
export async function transactionOutcome(
  config: pg.ClientConfig,
  xid: string,
  pid: number | undefined,
  budgetMs = OUTCOME_BUDGET_MS,
): Promise<PgOutcome> {
  const deadline = Date.now() + budgetMs;
  const client = new pgDriver.Client({ ...config, connectionTimeoutMillis: budgetMs, query_timeout: budgetMs });
  client.on('error', () => {
    // The answer is "unknown" below; an error event must never reach the process.
  });
  try {
    await client.connect();
    let terminated = false;
    while (Date.now() < deadline) {
      const result = await client.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]);
      const status = result.rows[0]?.status;
      if (status === 'committed') return 'committed';
      if (status === 'aborted') return 'aborted';
      if (status !== 'in progress') return 'unknown';
      if (pid !== undefined && !terminated) {
        await client.query('SELECT pg_terminate_backend($1)', [pid]);
        terminated = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'unknown';
  } catch {
    return 'unknown';
  } finally {
    void client.end().catch(() => {});
  }
}

/**
 * A failure of the connection itself (dropped, reset, terminated by the server or by riskgate's
 * stall watchdog) rather than an answer from the database: after one, what the server did with a
 * statement already sent is not known from the reply.
 */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || /^57P0[123]$/.test(code);
  const message = String((error as { message?: unknown }).message ?? error);
  return /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|terminated|Connection terminated|not queryable|stalled/i.test(
    message,
  );
}

/** How long past its timeout (or its cancellation) a run may go without a reply before its connection is closed. */
export const STALL_GRACE_MS = 2_000;

/** A promise that settles within `ms`: a stalled network must not hold riskgate. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no reply within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Bounds a run whatever the network does. An abort asks the server to cancel the statement
 * (`cancel`, on another connection); when no answer comes (a stalled connection carries no
 * reply, not even to a cancel), or the run outlives its timeout by STALL_GRACE_MS, the socket is
 * closed so every pending query fails at once and the outcome can be looked up. The client's
 * error events are caught here: one reaching the process would crash the session.
 */
export function watchRun(
  client: pg.PoolClient,
  options: RunOptions,
  cancel: (pid: number) => Promise<unknown>,
): { lost(): Error | undefined; stop(): void } {
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  const sever = (why: string) => {
    lost ??= new Error(why);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  };
  const limit = options.timeoutMs + STALL_GRACE_MS;
  const stalled = setTimeout(() => sever(`no reply within ${Math.round(limit)} ms: the connection stalled`), limit);
  let abandoned: NodeJS.Timeout | undefined;
  const pid = (client as unknown as { processID?: number }).processID;
  const onAbort = () => {
    if (pid !== undefined) withDeadline(cancel(pid), STALL_GRACE_MS).catch(() => {});
    abandoned = setTimeout(() => sever('the cancellation got no reply: the connection stalled'), STALL_GRACE_MS);
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  return {
    lost: () => lost,
    stop: () => {
      clearTimeout(stalled);
      clearTimeout(abandoned);
      options.signal.removeEventListener('abort', onAbort);
      // A late error of a connection being discarded must not crash the process either.
      client.off('error', onError);
      client.on('error', () => {});
    },
  };
}
