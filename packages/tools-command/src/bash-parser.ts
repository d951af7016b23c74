import { setFlagsFromString } from 'node:v8';
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

/**
 * Runs `load` with V8's lazy WebAssembly compilation off, unless the process was started with a
 * choice of its own. Lazily, V8 compiles each function on the main thread when it is first
 * called: the first parse of a headless run's first call (even of `true`) compiled the grammar's
 * lexer and the parser there, 15–30 ms (issue 20). Eagerly, the modules compile on V8's
 * background threads while they load, which a host starts ahead (the CLI beside the sandbox
 * probe). The flag is read when a module starts compiling, so other modules keep the default.
 */
async function compilingEagerly<T>(load: () => Promise<T>): Promise<T> {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) =>
    flag.includes('wasm-lazy-compilation'),
  );
  if (chosen) return load();
  setFlagsFromString('--no-wasm-lazy-compilation');
  try {
    return await load();
  } finally {
    setFlagsFromString('--wasm-lazy-compilation');
  }
}

/** tree-sitter-bash through web-tree-sitter: loaded once, on first use, so start-up stays fast. */
export function loadBashParser(): Promise<Parser> {
  parserReady ??= keepingEventLoopAlive(() =>
    compilingEagerly(async () => {
      await Parser.init();
      const language = await Language.load(bashGrammarFile());
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    }),
  );
  return parserReady;
}

export async function parseBash(source: string): Promise<Tree> {
  const parser = await loadBashParser();
  const tree = parser.parse(source);
  if (tree === null) throw new Error('the bash parser returned no tree');
  return tree;
}
