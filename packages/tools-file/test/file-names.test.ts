import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileNameText } from '../src/file-names.js';
import { createFileOperationsTool } from '../src/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-names-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const tool = createFileOperationsTool({ maxReadBytes: 1024, maxEntries: 50 });
const list = async (cwd: string, recursive = false) => {
  const args = { operation: 'list', path: '.', recursive } as const;
  const context = { cwd, home: root, signal: new AbortController().signal, readOnly: true };
  return tool.execute(args, context, (await tool.assess(args, context)).plan);
};

/** A name given as bytes, created in `directory` (Node takes a Buffer path as the bytes). */
function bytesPath(directory: string, name: readonly number[]): Buffer {
  return Buffer.concat([Buffer.from(`${directory}/`), Buffer.from(name)]);
}

// Byte sequences that are not UTF-8, each with how `list` shows it.
const NAMES: readonly (readonly [string, readonly number[], string])[] = [
  ['a lone continuation byte', [0x61, 0x80, 0x62], 'a\\x80b'],
  ['Latin-1 é', [0x63, 0x61, 0x66, 0xe9], 'caf\\xe9'],
  ['0xff', [0xff, 0x2e, 0x74, 0x78, 0x74], '\\xff.txt'],
  ['an overlong slash', [0xc0, 0xaf, 0x78], '\\xc0\\xaf' + 'x'],
  ['a cut three-byte sequence', [0x78, 0xe2, 0x82], 'x\\xe2\\x82'],
  ['an encoded surrogate', [0xed, 0xa0, 0x80], '\\xed\\xa0\\x80'],
  ['valid UTF-8 beside an invalid byte', [0xe6, 0x9d, 0xb1, 0xfe], '東\\xfe'],
];

describe('list: file names that are not UTF-8', () => {
  it.each(NAMES)('%s is listed, shown with \\xNN, and the listing goes on', async (_name, bytes, shown) => {
    const directory = mkdtempSync(join(root, 'case-'));
    writeFileSync(bytesPath(directory, bytes), 'four');
    writeFileSync(join(directory, 'plain.txt'), 'hello');
    const result = await list(directory);
    expect(result.type).toBe('tool-success');
    if (result.type !== 'tool-success') return;
    expect(result.forModel).toContain(`${shown}\t4 bytes`);
    expect(result.forModel).toContain('plain.txt\t5 bytes');
    expect(result.forModel).not.toContain('\uFFFD');
  });

  it('a directory with such a name is entered by a recursive listing', async () => {
    const directory = mkdtempSync(join(root, 'deep-'));
    const inner = bytesPath(directory, [0x64, 0xff]);
    mkdirSync(inner);
    writeFileSync(Buffer.concat([inner, Buffer.from('/inside.txt')]), 'x');
    const result = await list(directory, true);
    expect(result.type === 'tool-success' && result.forModel).toBe('d\\xff/\nd\\xff/inside.txt\t1 bytes');
  });

  it('valid names, a real U+FFFD among them, stay as they are', () => {
    for (const name of ['plain.txt', '東京.md', 'emoji 🎉', 'has \uFFFD in it'])
      expect(fileNameText(Buffer.from(name))).toBe(name);
  });
});
