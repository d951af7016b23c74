// A headless session with one whitelisted tool call against a text-only session, as whole
// processes: `riskgate -p` against the scripted OpenAI-compatible server, the two in turn (A B A
// B …) so drift hits both. Also a SQL-mode session on PostgreSQL (when one is reachable) with one
// SELECT, to see its exit. Prints one JSON line.
//   npx tsx --conditions=@riskgate/source bench/headless-call.bench.ts <riskgate.js> [runs] [postgres-url]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// The scripted model server by path: @riskgate/testing is not a dependency of the root package.
import { type ScriptedReply, startScriptedModelServer } from '../packages/testing/src/index.js';

const [cliArgument, runsText, postgresUrl] = process.argv.slice(2);
const cli = cliArgument === undefined ? undefined : resolve(cliArgument);
if (cli === undefined) throw new Error('usage: headless-call.bench.ts <riskgate.js> [runs] [postgres-url]');
const runs = Number(runsText ?? 11);
const home = mkdtempSync(join(tmpdir(), 'riskgate-headless-'));
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-headless-work-'));
const server = await startScriptedModelServer([]);
const env = {
  ...process.env,
  OPENAI_BASE_URL: server.baseURL,
  RISKGATE_MODEL: 'scripted-model',
  XDG_STATE_HOME: join(home, 'state'),
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
};

const answer: ScriptedReply = { text: 'done' };
const oneCall = (name: string, args: Record<string, unknown>): ScriptedReply => ({
  toolCalls: [{ name, arguments: args }],
});

/** Wall clock of one `riskgate [args] -p question` from spawn to exit; fails unless it exits 0. */
function once(args: readonly string[], replies: readonly ScriptedReply[]): Promise<number> {
  server.push(...replies);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli!, ...args, '-p', 'go'], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => {
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`riskgate ${args.join(' ')} exited ${code}: ${stderr}`));
      else if (server.remaining() !== 0) reject(new Error(`the model's script was not used up: ${stderr}`));
      else resolve(elapsed);
    });
  });
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function pair(a: () => Promise<number>, b: () => Promise<number>) {
  await a();
  await b();
  const first: number[] = [];
  const second: number[] = [];
  const ratios: number[] = [];
  for (let index = 0; index < runs; index++) {
    const x = await a();
    const y = await b();
    first.push(x);
    second.push(y);
    ratios.push(x / y);
  }
  return { withCall: median(first), textOnly: median(second), ratio: median(ratios) };
}

try {
  const command = await pair(
    () => once([], [oneCall('execute_command', { command: 'true' }), answer]),
    () => once([], [answer]),
  );
  let postgres: Awaited<ReturnType<typeof pair>> | undefined;
  if (postgresUrl !== undefined) {
    postgres = await pair(
      () => once(['sql', '--db', postgresUrl], [oneCall('execute_sql', { sql: 'SELECT 1' }), answer]),
      () => once(['sql', '--db', postgresUrl], [answer]),
    );
  }
  process.stdout.write(`${JSON.stringify({ runs, command, ...(postgres === undefined ? {} : { postgres }) })}\n`);
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
}
