import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene, settle } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

describe('--help on every command', () => {
  it.each([
    [['sql', '--help']],
    [['-p', '--help']],
    [['sql', '--db', 'x.sqlite', '-h']],
    [['--mode', 'strict', '--help']],
    [['assess', '--help']],
    [['assess', '--jsonl', '-h']],
  ])('%j prints help and exits 0', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(args[0] === 'assess' ? 'Options of assess:' : 'Usage:');
  });
});

describe('headless input and output', () => {
  it('stdin and -p combine: the question, then the piped text', async () => {
    const { env, server } = await scene.start([{ text: 'Summarised.' }]);
    const result = await runCli(['-p', 'summarise this'], { env, input: 'line one\nline two\n' });
    expect(result).toMatchObject({ code: 0, stdout: 'Summarised.\n' });
    expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'summarise this\n\nline one\nline two',
    });
  });

  it('--output-format is --output', async () => {
    const { env } = await scene.start([{ text: 'One.' }]);
    const result = await runCli(['-p', '--output-format', 'json', 'one?'], { env });
    expect(JSON.parse(result.stdout)).toMatchObject({ text: 'One.', exitCode: 0 });
  });

  it('assess --jsonl into a reader that leaves (| head -1) ends quietly', async () => {
    const lines = `${Array.from({ length: 5_000 }, () => JSON.stringify({ tool: 'execute_sql', args: { sql: 'SELECT 1' } })).join('\n')}\n`;
    const result = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn('sh', ['-c', `node ${BIN} assess --jsonl | head -1`], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('close', (code) => resolve({ code, stderr, stdout }));
      // head leaves early: our own writes into the pipe may fail too.
      child.stdin.on('error', () => undefined);
      child.stdin.end(lines);
    });
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/EPIPE|Error|at /);
  });
});

describe('signals end the running command, not only riskgate', () => {
  // A sleep length of its own per case, so that no other test's process is mistaken for it.
  it.each([
    ['SIGTERM', 143, 37],
    ['SIGHUP', 129, 38],
    ['SIGINT', 130, 39],
  ] as const)('%s: the command’s process group ends, the transcript and audit are written, exit %i', async (signal, code, seconds) => {
    const { directory, env } = await scene.start([
      {
        toolCalls: [
          {
            name: 'execute_command',
            arguments: { command: `sh -c "sleep ${seconds}; touch survived" & sleep ${seconds}`, risk_level: 'low' },
          },
        ],
      },
      { text: 'unused' },
    ]);
    const child = spawn(process.execPath, [BIN, '-p', 'run it'], {
      cwd: directory,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const audit = join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl');
    const deadline = Date.now() + 15_000;
    // The command is running once its process exists; then the signal comes.
    while (!(await processRunning(`sleep ${seconds}`))) {
      if (Date.now() > deadline) throw new Error(`the command never started: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill(signal);
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(exit).toBe(code);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await processRunning(`sleep ${seconds}; touch survived`)).toBe(false);
    expect(await processRunning(`sleep ${seconds}`)).toBe(false);
    expect(existsSync(join(directory, 'survived'))).toBe(false);
    expect(readFileSync(audit, 'utf8')).toMatch(/"outcome":"cancelled"/);
  });
});

describe('exit codes', () => {
  it('"no" on a terminal is a refusal too: exit 2', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'touch made.txt' } }] },
      { text: 'Not made.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} -p "make it"'`, env);
    await terminal.waitFor(/Execute this command\? \[y\/N\]/);
    await settle();
    terminal.type('n', true);
    await terminal.waitFor(/\[exited 2\]/);
    expect(existsSync(join(directory, 'made.txt'))).toBe(false);
  });
});

async function processRunning(pattern: string): Promise<boolean> {
  const output = await new Promise<string>((resolve) => {
    const child = spawn('ps', ['-eo', 'args'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on('close', () => resolve(text));
  });
  return output.split('\n').some((line) => line.includes(pattern) && !line.includes('ps -eo'));
}
