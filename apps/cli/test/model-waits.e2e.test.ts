import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

// Waits on the model under the real riskgate binary in headless mode, against the scripted
// server on 127.0.0.1 misbehaving: what the person sees on stderr, the exit code, the
// transcript and the audit log. The first reply lists the folder (runs unasked), so the session
// has an answered step and its transcript is kept.
const scratch = mkdtempSync(join(tmpdir(), 'riskgate-waits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const list: ScriptedReply = { toolCalls: [{ name: 'execute_command', arguments: { command: 'ls' } }] };
const jsonLines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line))
    : [];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly stdout: string;
  /** From the signal sent (or the start) to the exit. */
  readonly ms: number;
  readonly directory: string;
}

/** Runs `riskgate -p`, sending `stopWith` once stderr shows `when`. */
async function headless(
  replies: ScriptedReply[],
  stop?: { when: RegExp; with: NodeJS.Signals },
  config?: Record<string, unknown>,
): Promise<Run> {
  server = await startScriptedModelServer(replies);
  const directory = mkdtempSync(join(scratch, 'run-'));
  if (config !== undefined) {
    mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
    writeFileSync(join(directory, 'config', 'riskgate', 'config.json'), JSON.stringify(config));
  }
  const child = spawn(process.execPath, [BIN, '-p', 'list the folder'], {
    cwd: directory,
    env: {
      ...process.env,
      OPENAI_BASE_URL: server.baseURL,
      RISKGATE_MODEL: 'scripted-model',
      XDG_CONFIG_HOME: join(directory, 'config'),
      XDG_STATE_HOME: join(directory, 'state'),
      XDG_CACHE_HOME: join(directory, 'cache'),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let from = Date.now();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (stop?.when.test(stderr)) {
      from = Date.now();
      child.kill(stop.with);
      stop = undefined;
    }
  });
  child.stdin.end('');
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  return { code, signal, stderr, stdout, ms: Date.now() - from, directory };
}

const transcriptEvents = (directory: string) => {
  const sessions = join(directory, 'state', 'riskgate', 'sessions');
  const files = existsSync(sessions) ? readdirSync(sessions).filter((name) => name.endsWith('.jsonl')) : [];
  return files
    .flatMap((file) => jsonLines(join(sessions, file)))
    .filter((line) => line.kind === 'event')
    .map((line) => line.event);
};
const audit = (directory: string) => jsonLines(join(directory, 'state', 'riskgate', 'audit.jsonl'));

describe('a 429 with Retry-After', { timeout: 30_000 }, () => {
  it('asking for an hour: fails at once, saying when to try again', async () => {
    const run = await headless([list, { error: { status: 429, retryAfter: 3600 } }, { text: 'never asked' }]);
    expect(run.ms).toBeLessThan(10_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /riskgate: .* is rate-limiting requests and asks to wait 3600 s; riskgate waits at most 60 s, so it stopped\. Try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./,
    );
    expect(run.stderr).not.toMatch(/retrying/);
    expect(server!.requests).toHaveLength(2);
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({
        type: 'error',
        kind: 'rate-limit',
        message: expect.stringMatching(/asks to wait 3600 s/),
      }),
    );
    expect(audit(run.directory).map((entry) => [entry.tool, entry.outcome])).toEqual([
      ['execute_command', 'started'],
      ['execute_command', 'succeeded'],
    ]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('within the cap: the wait is shown, and %s ends it promptly', async (signal, code) => {
    const run = await headless([list, { error: { status: 429, retryAfter: 50 } }, { text: 'never asked' }], {
      when: /retrying in/,
      with: signal,
    });
    expect(run.stderr).toMatch(
      /^riskgate: http:\/\/127\.0\.0\.1:\d+\/v1 is rate-limiting requests \(429\) — retrying in 50 s \(attempt 1 of 2\) — Ctrl-C to stop\n/m,
    );
    expect(run.ms).toBeLessThan(3000);
    expect(run.code).toBe(code);
    expect(server!.requests).toHaveLength(2);
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({ type: 'retry', attempt: 1, waitMs: 50_000 }),
    );
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({ type: 'turn-end', reason: 'cancelled' }),
    );
  });
});

describe('a finish without [DONE]', { timeout: 30_000 }, () => {
  it('the turn completes and riskgate exits 0', async () => {
    const run = await headless([
      { ...list, withoutDone: true },
      { text: 'the folder is empty', withoutDone: true },
    ]);
    expect(run.ms).toBeLessThan(10_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/the folder is empty/);
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({ type: 'turn-end', reason: 'answered' }),
    );
    expect(audit(run.directory).at(-1)).toMatchObject({ tool: 'execute_command', outcome: 'succeeded' });
  });
});

describe('a stream without end', { timeout: 60_000 }, () => {
  it('is stopped at the cap with a message, exit 1', async () => {
    const run = await headless([list, { text: 'and then ', endless: true }]);
    expect(run.ms).toBeLessThan(30_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /riskgate: the model's reply passed 4194304 bytes without finishing; riskgate stopped reading it and nothing in it was executed\n/,
    );
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({ type: 'error', kind: 'reply-too-long' }),
    );
    expect(audit(run.directory).filter((entry) => entry.outcome !== 'started')).toHaveLength(1);
  });

  it('a slow one is stopped at requestTimeoutMs, the bound of the whole reply', async () => {
    const started = Date.now();
    const run = await headless([list, { text: 'slowly ', endless: true, chunkDelayMs: 50 }], undefined, {
      requestTimeoutMs: 2000,
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(2000);
    expect(took).toBeLessThan(20_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /riskgate: the model's reply did not finish within 2 s; riskgate stopped reading it and nothing in it was executed\n/,
    );
    expect(transcriptEvents(run.directory)).toContainEqual(
      expect.objectContaining({ type: 'error', kind: 'reply-too-slow' }),
    );
  });
});

describe('the TUI in a real terminal', { timeout: 60_000 }, () => {
  const scene = e2eScene();
  it('shows the wait of a 429 and Esc ends it promptly; the prompt comes back', async () => {
    const {
      directory,
      env,
      server: model,
    } = await scene.start([{ error: { status: 429, retryAfter: 50 } }, { text: 'never asked' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('hello', true);
    await terminal.waitFor(/rate-limiting requests \(429\)[\s\S]*retrying in 50 s \(attempt 1 of 2\) — Esc to stop/);
    const started = Date.now();
    terminal.key('Escape');
    await terminal.waitFor(/cancelled/);
    expect(Date.now() - started).toBeLessThan(3_000);
    await terminal.waitFor(/Ask anything/);
    expect(model.requests).toHaveLength(1);
    terminal.key('C-d');
    await terminal.waitFor(/\[exited 0\]/);
  });
});
