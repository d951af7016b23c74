import { afterEach, describe, expect, it, vi } from 'vitest';
import { bashGrammarFile } from '../src/bash-grammar-file.js';
import { loadBashParser, parseBash } from '../src/bash-parser.js';

afterEach(() => vi.restoreAllMocks());

describe('the bash parser', () => {
  it('keeps a ref’d handle alive while the grammar loads, and lets it go after', async () => {
    const setInterval = globalThis.setInterval;
    const created: NodeJS.Timeout[] = [];
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((callback: () => void, ms: number) => {
      const handle = setInterval(callback, ms);
      created.push(handle);
      return handle;
    }) as typeof globalThis.setInterval);
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    // The first load in this file's module graph (vitest isolates each test file).
    const loading = loadBashParser();
    expect(created).toHaveLength(1);
    expect(created[0]!.hasRef()).toBe(true);
    expect(cleared).not.toHaveBeenCalled();
    await loading;
    expect(cleared).toHaveBeenCalledWith(created[0]);
    // Loaded once: a second call neither loads again nor holds the loop.
    const again = loadBashParser();
    expect(created).toHaveLength(1);
    expect(await again).toBe(await loading);
  });

  it('parses with the grammar file it names', async () => {
    expect(bashGrammarFile()).toMatch(/tree-sitter-bash\.wasm$/);
    const tree = await parseBash('ls -la | grep x');
    expect(tree.rootNode.type).toBe('program');
    expect(tree.rootNode.hasError).toBe(false);
  });
});
