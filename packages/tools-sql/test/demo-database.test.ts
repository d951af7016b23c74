import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { demoDatabasePath, ensureDemoDatabase } from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'riskgate-demo-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function fingerprint(path: string): string {
  const database = new Database(path, { readonly: true });
  try {
    const hash = createHash('sha256');
    for (const table of ['customers', 'products', 'orders', 'order_items', 'payments']) {
      for (const row of database.prepare(`SELECT * FROM ${table} ORDER BY id`).raw().iterate())
        hash.update(JSON.stringify(row));
    }
    return hash.digest('hex');
  } finally {
    database.close();
  }
}

describe('the embedded demo database', () => {
  it('lives in the XDG cache directory', () => {
    expect(demoDatabasePath('/x/cache')).toBe('/x/cache/riskgate/demo-shop-v1.sqlite');
  });

  it('is a small shop of a few thousand rows, with consistent totals', () => {
    const path = ensureDemoDatabase(join(directory, 'a', 'demo.sqlite'));
    const database = new Database(path, { readonly: true });
    const count = (table: string) => (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('customers')).toBe(300);
    expect(count('products')).toBe(48);
    expect(count('orders')).toBe(2000);
    expect(count('order_items')).toBeGreaterThan(4000);
    expect(count('payments')).toBeGreaterThan(1000);
    const mismatched = database
      .prepare(
        'SELECT count(*) AS n FROM orders o WHERE total_cents != (SELECT sum(quantity * unit_price_cents) FROM order_items WHERE order_id = o.id)',
      )
      .get() as { n: number };
    expect(mismatched.n).toBe(0);
    expect(database.pragma('foreign_key_check')).toEqual([]);
    database.close();
  });

  it('is built deterministically: two builds hold the same data', () => {
    const first = ensureDemoDatabase(join(directory, 'b', 'demo.sqlite'));
    const second = ensureDemoDatabase(join(directory, 'c', 'demo.sqlite'));
    expect(fingerprint(first)).toBe(fingerprint(second));
  });

  it('is built once and then reused', () => {
    const path = join(directory, 'd', 'demo.sqlite');
    ensureDemoDatabase(path);
    const database = new Database(path);
    database.exec(
      "INSERT INTO customers (id, name, email, city, country, created_at) VALUES (9999, 'marker', 'm@example.com', 'x', 'x', '2025-01-01')",
    );
    database.close();
    ensureDemoDatabase(path);
    const reopened = new Database(path, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM customers WHERE id = 9999').get()).toEqual({ n: 1 });
    reopened.close();
  });
});
