import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cgroupHome, prepareFirstRun, probeCgroupHome, probeSandbox, runCommand } from '../src/index.js';
import { zygoteWaiting } from '../src/zygote.js';

/**
 * The first sandboxed run readied off its path (issue 20): the cgroup probe without blocking,
 * and a zygote waiting in the first run's cgroup before the first command comes.
 */
const available = (await probeSandbox()).available;
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-first-run-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('the cgroup probe without blocking', () => {
  it('finds the home the blocking probe finds, the same object for the process, and leaves no probe behind', async () => {
    const found = await probeCgroupHome();
    expect(found).toBe(cgroupHome());
    expect(await probeCgroupHome()).toBe(found);
    for (const parent of new Set([found?.pids, found?.memory]))
      if (parent !== undefined)
        expect(readdirSync(parent).filter((name) => name.startsWith(`riskgate-${process.pid}-early`))).toEqual([]);
  });
});

describe('the first sandboxed run', () => {
  it.runIf(available)(
    'takes the zygote prepared before it, bounds in force, and a new one waits after it',
    async () => {
      await prepareFirstRun();
      expect(zygoteWaiting()).toBe(true);
      const pending = runCommand('ulimit -t; pwd', {
        cwd: workspace,
        signal: new AbortController().signal,
        maxOutputBytes: 4_096,
        timeoutMs: 10_000,
        sandbox: true,
      });
      // Taken before the run's first await: nothing of riskgate's was forked for it.
      expect(zygoteWaiting()).toBe(false);
      const result = await pending;
      expect(result.exitCode).toBe(0);
      expect(result.output.split('\n')).toEqual(['11', workspace, '']);
      // The next one is prepared a moment after the run (RunCgroup.removeLater), off the model's request.
      for (let waited = 0; waited < 2_000 && !zygoteWaiting(); waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(zygoteWaiting()).toBe(true);
    },
  );

  it.runIf(available)('prepares nothing more while a zygote waits', async () => {
    await prepareFirstRun();
    await prepareFirstRun();
    expect(zygoteWaiting()).toBe(true);
  });
});
