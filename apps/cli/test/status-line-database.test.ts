import { describe, expect, it } from 'vitest';
import { databaseShown } from '../src/ui/StatusLine.js';

describe('the database on the status line', () => {
  it.each<[string, { database?: string; databaseSource?: string }, string]>([
    ['none in chat mode', {}, ''],
    ['a SQLite file by its name', { database: '/home/ada/data/shop.sqlite' }, ' · shop.sqlite'],
    ['a PostgreSQL URL whole', { database: 'postgres://ada@db:5432/shop' }, ' · postgres://ada@db:5432/shop'],
    [
      'a MySQL URL whole, not its last segment',
      { database: 'mysql://root@127.0.0.1:3306/test' },
      ' · mysql://root@127.0.0.1:3306/test',
    ],
    [
      'a --db URL with a password, before the session opens',
      { database: 'postgres://ada:Line-Pw-1@db/shop' },
      ' · postgres://ada:***@db/shop',
    ],
    [
      'where a database no --db named came from',
      { database: 'postgres://ada@db:5432/shop', databaseSource: 'PGSERVICE' },
      ' · postgres://ada@db:5432/shop (from PGSERVICE)',
    ],
    [
      '~/.my.cnf',
      { database: 'mysql://root@localhost/test', databaseSource: '~/.my.cnf' },
      ' · mysql://root@localhost/test (from ~/.my.cnf)',
    ],
  ])('%s', (_name, info, shown) => {
    expect(databaseShown(info)).toBe(shown);
  });
});
