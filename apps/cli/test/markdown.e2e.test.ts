import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();

const REPLY = [
  '# Orders report',
  '',
  'Most orders are *paid*, a few are **cancelled**; see [the docs](https://example.com/orders) and run `SELECT 1`.',
  '',
  '| city | 注文 | total |',
  '|:-----|:----:|------:|',
  '| Tokyo 東京 | 12 | 1,200 |',
  '| Zürich | 3 🎉 | 7 |',
  '',
  '1. first step',
  '2. second step',
  '   - nested point',
  '',
  '> quoted line',
  '',
  '```sql',
  'SELECT id FROM orders;',
  '```',
  'Done.',
].join('\n');

describe('Markdown in the terminal (marked lexer)', () => {
  it('headings, emphasis, links, tables aligned in terminal cells, lists, quotes and code render without their markup', async () => {
    const { env } = await scene.start([{ text: REPLY }]);
    const terminal = scene.open(`node ${BIN}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('report', true);
    const screen = await terminal.waitFor(/Done\./);
    const lines = screen.split('\n');
    // Heading and emphasis without their markers; the link's address is shown after its text.
    expect(lines.some((line) => line.trimEnd() === 'Orders report')).toBe(true);
    expect(screen).not.toContain('# Orders');
    expect(screen).toContain(
      'Most orders are paid, a few are cancelled; see the docs (https://example.com/orders) and run SELECT 1.',
    );
    // The table: every row's │ at the same terminal column, whatever CJK and emoji the cells hold.
    const table = lines.filter((line) => line.includes('│'));
    expect(table).toHaveLength(3);
    const bars = table.map((line) =>
      line
        .split('│')
        .slice(0, -1)
        .map((_, index, parts) => stringWidth(parts.slice(0, index + 1).join('│')) + index),
    );
    for (const row of bars) expect(row).toEqual(bars[0]);
    expect(table[0]).toMatch(/^city\s+│\s+注文\s+│ total$/);
    // Right-aligned total, centred 注文 column.
    expect(table[2]).toMatch(/│\s+7$/);
    expect(table[1]).toMatch(/│ {2}12 {2}│/);
    expect(lines.some((line) => /^─+─┼──+─┼──+$/.test(line))).toBe(true);
    // Lists, nested lists, quotes and code.
    expect(screen).toMatch(/^1\. first step$/m);
    expect(screen).toMatch(/^2\. second step\n {3}• nested point$/m);
    expect(screen).toMatch(/^┃ quoted line$/m);
    expect(screen).toMatch(/^ {2}SELECT id FROM orders;$/m);
    expect(screen).not.toMatch(/```|\*\*|\|:-/);
    // Styles: italic and bold as SGR, the link underlined.
    const styled = terminal.screenWithStyles();
    expect(styled).toMatch(/\u001B\[[0-9;]*3[;m][^\u001B]*paid/);
    expect(styled).toMatch(/\u001B\[[0-9;]*1[;m][^\u001B]*cancelled/);
    expect(styled).toMatch(/\u001B\[[0-9;]*4[;m][^\u001B]*the docs/);
  });
});
