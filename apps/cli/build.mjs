// Bundles the CLI so it starts fast: one small entry chunk for --version and --help, and the
// rest (tools, parsers, drivers) in chunks loaded only when a command needs them.
import { chmod, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const manifest = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));

// Native addons and packages that load WASM files relative to themselves stay outside the bundle.
// react-devtools-core is ink's optional DEV=true hook.
// They are the only runtime dependencies in package.json; everything else is bundled.
const external = ['better-sqlite3', 'pg-native', 'libpg-query', 'web-tree-sitter', 'react-devtools-core'];

// @riskgate/prompt reads its templates from files at run time, found relative to its own module.
// In the bundle every chunk sits in dist/, so the templates are copied to dist/templates and
// the module that names their directory is replaced by one that points there.
const promptTemplatesBesideBundle = {
  name: 'riskgate-prompt-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]prompt[\\/]src[\\/]templates-directory\.ts$/ }, () => ({
      contents:
        "import { fileURLToPath } from 'node:url'; export const TEMPLATES_DIRECTORY = fileURLToPath(new URL('./templates/', import.meta.url));",
      loader: 'js',
    }));
  },
};

// @riskgate/tools-command ships tree-sitter-bash's compiled grammar in its grammar/ folder and
// finds it relative to its own module. In the bundle the grammar sits in dist/grammar (with its
// licence), so the module that names the file is replaced by one that points there.
const bashGrammarBesideBundle = {
  name: 'riskgate-bash-grammar',
  setup(build) {
    build.onLoad({ filter: /[\\/]tools-command[\\/]src[\\/]bash-grammar-file\.ts$/ }, () => ({
      contents:
        "import { fileURLToPath } from 'node:url'; export function bashGrammarFile() { return fileURLToPath(new URL('./grammar/tree-sitter-bash.wasm', import.meta.url)); }",
      loader: 'js',
    }));
  },
};

// zod's namespace (`z`) re-exports its 40-odd error-message locales, so a bundle keeps all of
// them (~350 KB parsed before the first frame: the config is checked with zod). riskgate's
// messages are English, the locale zod sets itself, so the namespace gets only that one.
const zodEnglishOnly = {
  name: 'riskgate-zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      loader: 'js',
    }));
  },
};

// The TUI's first frame without ICU (src/ui/graphemes.ts): Ink's dependencies create their
// Intl.Segmenter when their module loads, and string-width compiles \p{RGI_Emoji} on its first
// non-ASCII text — ≈ 45 ms before the prompt for a frame of ASCII and a few marks. In the bundle
// their module-level segmenters are made lazy (simple text segmented unit by unit, the rest by
// ICU), and string-width answers simple text first. A dependency that changes its code so that a
// rewrite no longer applies fails the build here rather than silently losing it.
const graphemesModule = fileURLToPath(new URL('./src/ui/graphemes.ts', import.meta.url));
const lazyTextMeasuring = {
  name: 'riskgate-lazy-text-measuring',
  setup(build) {
    build.onLoad(
      { filter: /[\\/](string-width|slice-ansi|@alcalzone[\\/]ansi-tokenize)[\\/].*\.js$/ },
      async (args) => {
        let contents = await readFile(args.path, 'utf8');
        if (!contents.includes('new Intl.Segmenter(')) return undefined;
        const segmenters = /^const (\w+) = new Intl\.Segmenter\(/gm;
        contents = contents.replace(segmenters, 'const $1 = __riskgateLazySegmenter(');
        if (contents.includes('new Intl.Segmenter('))
          throw new Error(`${args.path}: a segmenter the build cannot make lazy`);
        const widthFunction = /export default function stringWidth\((\w+), (\w+) = \{\}\) \{/;
        if (/[\\/]string-width[\\/]index\.js$/.test(args.path)) {
          if (!widthFunction.test(contents)) throw new Error(`${args.path}: stringWidth's signature changed`);
          contents = contents.replace(
            widthFunction,
            (whole, text, options) =>
              `${whole}\n\tif (typeof ${text} === 'string' && ${options}.ambiguousIsNarrow !== false) {` +
              ` const simple = __riskgateSimpleTextWidth(${text}); if (simple !== undefined) return simple; }`,
          );
        }
        const imports = `import { lazyGraphemeSegmenter as __riskgateLazySegmenter, simpleTextWidth as __riskgateSimpleTextWidth } from ${JSON.stringify(graphemesModule)};\n`;
        return { contents: imports + contents, loader: 'js', resolveDir: dirname(args.path) };
      },
    );
  },
};

// terminal-size (Ink's fallback when stdout has no size) imports node:child_process, which
// Node loads with net, streams and the rest (≈ 5 ms before the first frame) for a call made
// only on a terminal that reports no size. In the bundle the module is required on that call.
const terminalSizeLazyChildProcess = {
  name: 'riskgate-terminal-size-lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]terminal-size[\\/]index\.js$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      const eager = "import {execFileSync} from 'node:child_process';";
      if (!contents.includes(eager)) throw new Error(`${args.path}: its child_process import changed`);
      // `require` is the bundle's own (the banner's createRequire).
      const lazy = "const execFileSync = (...a) => require('node:child_process').execFileSync(...a);";
      return { contents: contents.replace(eager, lazy), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// signal-exit 3 (Ink's, and restore-cursor's) requires node:assert when it loads, for one
// `assert.equal(typeof cb, 'function', …)`: Node loads assert with its error classes and call
// tracker (≈ 5 ms before the first frame). In the bundle the same check is a line of its own.
const signalExitWithoutAssert = {
  name: 'riskgate-signal-exit-without-assert',
  setup(build) {
    build.onLoad({ filter: /[\\/]signal-exit[\\/]index\.js$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      const eager = "var assert = require('assert')";
      if (!contents.includes('assert')) return undefined;
      if (!contents.includes(eager)) throw new Error(`${args.path}: its assert import changed`);
      const check =
        'var assert = { equal: function (actual, expected, message) { if (actual != expected) throw new Error(message) } }';
      return { contents: contents.replace(eager, check), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// Ink keeps every line <Static> ever printed and writes it all again after clearing the
// terminal when a frame is taller than the screen. After riskgate clears the screen itself (a
// resize re-printing the transcript at the new width, /clear), those old lines would come back
// as ghosts at their old width. The bundle's render() also returns forgetStaticOutput(), which
// empties that record (src/ui/static-output.ts calls it).
const inkForgetStaticOutput = {
  name: 'riskgate-ink-forget-static-output',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]render\.js$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      const anchor = 'clear: instance.clear,';
      if (!contents.includes(anchor)) throw new Error(`${args.path}: render()'s returned object changed`);
      const added = `${anchor}\n        forgetStaticOutput: () => { instance.fullStaticOutput = ''; },`;
      return { contents: contents.replace(anchor, added), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

await rm(new URL('./dist', import.meta.url), { recursive: true, force: true });
const result = await build({
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
  // React's production build: without it React 19 (development) records a performance.measure
  // with the changed props of every render, kept by Node's timeline forever (0.4 MB per turn of
  // a long session, bench/long-session.bench.ts), and renders slower.
  define: { RISKGATE_VERSION: JSON.stringify(manifest.version), 'process.env.NODE_ENV': '"production"' },
  // The workspace packages are bundled from their TypeScript source (see their exports maps).
  conditions: ['@riskgate/source'],
  plugins: [
    promptTemplatesBesideBundle,
    bashGrammarBesideBundle,
    zodEnglishOnly,
    lazyTextMeasuring,
    terminalSizeLazyChildProcess,
    signalExitWithoutAssert,
    inkForgetStaticOutput,
  ],
  // No source maps in what is published: they were 11 MB of the tarball (every dependency's
  // source inlined) for stack traces a person never sees. RISKGATE_SOURCEMAP=1 builds them locally.
  sourcemap: process.env.RISKGATE_SOURCEMAP === '1' ? 'linked' : false,
  logLevel: 'warning',
  // RISKGATE_METAFILE=<file>: esbuild's account of every chunk and what it holds, for
  // scripts/start-path-bytes.mjs (which chunks load before the first frame).
  metafile: process.env.RISKGATE_METAFILE !== undefined,
});
if (process.env.RISKGATE_METAFILE !== undefined)
  await writeFile(process.env.RISKGATE_METAFILE, JSON.stringify(result.metafile));
const promptPackage = fileURLToPath(new URL('../../packages/prompt/templates', import.meta.url));
await cp(promptPackage, fileURLToPath(new URL('./dist/templates', import.meta.url)), { recursive: true });
// Built by @riskgate/tools-command's own build (turbo builds it first: it is a dependency).
const bashGrammar = fileURLToPath(new URL('../../packages/tools-command/grammar', import.meta.url));
await cp(bashGrammar, fileURLToPath(new URL('./dist/grammar', import.meta.url)), { recursive: true });
await chmod(new URL('./dist/riskgate.js', import.meta.url), 0o755);
