import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { runCli } from './run-cli.js';

const scene = e2eScene();
const TEN_MB = 10 * 1024 * 1024;
// Over the 500,000-character argument limit, under the 4 MiB cap on a whole reply (agent.ts).
const TWO_MB = 2 * 1024 * 1024;

// Sizes riskgate must bound: what a model or a client can send is never echoed or kept whole.
describe('a 2 MB tool argument', () => {
  it.each([
    ['a command', { command: `echo ${'x'.repeat(TWO_MB)}`, risk_level: 'low' }, 'execute_command'],
    ['SQL', { sql: `SELECT '${'y'.repeat(TWO_MB)}'` }, 'execute_sql'],
  ] as const)(
    '%s: a clear error for the model; stderr, the audit log and the transcript stay small',
    async (_name, args, tool) => {
      // Large pieces: the scripted stream's default 7-character pieces would make 1.5 million events.
      const { directory, env, server } = await scene.start([
        { toolCalls: [{ name: tool, arguments: args }], chunkSize: 65_536 },
        { text: 'Understood.' },
      ]);
      const result = await runCli(['-p', '--output', 'text', 'go'], { env, cwd: directory });
      expect(result.code).toBe(0);
      // The model is told what happened and that nothing ran, and the conversation it gets back
      // holds a bounded stand-in, not the 2 MB.
      const second = server.requests[1]!.body;
      const told = second.messages.find((message) => message.role === 'tool');
      expect(told?.content).toMatch(
        /^error: the arguments are 2,097,\d{3} characters; the limit is 500,000\. Nothing was run\./,
      );
      expect(JSON.stringify(second).length).toBeLessThan(20_000);
      expect(result.stderr.length).toBeLessThan(5_000);
      expect(result.stderr).toMatch(/more characters not shown|characters cut/);
      const audit = join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl');
      expect(statSync(audit).size).toBeLessThan(10_000);
      expect(readFileSync(audit, 'utf8')).toMatch(/"arguments-too-large"/);
      // Every file riskgate keeps (the transcript, the audit log) together stays small.
      const kept = readdirSync(env.XDG_STATE_HOME, { recursive: true, withFileTypes: true }).filter((entry) =>
        entry.isFile(),
      );
      expect(kept.some((entry) => entry.name.endsWith('.jsonl') && entry.name !== 'audit.jsonl')).toBe(true);
      const total = kept.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
      expect(total).toBeLessThan(40_000);
    },
    60_000,
  );
});

// A 10 MB argument is more than a whole reply may hold: the stream is cut at 4 MiB, nothing in
// it runs, and nothing of it is echoed or kept.
describe('a 10 MB tool argument', () => {
  it('ends the turn at the reply cap with a clear error; stderr and the kept files stay small', async () => {
    const { directory, env } = await scene.start([
      {
        toolCalls: [{ name: 'execute_command', arguments: { command: `echo ${'x'.repeat(TEN_MB)}` } }],
        chunkSize: 65_536,
      },
    ]);
    const result = await runCli(['-p', '--output', 'text', 'go'], { env, cwd: directory });
    expect(result.code).toBe(1);
    expect(result.stderr.length).toBeLessThan(5_000);
    expect(result.stderr).toMatch(/reply passed/);
    const kept = readdirSync(env.XDG_STATE_HOME, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    const total = kept.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
    expect(total).toBeLessThan(40_000);
  }, 60_000);
});
