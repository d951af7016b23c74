import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExecuteSqlTool,
  isSqlFailure,
  MAX_MODEL_COLUMNS,
  MAX_MODEL_TABLE_CHARS,
  openSqlConnection,
  type SqlConnection,
} from '../src/index.js';
import { callTool, createTempPostgres, createTempSqlite } from './helpers.js';

// A result as wide as a real query can make (PostgreSQL allows 1,664 columns; SQLite 2,000).
const WIDE = 1_600;
const wideSelect = (rows: number) =>
  `SELECT ${Array.from({ length: WIDE }, (_, index) => `repeat('v', 150) || g AS column_number_${index + 1}`).join(', ')} FROM generate_series(1, ${rows}) AS g`;
const wideSqlite = (rows: number) =>
  `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${rows}) SELECT ${Array.from({ length: WIDE }, (_, index) => `printf('%.150c', 'v') || n AS column_number_${index + 1}`).join(', ')} FROM g`;

describe.each([
  ['sqlite', wideSqlite],
  ['postgres', wideSelect],
] as const)('a 1,600-column result on %s', (engine, query) => {
  let connection: SqlConnection;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    if (engine === 'sqlite') {
      const file = createTempSqlite();
      const opened = await openSqlConnection(file.path);
      if (isSqlFailure(opened)) throw new Error(opened.message);
      connection = opened;
      cleanup = async () => {
        await connection.close();
        file.cleanup();
      };
    } else {
      const database = await createTempPostgres();
      const opened = await openSqlConnection(database.url);
      if (isSqlFailure(opened)) throw new Error(opened.message);
      connection = opened;
      cleanup = async () => {
        await connection.close();
        await database.cleanup();
      };
    }
  });
  afterAll(() => cleanup());

  it('the model reads at most 50 columns and 30,000 characters, and is told what was left out', async () => {
    const tool = createExecuteSqlTool({ connection });
    const outcome = await callTool(tool, { sql: query(40) });
    expect(outcome.ran).toBe(true);
    const text = (outcome as { result: { forModel: string } }).result.forModel;
    expect(text.length).toBeLessThan(MAX_MODEL_TABLE_CHARS + 1_000);
    const header = text.split('\n')[0]!.split(' | ');
    expect(header).toHaveLength(MAX_MODEL_COLUMNS);
    expect(header.at(-1)).toBe('column_number_50');
    expect(text).toMatch(/; 50 of 1,600 columns shown; select the columns you need/);
    expect(text).toMatch(/\(showing \d+ of 40 rows;.*rows stopped at 30,000 characters\)/);
  });
});
