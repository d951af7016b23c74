// What the sandbox's bounds cost per call: runCommand('true') in the sandbox with the bounds
// (run cgroup or rlimits, sized tmpfs, the /bin/sh wrapper) against the same without them.
//   npx tsx --conditions=@riskgate/source bench/sandbox-bounds.bench.ts [calls]
// Calls alternate (with, without, with, …) so that load on this shared machine falls on both,
// 100 ms apart: a model's calls come seconds apart, and riskgate removes a run's cgroup and
// prepares the next one (its cgroup and a zygote in it, zygote.ts) in that idle time. The gap
// also lets the kernel's cgroup lock return to its fast mode, so that a design that moved a
// process into a cgroup on the call's path would pay for it here as it would in real use.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cgroupHome, describeBounds, probeSandbox, runCommand, splitHostReader } from '@riskgate/tools-command';

const calls = Number(process.argv[2] ?? 100);
if (!(await probeSandbox()).available) throw new Error('no sandbox here: the bench measures bubblewrap');

// A small project as the workspace: the sandbox walks it for secret files to hide (a walk of `/`
// would time the scan, not the bounds).
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-bounds-bench-'));
writeFileSync(join(workspace, 'README.md'), '# bench\n');
const options = {
  cwd: workspace,
  signal: new AbortController().signal,
  maxOutputBytes: 4_096,
  timeoutMs: 30_000,
  sandbox: true,
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(command: string, extra: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = await runCommand(command, { ...options, ...extra });
  if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.output}`);
  return performance.now() - started;
}

const split = await splitHostReader('ps -e | wc -l');
if (split === undefined) throw new Error('ps -e | wc -l was not split');
for (let warm = 0; warm < 5; warm++) {
  await timed('true', {});
  await timed('true', { bounds: false });
}
const bounded: number[] = [];
const unbounded: number[] = [];
const reader: number[] = [];
const idle = () => new Promise((resolve) => setTimeout(resolve, 100));
for (let call = 0; call < calls; call++) {
  bounded.push(await timed('true', {}));
  await idle();
  unbounded.push(await timed('true', { bounds: false }));
  await idle();
  if (call % 5 === 0) reader.push(await timed('ps -e | wc -l', { hostReader: split }));
}
const withBounds = median(bounded);
const withoutBounds = median(unbounded);
console.log(
  JSON.stringify({
    calls,
    mechanism: cgroupHome()?.mechanism ?? 'rlimits',
    bounds: describeBounds(),
    withBounds,
    withoutBounds,
    // Each call with bounds against the call without that follows it: a pair shares the load of
    // its moment on this shared machine, so the median of the differences is steadier than the
    // difference of the medians.
    added: median(bounded.map((time, index) => time - unbounded[index]!)),
    differenceOfMedians: withBounds - withoutBounds,
    hostReaderSplit: median(reader),
    hostReaderCalls: reader.length,
  }),
);
