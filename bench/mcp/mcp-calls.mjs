// riskgate mcp against a plain MCP server (plain-sqlite-server.mjs: the SDK and better-sqlite3),
// both over stdio with the SDK's client, on the same SQLite file: the time to the `initialize`
// reply, the first whitelisted SELECT (after tools/list and a 1 s pause, as a client's model
// takes before its first call), and the p50 of the calls after it. Servers alternate, one
// session each per round; per-call figures are pooled over rounds. Prints one JSON line.
//   node bench/mcp/mcp-calls.mjs apps/cli/dist/riskgate.js [rounds] [calls]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../../apps/cli/package.json', import.meta.url));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const Database = require('better-sqlite3');

const [cliArgument, roundsText, callsText] = process.argv.slice(2);
if (cliArgument === undefined) throw new Error('usage: mcp-calls.mjs <riskgate.js> [rounds] [calls]');
const cli = resolve(cliArgument);
const rounds = Number(roundsText ?? 5);
const calls = Number(callsText ?? 200);
const directory = mkdtempSync(join(tmpdir(), 'riskgate-mcp-bench-'));
const file = join(directory, 'shop.sqlite');
const setup = new Database(file);
setup.exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, total REAL);
  WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000)
  INSERT INTO orders SELECT n, 'customer ' || n, n * 1.5 FROM g;`);
setup.close();
const env = {
  ...process.env,
  XDG_STATE_HOME: join(directory, 'state'),
  XDG_CONFIG_HOME: join(directory, 'config'),
  XDG_CACHE_HOME: join(directory, 'cache'),
};
const servers = {
  riskgate: { command: process.execPath, args: [cli, 'mcp', '--db', file] },
  plain: {
    command: process.execPath,
    args: [fileURLToPath(new URL('./plain-sqlite-server.mjs', import.meta.url)), file],
  },
};
const statement = { name: 'execute_sql', arguments: { sql: 'SELECT id, customer, total FROM orders WHERE id = 42' } };

async function session({ command, args }) {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  const started = performance.now();
  await client.connect(new StdioClientTransport({ command, args, env, cwd: directory, stderr: 'ignore' }));
  const initialize = performance.now() - started;
  await client.listTools();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const firstStarted = performance.now();
  const first = await client.callTool(statement);
  const firstCall = performance.now() - firstStarted;
  if (first.isError) throw new Error(`${args.join(' ')}: ${JSON.stringify(first.content)}`);
  const samples = [];
  for (let index = 0; index < calls; index++) {
    const callStarted = performance.now();
    const result = await client.callTool(statement);
    samples.push(performance.now() - callStarted);
    if (result.isError) throw new Error(JSON.stringify(result.content));
  }
  await client.close();
  return { initialize, firstCall, samples };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = {
  riskgate: { initialize: [], firstCall: [], samples: [] },
  plain: { initialize: [], firstCall: [], samples: [] },
};
try {
  for (let round = 0; round < rounds; round++) {
    for (const [name, server] of Object.entries(servers)) {
      const run = await session(server);
      results[name].initialize.push(run.initialize);
      results[name].firstCall.push(run.firstCall);
      results[name].samples.push(...run.samples);
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
const summary = Object.fromEntries(
  Object.entries(results).map(([name, run]) => [
    name,
    { initializeMs: median(run.initialize), firstCallMs: median(run.firstCall), p50Ms: median(run.samples) },
  ]),
);
process.stdout.write(
  `${JSON.stringify({ rounds, calls, ...summary, p50Ratio: summary.riskgate.p50Ms / summary.plain.p50Ms })}\n`,
);
