import { Language, Parser, type Tree } from 'web-tree-sitter';
import { bashGrammarFile } from './bash-grammar-file.js';

let parserReady: Promise<Parser> | undefined;

/**
 * Runs `load` with a ref'd timer alive. WebAssembly compilation resolves its promise from a V8
 * task, not from libuv: when nothing else keeps the event loop alive (a headless run between
 * the model's reply and the tool call), Node treats the loop as empty and drains the platform's
 * tasks before going on — waiting for every background job, including TurboFan compiling the
 * grammar's lexer (~400 ms of a worker), before the call could continue. With a handle alive
 * the promise's continuation runs as soon as its task is posted.
 */
async function keepingEventLoopAlive<T>(load: () => Promise<T>): Promise<T> {
  const handle = setInterval(() => {}, 60_000);
  try {
    return await load();
  } finally {
    clearInterval(handle);
  }
}

/** tree-sitter-bash through web-tree-sitter: loaded once, on first use, so start-up stays fast. */
export function loadBashParser(): Promise<Parser> {
  parserReady ??= keepingEventLoopAlive(async () => {
    await Parser.init();
    const language = await Language.load(bashGrammarFile());
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  });
  return parserReady;
}

export async function parseBash(source: string): Promise<Tree> {
  const parser = await loadBashParser();
  const tree = parser.parse(source);
  if (tree === null) throw new Error('the bash parser returned no tree');
  return tree;
}
