import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox, runCommand } from '../src/index.js';
import { zygoteWaiting } from '../src/zygote.js';

const available = (await probeSandbox()).available;
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-zygote-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const options = {
  cwd: workspace,
  signal: new AbortController().signal,
  maxOutputBytes: 4_096,
  timeoutMs: 10_000,
  sandbox: true,
  // Bounds by rlimits alone, as where no cgroup can be had.
  cgroups: false,
} as const;
/** Until the next run's zygote waits (prepared a moment after a run: RunCgroup.removeLater), or 2 s. */
const turn = async () => {
  for (let waited = 0; waited < 2_000 && !zygoteWaiting(); waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('without a cgroup, the next sandboxed run is started from a zygote, not by forking riskgate', () => {
  it.runIf(available)('prepares one after a run and hands it the next command, bounds in force', async () => {
    expect((await runCommand('true', options)).exitCode).toBe(0);
    await turn();
    expect(zygoteWaiting()).toBe(true);
    // The zygote runs the command in bubblewrap with the rlimits, in the command's directory and environment.
    const pending = runCommand('ulimit -t; ulimit -f; pwd; echo "$RG_PROBE"', {
      ...options,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', RG_PROBE: 'it is here' },
    });
    // Taken at once, before the run's first await: this call forked nothing of riskgate's.
    expect(zygoteWaiting()).toBe(false);
    const result = await pending;
    expect(result.exitCode).toBe(0);
    expect(result.output.split('\n')).toEqual(['11', String(256 * 1024), workspace, 'it is here', '']);
    await turn();
    expect(zygoteWaiting()).toBe(true);
  });

  it.runIf(available)('still ends a run at its timeout and reports it', async () => {
    await runCommand('true', options);
    await turn();
    const result = await runCommand('sleep 30', { ...options, timeoutMs: 300, killGraceMs: 200 });
    expect(result.timedOut).toBe(true);
  });
});
