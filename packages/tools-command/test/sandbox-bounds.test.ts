import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatForModel } from '../src/execute-command-tool.js';
import { type CommandRunResult, cgroupHome, probeSandbox, type ResourceBounds, runCommand } from '../src/index.js';
import { sweepStale } from '../src/run-cgroup.js';
import { killMarked, RUN_MARKER } from '../src/run-launch.js';

/** A killed process leaves /proc on the kernel's time: on a busy machine later than a fixed pause would wait. */
const GONE = { timeout: 3_000, interval: 25 };

const sandboxWorks = (await probeSandbox()).available;
if (process.env.CI !== undefined && !sandboxWorks) throw new Error('CI must run the real sandbox: install bubblewrap');
const workspace = mkdtempSync('/var/tmp/riskgate-bounds-');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const MiB = 1024 * 1024;
/** Small bounds, so that every row stops in a second or two. */
const SMALL: Partial<ResourceBounds> = {
  processes: 64,
  memoryBytes: 128 * MiB,
  fileBytes: 16 * MiB,
  tmpBytes: 32 * MiB,
};

const processCount = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;
const memoryAvailable = () =>
  Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]) * 1024;

/**
 * Runs `command` in the sandbox with small bounds while sampling the whole machine every 20 ms:
 * how many more processes and how much less available memory than before it started.
 */
async function measured(command: string, timeoutMs: number, bounds: Partial<ResourceBounds> = SMALL, cgroups = true) {
  const processesBefore = processCount();
  const memoryBefore = memoryAvailable();
  let extraProcesses = 0;
  let memoryUsed = 0;
  const sampler = setInterval(() => {
    extraProcesses = Math.max(extraProcesses, processCount() - processesBefore);
    memoryUsed = Math.max(memoryUsed, memoryBefore - memoryAvailable());
  }, 20);
  const result = await runCommand(command, {
    cwd: workspace,
    signal: new AbortController().signal,
    maxOutputBytes: 8_000,
    timeoutMs,
    sandbox: true,
    bounds,
    cgroups,
  });
  clearInterval(sampler);
  return { result, extraProcesses, memoryUsed, forModel: formatForModel(result, workspace, workspace, timeoutMs) };
}

// Other programs share this machine: the margins leave room for them, far below what an unbounded run takes.
// (An unbounded fork bomb makes thousands of processes in these 2.5 s, a 2 GB allocation 2 GB.)
const PROCESS_MARGIN = 400;
const MEMORY_MARGIN = 600 * MiB;
// What a run may take past its timeout (or its own sleeps) on a busy machine: killing the tree and
// reaping it. Far below the 30 s the held sleeps would take were they waited for.
const SLACK_MS = 6_000;

describe.runIf(sandboxWorks)('the sandbox bounds what runs in it (real bubblewrap, real kernel limits)', () => {
  it.each([
    ['the classic fork bomb', 'f(){ f|f; }; f'],
    ['a named fork bomb', 'bomb(){ bomb & bomb; }; bomb'],
    ['a loop of background sleeps', 'while :; do sleep 100 & done'],
    ['xargs forking in parallel', 'yes 100 | xargs -P 0 -n 1 sleep'],
  ])(
    'stops a fork bomb at the process limit: %s',
    async (_name, command) => {
      const { result, extraProcesses, forModel } = await measured(command, 2_500);
      expect(extraProcesses).toBeLessThan(64 + PROCESS_MARGIN);
      if (result.peak?.processes !== undefined) expect(result.peak.processes).toBeLessThanOrEqual(64);
      expect(result.limit?.kind).toBe('processes');
      expect(forModel).toContain('stopped at the process limit (64 processes)');
      expect(result.durationMs).toBeLessThan(2_500 + SLACK_MS);
    },
    20_000,
  );

  it.each([
    ['awk sprintf', `awk 'BEGIN{s=sprintf("%2000000000s",""); print length(s)}'`],
    ['perl repetition', `perl -e '$x="a" x 2e9; print length $x'`],
    ['python bytearray', `python3 -c 'x=bytearray(2*1024**3); print(len(x))'`],
    ['a shell variable', `x=$(head -c 2000000000 /dev/zero | tr '\\0' a); echo \${#x}`],
    ['sort holding its input', 'head -c 2000000000 /dev/zero | sort | wc -c'],
  ])(
    'stops a 2 GB allocation at the memory limit: %s',
    async (_name, command) => {
      const { result, memoryUsed, forModel } = await measured(command, 20_000);
      expect(memoryUsed).toBeLessThan(128 * MiB + MEMORY_MARGIN);
      if (result.peak?.memoryBytes !== undefined) expect(result.peak.memoryBytes).toBeLessThanOrEqual(128 * MiB);
      expect(result.output).not.toContain('2000000000');
      expect(result.limit?.kind).toBe('memory');
      expect(forModel).toContain('stopped at the memory limit (128 MiB)');
    },
    30_000,
  );

  it.each([
    ['head into /tmp', 'head -c 1000000000 /dev/zero > /tmp/fill'],
    ['many files in /tmp', 'for i in $(seq 1 100); do head -c 1000000 /dev/zero > /tmp/f$i || exit 1; done'],
    ['dd into /dev/shm', 'dd if=/dev/zero of=/dev/shm/fill bs=1M count=1000'],
    ['yes into /run', 'yes > /run/fill'],
  ])(
    'stops a /tmp filler at the /tmp size: %s',
    async (_name, command) => {
      // A file bound above the tmpfs size, so that the tmpfs is what stops it.
      const { result, memoryUsed, forModel } = await measured(command, 20_000, { ...SMALL, fileBytes: 512 * MiB });
      expect(memoryUsed).toBeLessThan(32 * MiB + MEMORY_MARGIN);
      expect(result.limit?.kind).toBe('tmp-full');
      expect(forModel).toContain('stopped: /tmp full (32 MiB)');
    },
    30_000,
  );

  it('stops a write past the file size limit (SIGXFSZ)', async () => {
    const { result, forModel } = await measured('head -c 100000000 /dev/zero > /tmp/big', 20_000);
    expect(result.signal).toBe('SIGXFSZ');
    expect(forModel).toContain('stopped at the file size limit (16 MiB)');
  }, 30_000);

  it.each([
    ['seq into sort', 'seq 1 1000000000000 | sort | tail -1'],
    ['sort of an endless stream', 'yes | sort'],
    ['sort of random numbers', 'while :; do echo $RANDOM; done | sort -n | head -1'],
  ])(
    'stops an endless sort: %s',
    async (_name, command) => {
      const { result, memoryUsed, forModel } = await measured(command, 6_000);
      expect(memoryUsed).toBeLessThan(128 * MiB + 32 * MiB + MEMORY_MARGIN);
      expect(result.durationMs).toBeLessThan(6_000 + SLACK_MS);
      expect(result.timedOut || result.limit !== undefined).toBe(true);
      expect(forModel).toMatch(
        /stopped at the memory limit|stopped: \/tmp full|stopped: timed out after 6 s|stopped at the CPU time limit/,
      );
    },
    20_000,
  );

  it('stops a busy loop at the CPU time limit (SIGXCPU)', async () => {
    const { result, forModel } = await measured('while :; do :; done', 20_000, { ...SMALL, cpuSeconds: 1 });
    expect(result.signal).toBe('SIGXCPU');
    expect(forModel).toContain('stopped at the CPU time limit (1 s)');
  }, 30_000);

  it.each([
    ['a setsid sleep beside a sleep', 'setsid sleep 30.4141 & sleep 30.4141'],
    ['a setsid child holding stdout', '(setsid sh -c "sleep 30.4141; echo late") & sleep 30.4141'],
    ['a double fork with nohup', '( nohup setsid sleep 30.4141 & ) ; sleep 30.4141'],
  ])(
    'ends the whole tree at the timeout and says so: %s',
    async (_name, command) => {
      const { result, forModel } = await measured(command, 1_500);
      expect(result.durationMs).toBeLessThan(1_500 + SLACK_MS);
      expect(result.timedOut).toBe(true);
      expect(forModel).toContain('stopped: timed out after 1.5 s');
      expect(forModel).not.toMatch(/exit code 0|succeeded/);
      await vi.waitFor(() => expect(runningWith('30.4141')).toEqual([]), GONE);
    },
    20_000,
  );

  it('reports a plain run with no limit', async () => {
    const { result, forModel } = await measured('echo fine', 10_000);
    expect(result.limit).toBeUndefined();
    expect(forModel).toMatch(/^fine\n\[exit code 0, \d+ ms\]$/);
  });
});

// Where no cgroup can be had (a non-root user without a delegated cgroup v2): rlimits and the
// sized tmpfs. Not the fork bomb here: the kernel does not enforce RLIMIT_NPROC for uid 0, and
// these tests may run as root (`riskgate doctor` says so); for other users it holds.
describe.runIf(sandboxWorks)('the sandbox bounds what runs in it without a cgroup (rlimits)', () => {
  it.each([
    ['python bytearray', `python3 -c 'x=bytearray(2*1024**3); print(len(x))'`],
    ['perl repetition', `perl -e '$x="a" x 2e9; print length $x'`],
    ['awk sprintf', `awk 'BEGIN{s=sprintf("%2000000000s",""); print length(s)}'`],
  ])(
    'stops a 2 GB allocation at the data size limit: %s',
    async (_name, command) => {
      const { result, memoryUsed, forModel } = await measured(command, 20_000, SMALL, false);
      expect(memoryUsed).toBeLessThan(128 * MiB + MEMORY_MARGIN);
      expect(result.output).not.toContain('2000000000');
      expect(result.output).not.toContain('2147483648');
      expect(forModel).toContain('stopped at the memory limit (128 MiB)');
    },
    30_000,
  );

  it('stops a /tmp filler at the /tmp size', async () => {
    const { result, forModel } = await measured(
      'head -c 1000000000 /dev/zero > /tmp/fill',
      20_000,
      { ...SMALL, fileBytes: 512 * MiB },
      false,
    );
    expect(result.limit?.kind).toBe('tmp-full');
    expect(forModel).toContain('stopped: /tmp full (32 MiB)');
  }, 30_000);

  it('stops a busy loop at the CPU time limit', async () => {
    const { result, forModel } = await measured('while :; do :; done', 20_000, { ...SMALL, cpuSeconds: 1 }, false);
    expect(result.signal).toBe('SIGXCPU');
    expect(forModel).toContain('stopped at the CPU time limit (1 s)');
  }, 30_000);
});

/** Pids of processes whose command line holds `needle` (a number no other program uses). */
function runningWith(needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (commandLine.includes(needle) && !commandLine.includes('vitest')) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

describe('unsandboxed, approved commands: the whole tree ends too', () => {
  const run = (command: string, timeoutMs: number): Promise<CommandRunResult> =>
    runCommand(command, {
      cwd: workspace,
      signal: new AbortController().signal,
      maxOutputBytes: 8_000,
      timeoutMs,
      killGraceMs: 500,
    });

  it.each([
    ['setsid beside a sleep', 'setsid sleep 31.5151 & sleep 31.5151'],
    ['setsid holding stdout', 'setsid sh -c "sleep 31.5151; echo late" & sleep 31.5151'],
    ['nohup in a subshell', '( nohup setsid sleep 31.5151 > /dev/null 2>&1 & ) ; sleep 31.5151'],
  ])(
    'ends escaped processes at the timeout: %s',
    async (_name, command) => {
      const result = await run(command, 1_000);
      expect(result.durationMs).toBeLessThan(1_000 + SLACK_MS);
      expect(result.timedOut).toBe(true);
      await vi.waitFor(() => expect(runningWith('31.5151')).toEqual([]), GONE);
      expect(formatForModel(result, workspace, workspace, 1_000)).toContain('stopped: timed out after 1 s');
    },
    15_000,
  );

  it('does not wait for a pipe held by a process that left the session, and says it ended it', async () => {
    const result = await run('setsid sleep 32.6161 & sleep 0.3; echo started', 10_000);
    expect(result.durationMs).toBeLessThan(300 + SLACK_MS);
    expect(result.output).toContain('started');
    await vi.waitFor(() => expect(runningWith('32.6161')).toEqual([]), GONE);
    expect(formatForModel(result, workspace, workspace, 10_000)).toContain('processes it left running were ended');
  });

  it('without a cgroup, ends escaped processes by the run marker at the timeout', async () => {
    const result = await runCommand('setsid sleep 36.2121 & setsid sleep 36.2121 & sleep 36.2121', {
      cwd: workspace,
      signal: new AbortController().signal,
      maxOutputBytes: 8_000,
      timeoutMs: 1_000,
      killGraceMs: 500,
      cgroups: false,
    });
    expect(result.timedOut).toBe(true);
    await vi.waitFor(() => expect(runningWith('36.2121')).toEqual([]), GONE);
  }, 15_000);

  it('stops reading a pipe held by a process that escaped every means, and says so', async () => {
    // The marker dropped and no cgroup: nothing can find it. riskgate must not wait for it.
    // The pause lets the escape finish: until setsid() it is still in the group, which is killed.
    const result = await runCommand('env -u RISKGATE_RUN setsid sleep 37.3131 & sleep 0.3; echo started', {
      cwd: workspace,
      signal: new AbortController().signal,
      maxOutputBytes: 8_000,
      timeoutMs: 20_000,
      killGraceMs: 500,
      cgroups: false,
    });
    try {
      expect(result.durationMs).toBeLessThan(300 + SLACK_MS);
      expect(result.output).toContain('started');
      expect(formatForModel(result, workspace, workspace, 20_000)).toContain(
        'a process it started still held its output, which riskgate stopped reading',
      );
      expect(formatForModel(result, workspace, workspace, 20_000)).not.toContain('were ended');
    } finally {
      for (const pid of runningWith('37.3131')) process.kill(pid, 'SIGKILL');
    }
  }, 15_000);

  it('without a cgroup, finds escaped processes by the run marker in their environment', async () => {
    const marker = `test-${process.pid}`;
    // detached: a session of its own, as `setsid` makes it.
    const escaped = spawn('sleep', ['33.7171'], {
      env: { ...process.env, [RUN_MARKER]: marker },
      stdio: 'ignore',
      detached: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runningWith('33.7171')).not.toEqual([]);
    expect(killMarked(marker)).toBeGreaterThan(0);
    await new Promise((resolve) => escaped.once('exit', resolve));
    expect(runningWith('33.7171')).toEqual([]);
  }, 15_000);

  it('names the mechanism that holds the tree here', () => {
    // This machine offers a writable cgroup (v1 pids+memory, or a delegated v2) or none: either answer is real.
    expect(['cgroup-v2', 'cgroup-v1', undefined]).toContain(cgroupHome()?.mechanism);
  });
});

describe.runIf(cgroupHome() !== undefined)('cgroups of a riskgate that was killed', () => {
  it('removes them at the next start, their processes ended first', async () => {
    const home = cgroupHome()!;
    // A riskgate that is gone: the pid of a process that has exited.
    const dead = spawnSync('true').pid;
    const stale = [join(home.pids, `riskgate-${dead}-7`), join(home.memory, `riskgate-${dead}-7`)];
    for (const directory of new Set(stale)) mkdirSync(directory);
    const orphan = spawn('sleep', ['34.8181'], { stdio: 'ignore', detached: true });
    const ended = new Promise((resolve) => orphan.once('exit', resolve));
    for (const directory of new Set(stale)) writeFileSync(join(directory, 'cgroup.procs'), String(orphan.pid));
    // One of ours that is alive stays.
    const live = join(home.pids, `riskgate-${process.pid}-live`);
    mkdirSync(live);
    try {
      expect(await sweepStale(home)).toBeGreaterThanOrEqual(1);
      for (const directory of stale) expect(existsSync(directory)).toBe(false);
      expect(existsSync(live)).toBe(true);
      await ended;
      await vi.waitFor(() => expect(runningWith('34.8181')).toEqual([]), GONE);
    } finally {
      rmdirSync(live);
    }
  });
});
