import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateToolCall } from '@riskgate/risk';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createExecuteCommandTool, probeSandbox, runCommand } from '../src/index.js';
import { executeAssessed } from './gate-fixture.js';

/** A killed process leaves /proc on the kernel's time: on a busy machine later than a fixed pause would wait. */
const GONE = { timeout: 3_000, interval: 25 };

const workspace = mkdtempSync(join(tmpdir(), 'riskgate-cmd-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const _base = { cwd: workspace, signal: new AbortController().signal, maxOutputBytes: 4096 };

/** Processes of this machine whose command line holds `marker` (found from outside any sandbox). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && alive(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A sleep whose command line no other test shares. */
function uniqueSleep(): string {
  return `6${Math.floor(Math.random() * 9)}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Running, not a zombie waiting to be reaped (a killed process may linger as one). */
function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== undefined && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('spec 000 / 003: execute_command through the gate', () => {
  const tool = createExecuteCommandTool();
  const gate = (args: unknown) => evaluateToolCall(tool, args, { cwd: workspace }, { mode: 'smart', rules: [] });

  it('Low-risk commands execute automatically: a whitelisted command runs and its output is shown', async () => {
    writeFileSync(join(workspace, 'hello.txt'), 'hello riskgate\n');
    const evaluation = await gate({ command: 'cat hello.txt' });
    expect(evaluation.decision).toMatchObject({ action: 'execute', source: 'whitelist' });
    if (!evaluation.valid) throw new Error('invalid');
    const result = await executeAssessed(tool, evaluation.args as { command: string }, {
      cwd: workspace,
      signal: new AbortController().signal,
      readOnly: true,
    });
    expect(result.type === 'tool-success' && result.forModel).toMatch(/^hello riskgate\n\[exit code 0, \d+ ms\]$/);
  });

  it('Low-risk commands execute automatically: risk_level "low" runs a command off the whitelist', async () => {
    expect((await gate({ command: 'make -n', risk_level: 'low' })).decision).toMatchObject({
      action: 'execute',
      source: 'llm',
    });
  });

  it('High-risk commands require confirmation: risk_level high or medium, or off the whitelist', async () => {
    expect((await gate({ command: 'ls', risk_level: 'high' })).decision).toMatchObject({
      action: 'confirm',
      source: 'llm',
    });
    expect((await gate({ command: 'ls', risk_level: 'medium' })).decision).toMatchObject({
      action: 'confirm',
      source: 'llm',
    });
    expect((await gate({ command: 'rm -rf build' })).decision).toMatchObject({
      action: 'confirm',
      source: 'default',
      level: 'high',
    });
  });

  it.each([
    [
      { command: 'sleep 3600', timeout_ms: 3_600_000 },
      'runs up to 60 minutes (timeout_ms), longer than the 2 minutes an unasked command may take',
    ],
    [
      { command: 'ls', timeout_ms: 120_001 },
      'runs up to 2 minutes (timeout_ms), longer than the 2 minutes an unasked command may take',
    ],
    [{ command: 'cat hello.txt', timeout_ms: 600_000 }, 'runs up to 10 minutes (timeout_ms)'],
  ])('asks before a read given more time than an unasked command may take: %j', async (args, reason) => {
    const decision = (await gate(args)).decision;
    expect(decision.action).toBe('confirm');
    expect(JSON.stringify(decision)).toContain(reason);
  });

  it('runs a read unasked within the default time', async () => {
    expect((await gate({ command: 'ls', timeout_ms: 120_000 })).decision).toMatchObject({
      action: 'execute',
      source: 'whitelist',
    });
    expect((await gate({ command: 'ls', timeout_ms: 5_000 })).decision).toMatchObject({
      action: 'execute',
      source: 'whitelist',
    });
  });

  it('LLM can handle unknown commands: init with risk_level high asks', async () => {
    expect((await gate({ command: 'init 6', risk_level: 'high' })).decision).toMatchObject({
      action: 'confirm',
      source: 'llm',
    });
  });

  it('describes the command and where it would run for the panel', async () => {
    const args = { command: 'rm x', cwd: 'sub' };
    const { plan } = await tool.assess(args, { cwd: workspace });
    expect(await tool.describe(args, { cwd: workspace }, plan)).toEqual({
      kind: 'command',
      command: 'rm x',
      cwd: join(workspace, 'sub'),
      details: [],
    });
  });

  it('rejects arguments that fail the schema', async () => {
    expect((await gate({ command: '' })).decision).toMatchObject({ action: 'deny', source: 'invalid' });
    expect((await gate({ command: 'ls', timeout_ms: -1 })).decision).toMatchObject({
      action: 'deny',
      source: 'invalid',
    });
  });

  it('reports a working directory that does not exist as a value', async () => {
    const result = await executeAssessed(
      tool,
      { command: 'ls', cwd: 'nope' },
      { cwd: workspace, signal: new AbortController().signal, readOnly: false },
    );
    expect(result).toMatchObject({ type: 'tool-error', code: 'command-bad-cwd' });
  });
});

// Every runner behaviour holds inside the bubblewrap sandbox too (CI installs bubblewrap).
const sandboxWorks = (await probeSandbox()).available;
if (process.env.CI !== undefined && !sandboxWorks) throw new Error('CI must run the real sandbox: install bubblewrap');

describe.each([
  { place: 'unsandboxed', sandbox: false },
  { place: 'in the sandbox', sandbox: true },
])('the runner (real processes, $place)', ({ sandbox }) => {
  const base = { cwd: workspace, signal: new AbortController().signal, maxOutputBytes: 4096, sandbox };
  if (sandbox && !sandboxWorks) return;

  it('runs in the given directory with stdin closed, so a prompt does not hang', async () => {
    const result = await runCommand('pwd; read -r line; echo "read exit $?"', { ...base, timeoutMs: 5_000 });
    expect(result.output).toBe(`${workspace}\nread exit 1\n`);
    expect(result.exitCode).toBe(0);
  });

  it('reports exit codes and signals as values', async () => {
    expect((await runCommand('exit 3', { ...base, timeoutMs: 5_000 })).exitCode).toBe(3);
    const killed = await runCommand('kill -9 $$', { ...base, timeoutMs: 5_000 });
    expect(killed.signal).toBe('SIGKILL');
  });

  it('kills the whole process group at the timeout, children included', async () => {
    const child = uniqueSleep();
    const started = Date.now();
    const result = await runCommand(`sleep ${child} & sleep 60`, { ...base, timeoutMs: 500, killGraceMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await vi.waitFor(() => expect(processesWith(`sleep\0${child}`)).toEqual([]), GONE);
  });

  it('SIGKILLs a group that ignores SIGTERM after the grace period', async () => {
    const child = uniqueSleep();
    const result = await runCommand(`trap '' TERM; sleep ${child}`, { ...base, timeoutMs: 300, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    // In the sandbox SIGTERM ends bubblewrap itself, and with it everything in its PID namespace.
    expect(result.signal).toBe(sandbox ? 'SIGTERM' : 'SIGKILL');
    await vi.waitFor(() => expect(processesWith(`sleep\0${child}`)).toEqual([]), GONE);
  });

  it('cancels through the AbortSignal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const child = uniqueSleep();
    const result = await runCommand(`sleep ${child}`, { ...base, signal: controller.signal, timeoutMs: 60_000 });
    expect(result.cancelled).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await vi.waitFor(() => expect(processesWith(`sleep\0${child}`)).toEqual([]), GONE);
  });

  // In the sandbox even a child that left the process group (setsid) ends with the PID namespace.
  it.each([0, 3, 8, 15])('leaves nothing running when cancelled %i ms after the start', async (delay) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), delay);
    const child = uniqueSleep();
    const result = await runCommand(`${sandbox ? 'setsid ' : ''}sleep ${child} & sleep ${child}`, {
      ...base,
      signal: controller.signal,
      timeoutMs: 60_000,
      killGraceMs: 300,
    });
    expect(result.cancelled).toBe(true);
    await vi.waitFor(() => expect(processesWith(`sleep\0${child}`)).toEqual([]), GONE);
  });

  it('keeps the head and tail of huge output and says how many lines it left out, to the model and the screen', async () => {
    let streamed = '';
    let events = 0;
    const result = await runCommand('seq 1 200000', {
      ...base,
      timeoutMs: 20_000,
      onOutput: (chunk) => {
        streamed += chunk;
        events++;
      },
    });
    const total = Number(execFileSync('bash', ['-c', 'seq 1 200000 | wc -c'], { encoding: 'utf8' }).trim());
    expect(result.outputBytes).toBe(total);
    // The model: head, "… N more lines (B bytes) not shown …", tail — and N is exact.
    const cut = /\n… ([\d,]+) more lines \(([\d,]+) bytes\) not shown …\n/.exec(result.output);
    expect(cut).not.toBeNull();
    const [head, tail] = result.output.split(cut![0]) as [string, string];
    expect(head.startsWith('1\n2\n3\n')).toBe(true);
    expect(tail.endsWith('199999\n200000\n')).toBe(true);
    const shownLines = (head + tail).split('\n').length - 1;
    expect(shownLines + Number(cut![1]!.replace(/,/g, ''))).toBe(200000);
    expect(head.length + tail.length + Number(cut![2]!.replace(/,/g, ''))).toBe(total);
    expect(result.output.length).toBeLessThan(4096 + 100);
    // The screen: the beginning as it came, then bounded updates that count what they skip, and the end.
    expect(streamed.startsWith('1\n2\n3\n')).toBe(true);
    expect(streamed.endsWith('199999\n200000\n')).toBe(true);
    expect(streamed.length).toBeLessThan(256 * 1024);
    const skipped = [...streamed.matchAll(/\n… ([\d,]+) more lines? \([\d,]+ bytes\) not shown …\n/g)];
    expect(skipped.length).toBeGreaterThan(0);
    const streamedLines =
      streamed.replace(/\n… [\d,]+ more lines? \([\d,]+ bytes\) not shown …\n/g, '').split('\n').length - 1;
    expect(streamedLines + skipped.reduce((sum, match) => sum + Number(match[1]!.replace(/,/g, '')), 0)).toBe(200000);
    expect(events).toBeLessThan(200);
  });

  it('detects binary output and does not pass it on', async () => {
    const result = await runCommand('head -c 4096 /dev/urandom; printf "\\0"', { ...base, timeoutMs: 5_000 });
    expect(result.binary).toBe(true);
    expect(result.output).toBe('');
    const tool = createExecuteCommandTool();
    const viaTool = await executeAssessed(
      tool,
      { command: 'printf "a\\0b"' },
      { cwd: workspace, signal: new AbortController().signal, readOnly: sandbox, sandbox },
    );
    expect(viaTool.type === 'tool-success' && viaTool.forModel).toMatch(/binary output, 3 bytes, not shown/);
  });

  it('interleaves stderr with stdout', async () => {
    const result = await runCommand('echo out; echo err >&2', { ...base, timeoutMs: 5_000 });
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
  });
});
