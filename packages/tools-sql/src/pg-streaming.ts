import pg from 'pg';

/**
 * A query whose rows are counted as they arrive and only the first `keep` are parsed and kept.
 * It runs to completion on the server with the simple protocol, so PostgreSQL may plan it in
 * parallel (a cursor or a portal with a row limit never is), while riskgate's memory stays flat
 * however many rows come back, and the model can be told the true total.
 */
export interface StreamedResult {
  readonly fields: readonly pg.FieldDef[];
  readonly rows: unknown[][];
  /** Every row the statement returned. */
  readonly total: number;
  readonly command: string | null;
  readonly rowCount: number | null;
}

interface QueryInternals {
  _result: { parseRow(fields: unknown[]): unknown; addRow(row: unknown): void };
  _canceledDueToError: unknown;
}

export function streamQuery(client: pg.PoolClient | pg.Client, text: string, keep: number): Promise<StreamedResult> {
  return new Promise((resolve, reject) => {
    let total = 0;
    const config = { text, rowMode: 'array' } as unknown as pg.QueryConfig;
    const query = new pg.Query(config, (error: Error | undefined, built: unknown) => {
      const result = built as pg.QueryResult;
      if (error !== null && error !== undefined) reject(error);
      else
        resolve({
          fields: result.fields ?? [],
          rows: result.rows as unknown[][],
          total,
          command: result.command ?? null,
          rowCount: result.rowCount,
        });
    });
    const internals = query as unknown as QueryInternals & { handleDataRow(message: { fields: unknown[] }): void };
    internals.handleDataRow = (message) => {
      if (internals._canceledDueToError) return;
      total++;
      if (total > keep) return;
      try {
        internals._result.addRow(internals._result.parseRow(message.fields));
      } catch (error) {
        internals._canceledDueToError = error;
      }
    };
    client.query(query as unknown as pg.QueryConfig);
  });
}
