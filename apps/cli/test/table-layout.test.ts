import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { layoutTable, MAX_SCREEN_COLUMNS } from '../src/ui/table-layout.js';

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
    [
      'CJK',
      [
        ['東京', 'capital'],
        ['大阪府大阪市', 'city'],
        ['x', 'y'],
      ],
    ],
    [
      'emoji',
      [
        ['👍', 'one'],
        ['👩‍💻👩‍💻', 'two'],
        ['ok', 'three'],
      ],
    ],
    [
      'accents (combining)',
      [
        ['e\u0301te\u0301', 'a'],
        ['plain', 'b'],
      ],
    ],
    [
      'mixed and cut',
      [
        ['表'.repeat(40), 'long'],
        ['short', 'x'],
      ],
    ],
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
    expect(
      layoutTable(columns.slice(0, 5), [row.slice(0, 5)], { width: 100, maxRows: 50, truncated: false }).kind,
    ).toBe('table');
    expect(
      layoutTable(['a', 'b', 'c'], [['x'.repeat(200), 'y', 'z']], { width: 60, maxRows: 50, truncated: false }).kind,
    ).toBe('table');
  });
});

describe('layoutTable: a 1,600-column result is capped for the screen', () => {
  it('at most 50 columns are laid out, the footer counts the rest, and a huge cell is not measured whole', () => {
    const columns = Array.from({ length: 1_600 }, (_, index) => `column_number_${index + 1}`);
    const rows = Array.from({ length: 50 }, (_, row) =>
      columns.map((_, column) => (column === 0 && row === 0 ? 'z'.repeat(10_000_000) : `value ${row}.${column}`)),
    );
    const started = performance.now();
    const layout = layoutTable(columns, rows, { width: 100, maxRows: 50, truncated: false });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(layout.kind).toBe('records');
    // A title line and one line per shown column, for each row.
    expect(layout.rows).toHaveLength(50 * (MAX_SCREEN_COLUMNS + 1));
    expect(layout.rows.join('\n').length).toBeLessThan(50 * (MAX_SCREEN_COLUMNS + 1) * 101);
    expect(layout.rows.some((line) => line.includes('column_number_51 '))).toBe(false);
    expect(layout.footer).toBe('50 rows · 50 of 1,600 columns shown');
  });

  it('a result within the cap says nothing of columns', () => {
    expect(layoutTable(['a', 'b'], [[1, 2]], { width: 80, maxRows: 50, truncated: false }).footer).toBe('1 row');
  });
});

describe('layoutTable: numbers and NULL', () => {
  it('right-aligns a column whose values the driver gave as numbers, and leaves text left', () => {
    const table = layoutTable(
      ['id', 'name'],
      [
        [7, 'tea'],
        [1204, 'cake'],
      ],
      { width: 80, maxRows: 50, truncated: false },
    );
    expect(table.rows).toEqual(['   7 │ tea', '1204 │ cake']);
  });

  it('right-aligns digits a numeric-typed column kept as text (int8, numeric), not digits in a text column', () => {
    const rows = [
      ['12.50', '00123'],
      ['1234.00', '9'],
    ];
    const typed = layoutTable(
      [
        { name: 'price', type: 'numeric' },
        { name: 'code', type: 'text' },
      ],
      rows,
      {
        width: 80,
        maxRows: 50,
        truncated: false,
      },
    );
    expect(typed.rows).toEqual(['  12.50 │ 00123', '1234.00 │ 9']);
  });

  it('shows SQL NULL as NULL, marked, and the text NULL quoted: distinct without colour', () => {
    const table = layoutTable([{ name: 'note', type: 'text' }], [[null], ['NULL'], ['null']], {
      width: 80,
      maxRows: 50,
      truncated: false,
    });
    expect(table.rows).toEqual(['NULL', "'NULL'", "'null'"]);
    expect(table.styledRows[0]).toEqual([{ text: 'NULL', null: true }]);
    expect(table.styledRows[1]).toEqual([{ text: "'NULL'" }]);
  });

  it('keeps NULL in a numeric column right-aligned with the numbers and marked', () => {
    const table = layoutTable(['n'], [[10], [null], [5]], { width: 80, maxRows: 50, truncated: false });
    expect(table.rows).toEqual(['  10', 'NULL', '   5']);
    expect(table.styledRows[1]).toEqual([{ text: 'NULL', null: true }]);
  });
});
