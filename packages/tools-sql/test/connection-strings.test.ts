import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessAndRun, isSqlFailure, openSqlConnection } from '../src/index.js';
import { parseKeywordString } from '../src/pg-settings.js';
import { createTempPostgres, type TempPostgres } from './helpers.js';

/** Connections as people write them. */
let database: TempPostgres;
beforeAll(async () => {
  database = await createTempPostgres('CREATE TABLE t (x int); INSERT INTO t VALUES (1)');
});
afterAll(async () => {
  await database.cleanup();
});

describe('libpq keyword strings', () => {
  it('opens host=… port=… dbname=… user=…', async () => {
    const url = new URL(database.url);
    const opened = await openSqlConnection(
      `host=${url.hostname} port=${url.port} dbname=${url.pathname.slice(1)} user=${url.username}`,
    );
    if (isSqlFailure(opened)) throw new Error(opened.message);
    const result = await assessAndRun(opened, 'SELECT x FROM t', {
      readOnly: true,
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      maxRows: 10,
    });
    await opened.close();
    expect(isSqlFailure(result) ? result.message : result.statements[0]!.rows).toEqual([[1]]);
  });

  it.each([
    ["host=db user=ada dbname='my shop' password='it''s'", undefined],
    [
      "host=db dbname='my shop' password='a\\'b' sslmode=require",
      { host: 'db', dbname: 'my shop', password: "a'b", sslmode: 'require' },
    ],
    ['host=/var/run/postgresql dbname=x', { host: '/var/run/postgresql', dbname: 'x' }],
  ])('%s', (text, expected) => {
    const pairs = parseKeywordString(text);
    if (expected === undefined) expect(isSqlFailure(pairs)).toBe(true);
    else expect(isSqlFailure(pairs) ? pairs : Object.fromEntries(pairs)).toEqual(expected);
  });

  it('a malformed string is a clear error and opens nothing', async () => {
    const opened = await openSqlConnection("host=db dbname='unterminated");
    expect(isSqlFailure(opened) && opened.message).toMatch(/cannot read the connection string/);
  });
});
