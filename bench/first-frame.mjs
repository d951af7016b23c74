// Time from spawning `riskgate sql` in a pseudo-terminal (util-linux `script`) until its first
// frame (the status line) is on the screen. Prints one JSON object: the median of N runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [cli, database, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 11);
const home = mkdtempSync(join(tmpdir(), 'riskgate-frame-'));
const env = {
  ...process.env,
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  RISKGATE_MODEL: 'bench-model',
  XDG_STATE_HOME: join(home, 'state'),
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
};

/**
 * Time until `marker` appears on the pseudo-terminal. The baseline runs `node -e` that prints
 * the marker through the same harness, so the ratio compares like with like.
 */
function once(command, marker = 'bench-model') {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', `stty cols 120 rows 40; ${command}`, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no first frame; output: ${seen.slice(-500)}`));
    }, 20_000);
    child.stdout.on('data', (chunk) => {
      seen += chunk.toString();
      if (seen.includes(marker)) {
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve(elapsed);
      }
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const frames = [];
const baselines = [];
for (let index = 0; index < runs; index++) {
  baselines.push(await once(`${process.execPath} -e "process.stdout.write('bench-model')"`));
  frames.push(await once(`${process.execPath} ${cli} sql --db ${database}`));
}
rmSync(home, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ runs, median: median(frames), baseline: median(baselines), min: Math.min(...frames), max: Math.max(...frames) })}\n`,
);
