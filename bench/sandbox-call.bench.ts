// A steady-state sandboxed call against the bare bwrap floor (issue 20).
//   npx tsx --conditions=@riskgate/source bench/sandbox-call.bench.ts [calls] [workspace|-] [rlimits]
// riskgate: runCommand('true') in the sandbox, with the bounds, in a process that holds what a
// session holds (the bash grammar and PostgreSQL's parser loaded: two WebAssembly memories).
// The floor: the same bwrap command line (the same arguments, hidden paths and rlimit prefix; no
// cgroup) run with execa from a bare Node process (bench/sandbox-call-floor.mjs). Calls alternate,
// 100 ms apart (a model's calls come seconds apart; riskgate prepares the next run in between).
// The workspace is a small project unless one is named (this checkout: a real tree).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assessCommand, cgroupHome, probeSandbox, runCommand } from '@riskgate/tools-command';
import { assessSql } from '@riskgate/tools-sql';
import { childEnvironment } from '../packages/tools-command/src/child-environment.js';
import { launchFor } from '../packages/tools-command/src/run-launch.js';
import { SANDBOX_ENVIRONMENT } from '../packages/tools-command/src/sandbox.js';

const calls = Number(process.argv[2] ?? 60);
const root = new URL('..', import.meta.url).pathname;
if (!(await probeSandbox()).available) throw new Error('no sandbox here: the bench measures bubblewrap');
const rlimits = process.argv[4] === 'rlimits';
let workspace = process.argv[3] === '-' ? undefined : process.argv[3];
if (workspace === undefined) {
  workspace = mkdtempSync(join(tmpdir(), 'riskgate-call-bench-'));
  writeFileSync(join(workspace, 'README.md'), '# bench\n');
}
workspace = realpathSync(workspace);

// What a session holds: both grammars loaded.
await assessCommand('ls -la', { cwd: workspace });
await assessSql('SELECT 1', { dialect: 'postgres' } as never);
const addressSpaceGb = addressSpace();

const options = {
  cwd: workspace,
  workspace,
  signal: new AbortController().signal,
  maxOutputBytes: 30_000,
  timeoutMs: 30_000,
  sandbox: true,
  // Bounds by rlimits alone, as on a machine without a usable cgroup.
  ...(rlimits ? { cgroups: false } : {}),
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The floor's command line: what riskgate runs, taken from riskgate (its own hidden paths and rlimits).
const launch = launchFor({
  command: 'true',
  cwd: workspace,
  workspace,
  sandbox: true,
  timeoutMs: 30_000,
  cgroups: false,
});
const filter = readlinkSync(`/proc/self/fd/${launch.extraFds[0]}`);
launch.release();
const env = { ...childEnvironment(process.env), ...SANDBOX_ENVIRONMENT, ...launch.env, PAGER: 'cat', TERM: 'dumb' };
const execaPath = join(realpathSync(join(root, 'packages/tools-command/node_modules/execa')), 'index.js');
const floor: ChildProcess = fork(join(root, 'bench/sandbox-call-floor.mjs'), [execaPath], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const replies: ((message: { ms: number; exitCode: number; stderr: string }) => void)[] = [];
floor.on('message', (message: { ready?: boolean; ms: number; exitCode: number; stderr: string }) => {
  if (message.ready !== true) replies.shift()?.(message);
});
await new Promise((resolve) => floor.once('message', resolve));

async function floorCall(): Promise<number> {
  const reply = await new Promise<{ ms: number; exitCode: number; stderr: string }>((resolve) => {
    replies.push(resolve);
    floor.send({ file: launch.file, args: launch.args, cwd: workspace, env, filter });
  });
  if (reply.exitCode !== 0) throw new Error(`the floor failed: ${reply.stderr}`);
  return reply.ms;
}

async function riskgateCall(): Promise<number> {
  const started = performance.now();
  const result = await runCommand('true', options);
  if (result.exitCode !== 0) throw new Error(`true failed: ${result.output}`);
  return performance.now() - started;
}

const idle = () => new Promise((resolve) => setTimeout(resolve, 100));
for (let warm = 0; warm < 5; warm++) {
  await riskgateCall();
  await idle();
  await floorCall();
  await idle();
}
const ours: number[] = [];
const bare: number[] = [];
for (let call = 0; call < calls; call++) {
  ours.push(await riskgateCall());
  await idle();
  bare.push(await floorCall());
  await idle();
}
floor.kill();
console.log(
  JSON.stringify({
    calls,
    workspace: process.argv[3] === undefined || process.argv[3] === '-' ? 'a small project' : workspace,
    mechanism: rlimits ? 'rlimits' : (cgroupHome()?.mechanism ?? 'rlimits'),
    addressSpaceGb,
    riskgateMs: median(ours),
    floorMs: median(bare),
    ratio: median(ours) / median(bare),
    // Each riskgate call over the floor call that follows it: a pair shares its moment's load.
    pairRatio: median(ours.map((time, index) => time / bare[index]!)),
  }),
);

function addressSpace(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/VmSize:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 / 1024;
}
