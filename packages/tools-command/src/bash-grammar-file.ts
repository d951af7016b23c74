import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Where tree-sitter-bash's compiled grammar is. The package ships the one file it needs in
 * grammar/ (copied there by `pnpm build`, its MIT licence beside it) instead of depending on
 * tree-sitter-bash, whose 20 MB are sources, native prebuilds and bindings riskgate never loads.
 * In the workspace before a build, the copy in tree-sitter-bash (a devDependency) is used.
 * The CLI's bundle replaces this module with one that points beside the bundle (apps/cli/build.mjs).
 */
export function bashGrammarFile(): string {
  const shipped = fileURLToPath(new URL('../grammar/tree-sitter-bash.wasm', import.meta.url));
  if (existsSync(shipped)) return shipped;
  return createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}
