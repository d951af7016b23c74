// Copies tree-sitter-bash's compiled grammar and its licence into grammar/, the one file of that
// package riskgate loads: the published package ships it instead of depending on
// tree-sitter-bash (20 MB of sources, native prebuilds and bindings). Run by `pnpm build`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const source = dirname(require.resolve('tree-sitter-bash/package.json'));
const target = fileURLToPath(new URL('../grammar/', import.meta.url));
mkdirSync(target, { recursive: true });
copyFileSync(`${source}/tree-sitter-bash.wasm`, `${target}tree-sitter-bash.wasm`);
copyFileSync(`${source}/LICENSE`, `${target}tree-sitter-bash.LICENSE`);
