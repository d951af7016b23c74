// The gate's latency per call over the held-out-style corpora (bench/gate-eval/*.jsonl and
// bench/real-world-commands/*.jsonl), in a real tree: the built CLI's `riskgate assess --jsonl`,
// one request at a time (each timed from writing its line to reading its verdict), with this
// checkout (node_modules included) as the workspace and the command's directory, the gate-eval
// fixture as the home, names resolved from bench/gate-eval/hosts.json, the sandbox on.
//   pnpm build && node bench/gate-latency.bench.mjs [rounds]
// Two rounds after a warm-up round: a call's cost is its lower round (a descheduled tick on this
// shared machine is not the gate's); p50/p99/max over calls, and the calls over 50 ms.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildFixture, substitute } from '../scripts/gate-eval-fixture.mjs';

const rounds = Number(process.argv[2] ?? 2);
const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const cli = join(root, 'apps/cli/dist/riskgate.js');
const fixture = buildFixture();
const requests = [];
for (const file of [
  'gate-eval/commands-dangerous.jsonl',
  'gate-eval/commands-safe.jsonl',
  'gate-eval/files.jsonl',
  'gate-eval/http.jsonl',
  'gate-eval/sql.jsonl',
  'real-world-commands/read-only.jsonl',
  'real-world-commands/side-effect.jsonl',
]) {
  for (const text of readFileSync(join(root, 'bench', file), 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const row = JSON.parse(text);
    const line = substitute(
      row.tool === undefined ? { tool: 'execute_command', args: { command: row.command } } : row,
      fixture,
    );
    const request = { tool: line.tool, args: line.args, cwd: root };
    if (line.dialect !== undefined) request.dialect = line.dialect;
    requests.push({ file, request });
  }
}

const child = spawn(
  process.execPath,
  ['--import', pathToFileURL(join(root, 'scripts/gate-eval-dns.mjs')).href, cli, 'assess', '--jsonl', '--cwd', root],
  { cwd: root, env: fixture.env, stdio: ['pipe', 'pipe', 'inherit'] },
);
let buffered = '';
let waiting;
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  buffered += chunk;
  let cut = buffered.indexOf('\n');
  while (cut !== -1) {
    const line = buffered.slice(0, cut);
    buffered = buffered.slice(cut + 1);
    waiting?.(line);
    cut = buffered.indexOf('\n');
  }
});
async function timed(request) {
  const started = performance.now();
  const line = await new Promise((resolve) => {
    waiting = resolve;
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
  return { ms: performance.now() - started, verdict: JSON.parse(line) };
}

const costs = requests.map(() => Number.POSITIVE_INFINITY);
const asked = requests.map(() => false);
for (let round = 0; round <= rounds; round++) {
  for (const [index, { request }] of requests.entries()) {
    const { ms, verdict } = await timed(request);
    if (round > 0) costs[index] = Math.min(costs[index], ms);
    asked[index] = verdict.decision !== 'execute';
  }
}
child.stdin.end();
fixture.cleanup();
const sorted = [...costs].sort((a, b) => a - b);
const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const slow = requests
  .map((entry, index) => ({ ...entry, ms: costs[index] }))
  .filter((entry) => entry.ms > 50)
  .sort((a, b) => b.ms - a.ms);
console.error(
  slow
    .slice(0, 15)
    .map((entry) => `${entry.ms.toFixed(1)} ms  ${entry.file}  ${JSON.stringify(entry.request.args).slice(0, 100)}`)
    .join('\n'),
);
console.log(
  JSON.stringify({
    calls: requests.length,
    rounds,
    p50: at(50),
    p99: at(99),
    max: sorted.at(-1),
    over50: slow.length,
    unasked: asked.filter((value) => !value).length,
  }),
);
