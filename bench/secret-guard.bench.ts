// The output guard's cost on a whitelisted `cat` of a 10 MB log (issue 17).
//   npx tsx --conditions=@riskgate/source bench/secret-guard.bench.ts [megabytes] [runs]
// The same call runs through the gated executor with the real command tool (in the sandbox
// where it works) twice per run: with the output guard (the secret engine) and with a guard that
// passes everything. The guard sees what the model would get: the tool caps its copy at 30 KB
// (head and tail), so a 10 MB log costs the guard 30 KB; the guard on the whole 10 MB is timed
// apart, for the day the cap changes. The log is made of seeded, realistic lines with lookalikes
// of secrets (placeholders, names), so the keyword prefilter lets rules run; a log holding a real
// secret is a secret file, hidden and asked, and its `cat` never runs unasked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The gated executor by path: @riskgate/core is not a dependency of the root package.
import { createOutputGuard, runGatedToolCall } from '../packages/core/src/index.js';
import { createExecuteCommandTool, probeSandbox } from '@riskgate/tools-command';

const megabytes = Number(process.argv[2] ?? 10);
const runs = Number(process.argv[3] ?? 9);

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function logText(bytes: number): string {
  const random = seeded(17);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const word = () => Math.floor(random() * 1e9).toString(36);
  const templates = [
    () => `INFO GET /api/v1/orders/${word()}?page=${Math.floor(random() * 50)} 200 ${Math.floor(random() * 90)}ms`,
    () => `DEBUG user=${word()} request=${word()}${word()} token refreshed in ${Math.floor(random() * 900)}ms`,
    () => `WARN key rotation for tenant ${word()} scheduled; api_key_id=${word()}-${word()}`,
    () => `INFO connected to postgres://app@db.internal:5432/app as app (pool ${Math.floor(random() * 20)})`,
    () => `ERROR password authentication failed for user "${word()}"`,
    () => `INFO commit ${word()}${word()}${word()}${word()} deployed by ${word()}@example.com`,
    // Secrets in a log make the log a secret file (hidden and asked since the whole-file verdict):
    // the lines that look like them here are placeholders, which the guard must read and pass.
    () => `DEBUG Authorization: Bearer <redacted> (${word()})`,
    () => `INFO config DB_PASSWORD=\${DB_PASSWORD} loaded from env (${word()})`,
    () => `TRACE payload {"id": "${word()}", "secret_name": "prod/${word()}", "ok": true}`,
  ];
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `2024-05-01T12:${String(Math.floor(random() * 60)).padStart(2, '0')}:00Z ${pick(templates)()}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const workspace = mkdtempSync(join(tmpdir(), 'riskgate-guard-bench-'));
try {
  const text = logText(megabytes * 1024 * 1024);
  writeFileSync(join(workspace, 'app.log'), text);
  const sandbox = (await probeSandbox()).available;
  const tool = createExecuteCommandTool();
  const engine = createOutputGuard({ env: process.env });
  // The guard's own time inside each guarded call, as the executor runs it.
  const inCall: number[] = [];
  const guard = (forModel: string) => {
    const started = performance.now();
    const result = engine(forModel);
    inCall.push(performance.now() - started);
    return result;
  };
  const passAll = (forModel: string) => ({ text: forModel, withheld: [] });
  const call = async (outputGuard: typeof guard) => {
    const started = performance.now();
    const outcome = await runGatedToolCall(
      { id: 'bench', name: tool.name, arguments: { command: 'cat app.log' } },
      { tools: [tool], policy: { mode: 'smart', rules: [] }, assess: { cwd: workspace, sandbox }, outputGuard },
    );
    if (outcome.state !== 'succeeded') throw new Error(`cat did not run unasked: ${outcome.forModel.slice(0, 300)}`);
    return { ms: performance.now() - started, forModel: outcome.forModel };
  };
  await call(guard);
  await call(passAll);
  const guarded: number[] = [];
  const unguarded: number[] = [];
  let modelCopy = 0;
  for (let run = 0; run < runs; run++) {
    // Alternating, so drift on the shared machine falls on both alike.
    const withGuard = await call(guard);
    guarded.push(withGuard.ms);
    modelCopy = withGuard.forModel.length;
    unguarded.push((await call(passAll)).ms);
  }
  const capped: number[] = [];
  const whole: number[] = [];
  const sample = (await call(passAll)).forModel;
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    guard(sample);
    capped.push(performance.now() - started);
    if (run < 3) {
      started = performance.now();
      guard(text);
      whole.push(performance.now() - started);
    }
  }
  const result = {
    megabytes,
    runs,
    sandbox,
    modelCopyBytes: modelCopy,
    catWithoutGuardMs: median(unguarded),
    catWithGuardMs: median(guarded),
    addedPercent: ((median(guarded) - median(unguarded)) / median(unguarded)) * 100,
    // Fastest runs: the least disturbed by the other work on a shared machine.
    catWithoutGuardFastestMs: Math.min(...unguarded),
    catWithGuardFastestMs: Math.min(...guarded),
    addedFastestPercent: ((Math.min(...guarded) - Math.min(...unguarded)) / Math.min(...unguarded)) * 100,
    // The guard's own time against the call's: steadier than the difference of two noisy medians.
    guardSharePercent: (median(inCall.slice(1)) / median(unguarded)) * 100,
    guardOnModelCopyMs: median(capped),
    guardInCallMs: median(inCall.slice(1)),
    guardOnWholeLogMs: median(whole),
  };
  console.log(JSON.stringify(result));
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
