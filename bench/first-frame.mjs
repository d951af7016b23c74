// Time from spawning riskgate in a pseudo-terminal (util-linux `script`) until its first frame
// (the prompt, with the status line under it) is on the screen, in SQL mode (`riskgate sql` on the demo
// database) and chat mode (`riskgate` in an empty project), each paired run by run with `node -e`
// printing the marker through the same harness. Prints one JSON object: medians of N runs, and the
// median of the pair-by-pair ratios.
//   node bench/first-frame.mjs apps/cli/dist/riskgate.js "$(node apps/cli/dist/riskgate.js demo-db)" 11
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [cliArgument, database, runsText] = process.argv.slice(2);
const cli = resolve(cliArgument);
const runs = Number(runsText ?? 11);
const home = mkdtempSync(join(tmpdir(), 'riskgate-frame-'));
// Chat mode's workspace: an empty project (the session walks its workspace after the first frame).
const project = mkdtempSync(join(tmpdir(), 'riskgate-frame-project-'));
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
 * The prompt's placeholder: the first frame is the prompt on the screen (with the status line
 * under it); the session — and the model's name in the status line — comes after it.
 */
const PROMPT = 'Ask anything';

/**
 * Time until `marker` appears on the pseudo-terminal. The baseline runs `node -e` that prints
 * the marker through the same harness, so the ratio compares like with like.
 */
function once(command, marker = PROMPT) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', `stty cols 120 rows 40; ${command}`, '/dev/null'], {
      env,
      cwd: project,
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
const baselineCommand = `${process.execPath} -e "process.stdout.write('${PROMPT}')"`;
const modes = { sql: `${process.execPath} ${cli} sql --db ${database}`, chat: `${process.execPath} ${cli}` };
const samples = { baseline: [], sql: [], chat: [], sqlRatio: [], chatRatio: [] };
await once(baselineCommand);
for (const command of Object.values(modes)) await once(command);
for (let index = 0; index < runs; index++) {
  for (const [mode, command] of Object.entries(modes)) {
    const baseline = await once(baselineCommand);
    const frame = await once(command);
    samples.baseline.push(baseline);
    samples[mode].push(frame);
    samples[`${mode}Ratio`].push(frame / baseline);
  }
}
rmSync(home, { recursive: true, force: true });
rmSync(project, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    runs,
    baseline: median(samples.baseline),
    // \`median\` is SQL mode's, as before chat mode was measured too.
    median: median(samples.sql),
    sqlRatio: median(samples.sqlRatio),
    chat: median(samples.chat),
    chatRatio: median(samples.chatRatio),
    min: Math.min(...samples.sql),
    max: Math.max(...samples.sql),
  })}\n`,
);
