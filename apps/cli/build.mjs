// Bundles the CLI so it starts fast: one small entry chunk for --version and --help, and the
// rest (tools, parsers, drivers) in chunks loaded only when a command needs them.
import { chmod, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const manifest = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));

// Native addons and packages that load WASM files relative to themselves stay outside the bundle.
// react-devtools-core is ink's optional DEV=true hook.
const external = ['better-sqlite3', 'pg-native', 'libpg-query', 'web-tree-sitter', 'tree-sitter-bash', 'react-devtools-core'];

await rm(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { riskgate: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __riskgateCreateRequire } from 'node:module'; const require = __riskgateCreateRequire(import.meta.url);",
  },
  define: { RISKGATE_VERSION: JSON.stringify(manifest.version) },
  // Prompt templates are Markdown files imported as strings.
  loader: { '.md': 'text' },
  sourcemap: 'linked',
  logLevel: 'warning',
});
await chmod(new URL('./dist/riskgate.js', import.meta.url), 0o755);
