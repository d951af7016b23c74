import { loadBashParser as loadParser } from './bash-parser.js';

/**
 * The parser as the package's declarations name it. web-tree-sitter's own types stay out of the
 * published `.d.ts`: they need the global types of `@types/emscripten`, which a consumer that
 * type-checks with `skipLibCheck: false` would otherwise have to install (issue 22).
 */
export interface BashParser {
  parse(source: string): { readonly rootNode: { readonly type: string; readonly hasError: boolean } } | null;
}

/** Loads tree-sitter-bash once (a host starts it ahead, so the first command waits less). */
export function loadBashParser(): Promise<BashParser> {
  return loadParser();
}
