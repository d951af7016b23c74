import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const example = fileURLToPath(new URL('../index.mjs', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'riskgate-example-sql-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const file = join(directory, 'shop.sqlite');
const database = new Database(file);
database.exec(
  "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('cake');",
);
database.close();

it('prints the schema, and runs a SELECT under plain Node', async () => {
  const { stdout } = await run(process.execPath, [example, file, 'SELECT item FROM orders ORDER BY id']);
  const [schema, verdict, ...rows] = stdout.trim().split('\n');
  expect(JSON.parse(schema!)).toMatchObject({
    type: 'function',
    function: { name: 'execute_sql', parameters: { properties: { sql: {}, risk_level: {} } } },
  });
  expect(verdict).toMatch(/^execute: on the whitelist/);
  expect(rows.join('\n')).toMatch(/tea[\s\S]*cake/);
});

it('does not run a DELETE: it needs confirmation', async () => {
  const { stdout } = await run(process.execPath, [example, file, 'DELETE FROM orders']);
  expect(stdout).toMatch(/^confirm: .*DELETE without WHERE/m);
  const check = new Database(file, { readonly: true });
  expect((check.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n).toBe(2);
  check.close();
});
