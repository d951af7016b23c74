import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';

let parserReady: Promise<Parser> | undefined;

/** tree-sitter-bash through web-tree-sitter: loaded once, on first use, so start-up stays fast. */
export function loadBashParser(): Promise<Parser> {
  parserReady ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return parserReady;
}

export async function parseBash(source: string): Promise<Tree> {
  const parser = await loadBashParser();
  const tree = parser.parse(source);
  if (tree === null) throw new Error('the bash parser returned no tree');
  return tree;
}
