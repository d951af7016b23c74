import { describe, expect, it } from 'vitest';
import { bashGrammarFile } from '../src/bash-grammar-file.js';
import { loadBashParser, parseBash } from '../src/bash-parser.js';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('the bash parser', () => {
  it('keeps a ref’d handle alive while the grammar loads, and lets it go after', async () => {
    // The first load in this file's module graph (vitest isolates each test file).
    const before = timers();
    const loading = loadBashParser();
    expect(timers()).toBe(before + 1);
    await loading;
    expect(timers()).toBe(before);
    // Loaded once: a second call neither loads again nor holds the loop.
    const again = loadBashParser();
    expect(timers()).toBe(before);
    expect(await again).toBe(await loading);
  });

  it('parses with the grammar file it names', async () => {
    expect(bashGrammarFile()).toMatch(/tree-sitter-bash\.wasm$/);
    const tree = await parseBash('ls -la | grep x');
    expect(tree.rootNode.type).toBe('program');
    expect(tree.rootNode.hasError).toBe(false);
  });
});
