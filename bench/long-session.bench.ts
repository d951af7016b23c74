// A 200-turn TUI session in a real pseudo-terminal (tmux): each turn runs a 500-row SELECT and
// answers. Prints one JSON object: the riskgate process's RSS at turns 50…200, its growth per
// turn, the transcript's size and the time a headless resume of it takes. RSS is sampled every
// 10 turns and the growth is the least-squares slope from turn 50 on: a single sample swings by
// tens of MB with when V8 last collected garbage, a slope over 16 samples does not.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer } from '../packages/testing/src/index.js';

const [cli, turnsText] = process.argv.slice(2);
const turns = Number(turnsText ?? 200);
const home = mkdtempSync(join(tmpdir(), 'riskgate-long-'));
const socket = `riskgate-bench-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const select =
  "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT i AS id, printf('row %d of a long result with some text', i) AS note FROM n";
const replies = Array.from({ length: turns }, (_, turn) => [
  { toolCalls: [{ name: 'execute_sql', arguments: { sql: select } }] },
  { text: `Answer ${turn}.` },
]).flat();
const server = await startScriptedModelServer(replies);
const env = {
  OPENAI_BASE_URL: server.baseURL,
  RISKGATE_MODEL: 'bench-model',
  XDG_STATE_HOME: join(home, 'state'),
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
};
const pidFile = join(home, 'pid');
// A launcher script: no quoting of the environment through tmux and sh.
const launcher = join(home, 'launch.sh');
writeFileSync(
  launcher,
  `#!/bin/sh\necho $$ > '${pidFile}'\n${Object.entries(env)
    .map(([key, value]) => `export ${key}='${value}'`)
    .join('\n')}\nexec '${process.execPath}' '${cli}' sql\n`,
  { mode: 0o700 },
);
tmux('new-session', '-d', '-s', 'bench', '-x', '120', '-y', '40', launcher);

const screen = () => tmux('capture-pane', '-p', '-t', 'bench');
async function waitFor(pattern: RegExp, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(screen())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const rssMb = () => {
  const pid = readFileSync(pidFile, 'utf8').trim();
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

const samples: Record<number, number> = {};
try {
  await waitFor(/bench-model/);
  for (let turn = 0; turn < turns; turn++) {
    tmux('send-keys', '-t', 'bench', '-l', `question ${turn}`);
    tmux('send-keys', '-t', 'bench', 'Enter');
    await waitFor(new RegExp(`Answer ${turn}\\.[\\s\\S]*Ask anything`));
    if ((turn + 1) % 10 === 0) {
      // Let a GC cycle settle before sampling.
      await new Promise((resolve) => setTimeout(resolve, 500));
      samples[turn + 1] = rssMb();
    }
  }
  tmux('send-keys', '-t', 'bench', 'C-d');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const sessions = join(home, 'state', 'riskgate', 'sessions');
  const file = join(sessions, readdirSync(sessions)[0]!);
  const resumeServer = await startScriptedModelServer([{ text: 'resumed' }]);
  const started = process.hrtime.bigint();
  // Asynchronously: the model server answering it lives in this process.
  const resumed = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, 'sql', '--resume', file, '-p', 'go on'], {
      env: { ...process.env, ...env, OPENAI_BASE_URL: resumeServer.baseURL },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const resumeMs = Number(process.hrtime.bigint() - started) / 1e6;
  await resumeServer.close();
  if (resumed.code !== 0) throw new Error(`resume failed: ${resumed.stderr}`);
  const points = Object.entries(samples)
    .map(([turn, mb]) => [Number(turn), mb] as const)
    .filter(([turn]) => turn >= 50);
  const meanTurn = points.reduce((sum, [turn]) => sum + turn, 0) / points.length;
  const meanMb = points.reduce((sum, [, mb]) => sum + mb, 0) / points.length;
  const slope =
    points.reduce((sum, [turn, mb]) => sum + (turn - meanTurn) * (mb - meanMb), 0) /
    points.reduce((sum, [turn]) => sum + (turn - meanTurn) ** 2, 0);
  const every50 = Object.fromEntries(
    Object.entries(samples)
      .filter(([turn]) => Number(turn) % 50 === 0)
      .map(([turn, mb]) => [turn, Math.round(mb * 10) / 10]),
  );
  const values = points.map(([, mb]) => mb);
  console.log(
    JSON.stringify({
      turns,
      rssMb: every50,
      rssRangeMb: [Math.min(...values), Math.max(...values)].map((mb) => Math.round(mb * 10) / 10),
      growthPerTurnMb: slope,
      transcriptMb: statSync(file).size / 1024 / 1024,
      resumeMs,
    }),
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  try {
    tmux('kill-server');
  } catch {
    // Already gone.
  }
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
