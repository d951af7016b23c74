import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { type Segment, wrapLine } from '../src/ui/panel-lines.js';
import { initialScroll, scrollReducer, unseenLines } from '../src/ui/scroll.js';

const text = (line: readonly Segment[]) => line.map((segment) => segment.text).join('');

/** Every word of the source, whole, on one screen line (unless longer than the width). */
function wordsWhole(source: string, lines: readonly string[], width: number): boolean {
  const words = source.split(' ').filter((word) => word !== '' && stringWidth(word) <= width);
  const lineWords = new Set(lines.flatMap((line) => line.split(' ')));
  return words.every((word) => lineWords.has(word));
}

describe('the panel wraps at spaces', () => {
  const sql = "SELECT id, item, status FROM orders WHERE status = 'paid' AND created_at > now() - interval '7 days'";
  it.each([20, 33, 45, 60])('at %i columns no word is split and no line is too wide', (width) => {
    const lines = wrapLine([{ text: sql, style: 'keyword' }], width).map(text);
    expect(lines.join('')).toBe(sql);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    expect(wordsWhole(sql, lines, width)).toBe(true);
  });

  it('splits a word only when it is longer than the width, and keeps each segment its style', () => {
    const lines = wrapLine(
      [
        { text: 'rm ', style: 'command' },
        { text: `/tmp/${'x'.repeat(30)}`, style: 'string' },
      ],
      12,
    );
    expect(lines.map(text)).toEqual(['rm ', '/tmp/xxxxxxx', 'xxxxxxxxxxxx', 'xxxxxxxxxxx']);
    expect(lines[0]).toEqual([{ text: 'rm ', style: 'command' }]);
    expect(lines[1]).toEqual([{ text: '/tmp/xxxxxxx', style: 'string' }]);
  });

  it('counts wide characters as two columns', () => {
    const lines = wrapLine([{ text: '東京 大阪府大阪市 x' }], 8).map(text);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(8);
    expect(lines).toEqual(['東京 ', '大阪府大', '阪市 x']);
  });
});

describe('a re-wrap counts what was seen again', () => {
  it('after a width change the lines seen at the old width are not taken as seen', () => {
    let state = initialScroll(5, 20);
    state = scrollReducer(state, { type: 'end' });
    state = scrollReducer(state, { type: 'home' });
    state = scrollReducer(state, { type: 'page', delta: 1 });
    state = scrollReducer(state, { type: 'page', delta: 1 });
    state = scrollReducer(state, { type: 'page', delta: 1 });
    expect(unseenLines(state)).toBe(0);
    state = scrollReducer(state, { type: 'resize', height: 5, total: 30, rewrapped: true });
    expect(state.offset).toBe(0);
    expect(unseenLines(state)).toBe(25);
  });
});
