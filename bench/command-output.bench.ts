// `seq 1 5000000` through riskgate against bash: time and peak memory (max RSS).
//   pnpm build && npx tsx bench/command-output.bench.ts [lines] [runs]
// RSS flat: riskgate's peak RSS for the long output against the same session printing one line
// (`seq 1 1`), run for run: what the output adds to the process, which must not grow with it.
// The session runs in a small workspace of its own: the sandbox walks its workspace for secret
// files, and this bench times the output, not that walk (sandbox-call.bench.ts times the call).
// riskgate runs headless (`riskgate -p`) in chat mode with a scripted model that calls
// execute_command once; bash runs the same command into a pipe that is read and dropped.
// Whole processes are measured by GNU time (`/usr/bin/time -f "%e %M"`); the command's own
// time in riskgate is the audit log's durationMs for the call (assess, sandbox, run, capture),
// which leaves out Node's start-up and the model's replies. bash's time for the ratio is taken
// here to the microsecond (GNU time's %e has 10 ms steps, a tenth of bash's ~100 ms), and the
// ratio is given both of the medians and as the median of each run's call over its bash, which
// the shared machine's load swings less (the load average is printed at the start and the end). The timed call is the session's
// second: the first (`true`) pays for loading the bash grammar, which is not the output's cost.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
// The scripted model server by path: @riskgate/testing is not a dependency of the root package.
import { startScriptedModelServer } from '../packages/testing/src/index.js';

const lines = Number(process.argv[2] ?? 5_000_000);
const runs = Number(process.argv[3] ?? 5);
const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'apps/cli/dist/riskgate.js');
const command = `seq 1 ${lines}`;

/** Asynchronous: the scripted model server answers from this same process while the CLI runs. */
function measure(
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ seconds: number; megabytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIME %e %M', program, ...args], {
      env,
      ...(cwd === undefined ? {} : { cwd }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('close', (status) => {
      const match = /TIME ([\d.]+) (\d+)/.exec(stderr);
      if (status !== 0 || match === null)
        reject(new Error(`${program} ${args.join(' ')} failed: ${stderr.slice(-500)}`));
      else resolve({ seconds: Number(match[1]), megabytes: Number(match[2]) / 1024 });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const home = mkdtempSync(join(tmpdir(), 'riskgate-bench-'));
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-bench-workspace-'));
writeFileSync(join(workspace, 'README.md'), '# bench\n');
const bash: { seconds: number; megabytes: number }[] = [];
const riskgate: { seconds: number; megabytes: number }[] = [];
const oneLine: { seconds: number; megabytes: number }[] = [];
const call: number[] = [];
/** bash's wall time in seconds, to the microsecond. */
const bashWall: number[] = [];
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();

async function session(line: string): Promise<{ seconds: number; megabytes: number }> {
  const server = await startScriptedModelServer([
    { toolCalls: [{ name: 'execute_command', arguments: { command: line } }] },
    { text: 'done' },
  ]);
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    OPENAI_BASE_URL: server.baseURL,
    RISKGATE_MODEL: 'bench',
  };
  try {
    return await measure(process.execPath, [cli, '-p', 'count'], env, workspace);
  } finally {
    await server.close();
  }
}

try {
  for (let run = 0; run < runs; run++) {
    const bashStarted = performance.now();
    bash.push(await measure('bash', ['-c', `${command} | cat > /dev/null`], process.env));
    bashWall.push((performance.now() - bashStarted) / 1000);
    oneLine.push(await session('seq 1 1'));
    // A first call warms the session (the first tool call of a headless run waits for the bash
    // grammar's WebAssembly to finish compiling: issue 20's start-up half); the second is timed.
    const server = await startScriptedModelServer([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'true' } }] },
      // The model's reply before the timed call comes after 100 ms, faster than any endpoint
      // answers: as in a session, riskgate readies the next run 25 ms after a run (zygote.ts
      // prepareAfterRun), and a reply within that would time a run without its zygote.
      { toolCalls: [{ name: 'execute_command', arguments: { command } }], delayMs: 100 },
      { text: 'done' },
    ]);
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      OPENAI_BASE_URL: server.baseURL,
      RISKGATE_MODEL: 'bench',
    };
    riskgate.push(await measure(process.execPath, [cli, '-p', 'count'], env, workspace));
    await server.close();
    const audit = readFileSync(join(home, 'state', 'riskgate', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const entry = audit.at(-1) as { outcome: string; durationMs: number; decision: { source: string } };
    if (entry.outcome !== 'succeeded') throw new Error(`the call did not succeed: ${JSON.stringify(entry)}`);
    call.push(entry.durationMs / 1000);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
}
const sandbox =
  spawnSync(process.execPath, [cli, 'doctor'], { encoding: 'utf8' }).stdout.match(/sandbox +(.*)/)?.[1] ?? '?';
const b = { seconds: median(bashWall), megabytes: median(bash.map((x) => x.megabytes)) };
const r = { seconds: median(riskgate.map((x) => x.seconds)), megabytes: median(riskgate.map((x) => x.megabytes)) };
console.log(`${command}, median of ${runs} runs (${sandbox.slice(0, 60)}); load ${loadAtStart} → ${load()}`);
console.log(`bash      ${b.seconds.toFixed(3)} s  ${b.megabytes.toFixed(1)} MB`);
console.log(`riskgate  ${r.seconds.toFixed(2)} s  ${r.megabytes.toFixed(1)} MB`);
const c = median(call);
const callPairs = median(call.map((seconds, index) => seconds / bashWall[index]!));
console.log(`  the call ${c.toFixed(3)} s (audit durationMs)`);
console.log(
  `ratio     the call ${(c / b.seconds).toFixed(2)}× bash (median of runs ${callPairs.toFixed(2)}×); whole process ${(r.seconds / b.seconds).toFixed(2)}× time, ${(r.megabytes / b.megabytes).toFixed(2)}× memory`,
);
const one = median(oneLine.map((x) => x.megabytes));
// Run for run: the long output's peak RSS minus the one-line session's.
const rssAdded = median(riskgate.map((x, index) => x.megabytes - oneLine[index]!.megabytes));
console.log(`rss       one line ${one.toFixed(1)} MB; ${lines} lines add ${rssAdded.toFixed(1)} MB (median of pairs)`);
console.log(
  JSON.stringify({
    lines,
    runs,
    bash: b,
    riskgate: r,
    callSeconds: c,
    callRatio: c / b.seconds,
    callRatioOfRuns: callPairs,
    load: { start: loadAtStart, end: load() },
    oneLineMegabytes: one,
    rssAddedMegabytes: rssAdded,
    sandbox,
  }),
);
