#!/usr/bin/env node
// node scripts/set-version.mjs 0.2.0: every published package moves to the same version (they
// pin each other to it exactly when packed: workspace:* becomes that version).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

// Published = every package under packages/ and apps/ that is not private.
const root = new URL('..', import.meta.url);
const PUBLISHED = ['packages', 'apps']
  .flatMap((folder) => readdirSync(new URL(folder, root)).map((name) => `${folder}/${name}`))
  .filter((directory) => JSON.parse(readFileSync(new URL(`${directory}/package.json`, root), 'utf8')).private !== true);
const version = process.argv[2];
if (version === undefined || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error('usage: node scripts/set-version.mjs <major.minor.patch[-pre]>');
  process.exit(1);
}
for (const directory of PUBLISHED) {
  const path = new URL(`${directory}/package.json`, root);
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  manifest.version = version;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${manifest.name} ${version}`);
}
