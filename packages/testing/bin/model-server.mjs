#!/usr/bin/env node
// Runs the scripted model server from a script file: riskgate-model-server script.json [--port N]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const serve = fileURLToPath(new URL('../src/serve.ts', import.meta.url));
const result = spawnSync(process.execPath, [tsx, serve, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
