import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { layoutTable } from '../src/ui/table-layout.js';

/** The display column of every │ on a line: aligned tables have the same on every line. */
const bars = (line: string) => {
  const positions: number[] = [];
  let column = 0;
  for (const { segment } of new Intl.Segmenter().segment(line)) {
    if (segment === '│') positions.push(column);
    column += stringWidth(segment);
  }
  return positions;
};

describe('layoutTable: columns measured in terminal cells', () => {
  it.each([
    ['CJK', [['東京', 'capital'], ['大阪府大阪市', 'city'], ['x', 'y']]],
    ['emoji', [['👍', 'one'], ['👩‍💻👩‍💻', 'two'], ['ok', 'three']]],
    ['accents (combining)', [['e\u0301te\u0301', 'a'], ['plain', 'b']]],
    ['mixed and cut', [['表'.repeat(40), 'long'], ['short', 'x']]],
  ])('%s: every │ lines up', (_name, rows) => {
    const table = layoutTable(['name', 'note'], rows, { width: 40, maxRows: 50, truncated: false });
    const expected = bars(table.header);
    for (const line of table.rows) expect(bars(line)).toEqual(expected);
    for (const line of [table.header, ...table.rows]) expect(stringWidth(line)).toBeLessThanOrEqual(40);
  });

  it.each([
    ['escape sequence', 'ok\u001B[2J\u001B[Hhidden', '\\e'],
    ['carriage return', 'shown\roverwritten', 'shown overwritten'],
    ['bidi override', 'abc\u202Edef', '<U+202E>'],
  ])('a cell with %s cannot draw on the screen', (_name, value, shown) => {
    const table = layoutTable(['v'], [[value]], { width: 80, maxRows: 50, truncated: false });
    expect(table.rows[0]).toContain(shown);
    expect(table.rows[0]).not.toMatch(/[\u001B\r\u202E]/);
  });
});

describe('layoutTable: the record view for wide rows', () => {
  const columns = Array.from({ length: 30 }, (_, index) => `column_${index + 1}`);
  const row = columns.map((_, index) => `value ${index + 1}`);

  it('30 columns on 100 cells: one block per row, a line per column, nothing cut to slivers', () => {
    const table = layoutTable(columns, [row, row], { width: 100, maxRows: 50, truncated: false });
    expect(table.kind).toBe('records');
    expect(table.rows[0]).toMatch(/^─\[ RECORD 1 \]─+$/);
    expect(table.rows[1]).toBe('column_1  │ value 1');
    expect(table.rows[30]).toBe('column_30 │ value 30');
    expect(table.rows[31]).toMatch(/^─\[ RECORD 2 \]/);
    expect(table.footer).toBe('2 rows');
  });

  it('a table that fits, or has few columns, stays a table', () => {
    expect(layoutTable(columns.slice(0, 5), [row.slice(0, 5)], { width: 100, maxRows: 50, truncated: false }).kind).toBe('table');
    expect(layoutTable(['a', 'b', 'c'], [['x'.repeat(200), 'y', 'z']], { width: 60, maxRows: 50, truncated: false }).kind).toBe('table');
  });
});
