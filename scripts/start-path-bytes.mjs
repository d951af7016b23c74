#!/usr/bin/env node
// How many bytes of JavaScript the CLI loads before a given chunk can run: the static-import
// closure of the entry chunk, of run-assistant and of the app's shell (the first frame), by package.
//   RISKGATE_METAFILE=/tmp/meta.json node apps/cli/build.mjs && node scripts/start-path-bytes.mjs /tmp/meta.json
import { readFileSync } from 'node:fs';

const [file, ...entries] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: start-path-bytes.mjs <metafile> [chunk name prefix …]');
const { outputs } = JSON.parse(readFileSync(file, 'utf8'));
const starts = (entries.length > 0 ? entries : ['riskgate.js', 'run-assistant-', 'App-']).map((prefix) => {
  const found = Object.keys(outputs).find((name) => name.split('/').at(-1).startsWith(prefix) && name.endsWith('.js'));
  if (found === undefined) throw new Error(`no chunk named ${prefix}…`);
  return found;
});
const loaded = new Set();
const pending = [...starts];
while (pending.length > 0) {
  const chunk = pending.pop();
  if (loaded.has(chunk)) continue;
  loaded.add(chunk);
  for (const imported of outputs[chunk].imports)
    if (imported.kind === 'import-statement' && outputs[imported.path]) pending.push(imported.path);
}
const byPackage = new Map();
let total = 0;
for (const chunk of loaded) {
  total += outputs[chunk].bytes;
  for (const [input, { bytesInOutput }] of Object.entries(outputs[chunk].inputs)) {
    const match = input.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
    const name =
      match?.[1] ??
      input
        .replace(/^(\.\.\/)+/, '')
        .split('/')
        .slice(0, 2)
        .join('/');
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
}
console.log(
  `${(total / 1024).toFixed(0)} KB in ${loaded.size} chunks before ${starts.map((name) => name.split('/').at(-1)).join(', ')} run`,
);
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${(bytes / 1024).toFixed(0).padStart(6)} KB  ${name}`);
