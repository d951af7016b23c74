#!/usr/bin/env node
// pnpm demo: riskgate in SQL mode on the embedded demo database, talking to a scripted model
// on 127.0.0.1 — the whole product without an API key or a network.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(`${root}packages/testing/package.json`);
const server = spawn(
  process.execPath,
  [require.resolve('tsx/cli'), `${root}packages/testing/src/serve.ts`, `${root}scripts/demo-script.json`],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const baseURL = await new Promise((resolve, reject) => {
  server.stdout.once('data', (chunk) => resolve(chunk.toString().trim()));
  server.once('exit', (code) => reject(new Error(`the scripted model server exited (${code})`)));
});
const cli = spawn(process.execPath, [`${root}apps/cli/dist/riskgate.js`, 'sql', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'demo', RISKGATE_MODEL: 'riskgate-demo' },
});
cli.on('exit', (code) => {
  server.kill();
  process.exit(code ?? 0);
});
