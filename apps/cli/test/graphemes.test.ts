import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lazyGraphemeSegmenter, simpleTextWidth } from '../src/ui/graphemes.js';

// Every string-width the install holds (the bundle patches each one: Ink's wrap-ansi uses 7,
// its widest-line 8), found in pnpm's store beside this workspace.
const store = join(import.meta.dirname, '../../../node_modules/.pnpm');
const widths = await Promise.all(
  readdirSync(store)
    .filter((name) => /^string-width@\d/.test(name))
    .map(async (name) => {
      const module = await import(pathToFileURL(join(store, name, 'node_modules/string-width/index.js')).href);
      return { name, stringWidth: module.default as (text: string, options?: object) => number };
    }),
);

/** Every BMP code point the fast path takes: the ones `simpleTextWidth` measures alone. */
const SIMPLE = Array.from({ length: 0xd800 }, (_, code) => String.fromCharCode(code)).filter(
  (character) => simpleTextWidth(character) !== undefined,
);

/** A reproducible random text over an alphabet. */
function randomText(alphabet: readonly string[], length: number, seed: number): string {
  let state = seed;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

const real = new Intl.Segmenter();
const segments = (segments: Intl.Segments) =>
  [...segments].map(({ segment, index, input }) => ({ segment, index, input }));

describe('text measured without ICU (the first frame)', () => {
  it('finds the string-width versions the bundle patches', () => {
    expect(widths.map((width) => width.name).join(' ')).toMatch(/string-width@8/);
    expect(SIMPLE.length).toBeGreaterThan(1_500);
  });

  it('gives every simple character the width each string-width gives it: one column', () => {
    for (const { name, stringWidth } of widths)
      for (const character of SIMPLE) expect([name, character, stringWidth(character)]).toEqual([name, character, 1]);
  });

  it('leaves out what could join a neighbour or be drawn as an emoji', () => {
    const joining = /[\p{Mn}\p{Mc}\p{Me}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Extended_Pictographic}]/u;
    expect(SIMPLE.filter((character) => joining.test(character))).toEqual([]);
    for (const outside of ['©', '↔', '▶', '\u00AD', '\u0301', '\u200D', '\uFE0F', '\r', '中', '한', '\u1100'])
      expect(simpleTextWidth(`a${outside}`)).toBeUndefined();
  });

  it('measures texts of simple characters as string-width does, and leaves the rest to it', () => {
    const alphabet = [...SIMPLE.filter((_, index) => index % 7 === 0), 'a', ' ', '›', '·', '…', '≈', '─'];
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomText(alphabet, 1 + (seed % 60), seed);
      for (const { stringWidth } of widths) expect(simpleTextWidth(text)).toBe(stringWidth(text));
    }
    for (const text of [
      'e\u0301',
      '👍🏽',
      '🇫🇷',
      'a\u200Db',
      '한글',
      '中文',
      'x\uFE0F',
      '1\u20E3',
      '\u001B[1mbold\u001B[0m',
    ])
      expect(simpleTextWidth(text)).toBeUndefined();
  });

  it('segments as Intl.Segmenter does, simple text unit by unit and the rest through ICU', () => {
    const lazy = lazyGraphemeSegmenter();
    const alphabet = [...SIMPLE.filter((_, index) => index % 5 === 0), '\t', '\n', '\u001B', '[', 'm', '›'];
    const texts = Array.from({ length: 200 }, (_, seed) => randomText(alphabet, seed % 50, seed + 1));
    texts.push('', 'e\u0301x', '👨‍👩‍👧 family', '\r\n', 'a\r\nb', '🇫🇷🇩🇪', '한글', 'x\uFE0F', '\u001B[31m›\u001B[0m');
    for (const text of texts) {
      expect(segments(lazy.segment(text))).toEqual(segments(real.segment(text)));
      for (const position of [-1, 0, 1, text.length - 1, text.length, 2.7])
        expect(lazy.segment(text).containing(position)).toEqual(real.segment(text).containing(position));
    }
  });

  it('leaves word and sentence segmentation to ICU', () => {
    const words = lazyGraphemeSegmenter('en', { granularity: 'word' });
    const expected = new Intl.Segmenter('en', { granularity: 'word' });
    expect(segments(words.segment('two words'))).toEqual(segments(expected.segment('two words')));
    expect(words.resolvedOptions()).toEqual(expected.resolvedOptions());
  });
});
