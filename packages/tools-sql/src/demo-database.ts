import { mkdirSync, renameSync, rmSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { requireDriver } from './drivers.js';

/** Bump when the demo's content changes, so an old cached copy is rebuilt. */
export const DEMO_DATABASE_VERSION = 1;

/** Where the embedded demo database lives: `$XDG_CACHE_HOME/riskgate/` (or ~/.cache/riskgate/). */
export function demoDatabasePath(cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')): string {
  return join(cacheHome, 'riskgate', `demo-shop-v${DEMO_DATABASE_VERSION}.sqlite`);
}

/** The demo shop database, built on first use by a deterministic script. Returns its path. */
export function ensureDemoDatabase(path = demoDatabasePath()): string {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  // Loaded here, not at import: importing @riskgate/tools-sql must not need better-sqlite3.
  const Database = requireDriver<typeof BetterSqlite3>('sqlite');
  const database = new Database(temporary);
  try {
    buildDemoShop(database);
  } finally {
    database.close();
  }
  // Atomic: a crash mid-build never leaves a half-built demo in place.
  renameSync(temporary, path);
  return path;
}

/** mulberry32: a small seeded generator, so every build is byte-for-byte the same data. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farah',
  'Goran',
  'Hana',
  'Ivo',
  'Jana',
  'Kofi',
  'Lena',
  'Mateo',
  'Nia',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Novak',
  'Okafor',
  'Schmidt',
  'Haddad',
  'Ivanova',
  'Tanaka',
  'García',
  'Kowalski',
  'Nguyen',
  'Rossi',
  'Larsen',
  'Mensah',
  'Öztürk',
  'Silva',
  'Dubois',
  'Khan',
];
const CITIES: [string, string][] = [
  ['Berlin', 'DE'],
  ['Lisbon', 'PT'],
  ['Lyon', 'FR'],
  ['Kraków', 'PL'],
  ['Accra', 'GH'],
  ['Osaka', 'JP'],
  ['Austin', 'US'],
  ['Toronto', 'CA'],
  ['Milan', 'IT'],
  ['Izmir', 'TR'],
  ['Oslo', 'NO'],
  ['Pune', 'IN'],
];
const CATEGORIES: Record<string, string[]> = {
  Coffee: ['Espresso beans', 'Filter roast', 'Decaf blend', 'Single-origin Ethiopia', 'Cold brew pack'],
  Tea: ['Sencha', 'Earl Grey', 'Rooibos', 'Chai mix', 'Jasmine pearls'],
  Equipment: ['Pour-over kettle', 'Burr grinder', 'French press', 'Espresso tamper', 'Milk frother', 'Scale'],
  Cups: ['Ceramic mug', 'Travel tumbler', 'Glass cup', 'Espresso cups (set of 4)'],
  Snacks: ['Almond biscotti', 'Dark chocolate', 'Oat cookies', 'Honey waffles'],
};
const STATUSES = [
  'delivered',
  'delivered',
  'delivered',
  'delivered',
  'shipped',
  'paid',
  'pending',
  'cancelled',
  'refunded',
];
const METHODS = ['card', 'card', 'card', 'paypal', 'bank_transfer'];

const DEMO_SCHEMA = `
    PRAGMA foreign_keys = ON;
    CREATE TABLE customers (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      email TEXT NOT NULL UNIQUE,
      city TEXT NOT NULL,
      country TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE products (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      category TEXT NOT NULL,
      price_cents INTEGER NOT NULL CHECK (price_cents > 0),
      stock INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers(id),
      status TEXT NOT NULL,
      ordered_at TEXT NOT NULL,
      total_cents INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE order_items (
      id INTEGER PRIMARY KEY,
      order_id INTEGER NOT NULL REFERENCES orders(id),
      product_id INTEGER NOT NULL REFERENCES products(id),
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      unit_price_cents INTEGER NOT NULL
    );
    CREATE TABLE payments (
      id INTEGER PRIMARY KEY,
      order_id INTEGER NOT NULL REFERENCES orders(id),
      amount_cents INTEGER NOT NULL,
      method TEXT NOT NULL,
      paid_at TEXT NOT NULL
    );
    CREATE INDEX orders_customer ON orders(customer_id);
    CREATE INDEX orders_status ON orders(status);
    CREATE INDEX order_items_order ON order_items(order_id);
    CREATE INDEX payments_order ON payments(order_id);
`;

/** The shop's rows from one seeded random sequence: the same file on every machine. */
interface Seeded {
  readonly random: () => number;
  pick<T>(items: readonly T[]): T;
  day(offset: number): string;
}

function buildDemoShop(database: BetterSqlite3.Database): void {
  const random = seededRandom(20261122);
  const seeded: Seeded = {
    random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!,
    day: (offset: number) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10),
  };
  database.exec(DEMO_SCHEMA);
  database.transaction(() => {
    const customerCount = insertCustomers(database, seeded);
    const products = insertProducts(database, seeded);
    insertOrders(database, seeded, customerCount, products);
  })();
  database.exec('ANALYZE');
}

function insertCustomers(database: BetterSqlite3.Database, { random, pick, day }: Seeded): number {
  const insertCustomer = database.prepare(
    'INSERT INTO customers (id, name, email, city, country, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const customerCount = 300;
  for (let id = 1; id <= customerCount; id++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const [city, country] = pick(CITIES);
    const email = `${first}.${last}.${id}@example.com`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
    insertCustomer.run(id, `${first} ${last}`, email, city, country, day(Math.floor(random() * 365)));
  }
  return customerCount;
}

function insertProducts(database: BetterSqlite3.Database, { random }: Seeded): { id: number; price: number }[] {
  const insertProduct = database.prepare(
    'INSERT INTO products (id, name, category, price_cents, stock) VALUES (?, ?, ?, ?, ?)',
  );
  const products: { id: number; price: number }[] = [];
  let productId = 0;
  for (const [category, names] of Object.entries(CATEGORIES)) {
    for (const name of names) {
      for (const variant of ['', ' (large)']) {
        productId++;
        const price = Math.round((3 + random() * (category === 'Equipment' ? 120 : 25)) * (variant ? 1.6 : 1) * 100);
        products.push({ id: productId, price });
        insertProduct.run(productId, name + variant, category, price, Math.floor(random() * 200));
      }
    }
  }
  return products;
}

function insertOrders(
  database: BetterSqlite3.Database,
  { random, pick, day }: Seeded,
  customerCount: number,
  products: readonly { id: number; price: number }[],
): void {
  const insertOrder = database.prepare(
    'INSERT INTO orders (id, customer_id, status, ordered_at, total_cents) VALUES (?, ?, ?, ?, ?)',
  );
  const insertItem = database.prepare(
    'INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents) VALUES (?, ?, ?, ?)',
  );
  const insertPayment = database.prepare(
    'INSERT INTO payments (order_id, amount_cents, method, paid_at) VALUES (?, ?, ?, ?)',
  );
  for (let orderId = 1; orderId <= 2000; orderId++) {
    const status = pick(STATUSES);
    const orderedAt = day(Math.floor(random() * 690));
    const itemCount = 1 + Math.floor(random() * 4);
    let total = 0;
    const items: [number, number, number][] = [];
    for (let item = 0; item < itemCount; item++) {
      const product = pick(products);
      const quantity = 1 + Math.floor(random() * 3);
      items.push([product.id, quantity, product.price]);
      total += quantity * product.price;
    }
    insertOrder.run(orderId, 1 + Math.floor(random() * customerCount), status, orderedAt, total);
    for (const [product, quantity, price] of items) insertItem.run(orderId, product, quantity, price);
    if (status !== 'pending' && status !== 'cancelled') insertPayment.run(orderId, total, pick(METHODS), orderedAt);
  }
}
