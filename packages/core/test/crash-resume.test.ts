import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedModelServer } from '@riskgate/testing';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import OpenAI from 'openai';
import { afterAll, expect, it } from 'vitest';
import {
  Agent,
  INTERRUPTED_RUNNING_RESULT,
  listSessions,
  readTranscript,
  ToolRegistry,
  TranscriptWriter,
} from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'riskgate-crash-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

it('a session killed with SIGKILL mid-tool leaves a transcript that resumes', async () => {
  const server = await startScriptedModelServer([
    {
      text: 'Starting the job.',
      toolCalls: [{ name: 'execute_command', arguments: { command: 'sleep 5', risk_level: 'low' } }],
    },
    { text: 'The job was interrupted; shall I run it again?' },
  ]);
  const sessions = join(directory, 'sessions');
  // The child runs the workspace's TypeScript source, as vitest does (docs/packages.md).
  const child = spawn(
    process.execPath,
    [
      tsx,
      '--conditions=@riskgate/source',
      fileURLToPath(new URL('./fixtures/session-child.ts', import.meta.url)),
      server.baseURL,
      directory,
      sessions,
      join(directory, 'audit.jsonl'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const path = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );

  // Wait until the transcript shows the tool running, then kill the process outright (the file
  // itself appears with the first message).
  const deadline = Date.now() + 20_000;
  while (!(existsSync(path) && readFileSync(path, 'utf8').includes('"state":"executing"'))) {
    if (Date.now() > deadline) throw new Error('the child never started the tool');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));

  // The audit log says the call started and never ended: interrupted, not "not run".
  const audit = readFileSync(join(directory, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(audit).toEqual([
    expect.objectContaining({
      tool: 'execute_command',
      outcome: 'started',
      args: expect.objectContaining({ command: 'sleep 5' }),
    }),
  ]);
  const loaded = readTranscript(path);
  expect(loaded.session.kind).toBe('chat');
  expect(loaded.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  expect(loaded.messages[1]).toMatchObject({ role: 'assistant', content: 'Starting the job.' });
  expect(loaded.messages[2]).toMatchObject({ role: 'tool', content: INTERRUPTED_RUNNING_RESULT });
  expect(loaded.interrupted).toHaveLength(1);
  expect(listSessions(sessions).map((session) => session.firstQuestion)).toEqual(['Run the long job']);

  // Resume: the same conversation continues, in the same transcript file.
  const agent = new Agent({
    client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
    model: 'scripted-model',
    registry: new ToolRegistry([createExecuteCommandTool()]),
    policy: { mode: 'smart', rules: [] },
    confirmer: { confirm: async () => ({ type: 'deny' }) },
    context: { cwd: directory },
    systemPrompt: 'test',
    history: loaded.messages,
    transcript: TranscriptWriter.reopen(path, loaded.session),
  });
  const outcome = await agent.runTurn('What happened?');
  expect(outcome.text).toBe('The job was interrupted; shall I run it again?');
  const sent = server.requests[1]!.body.messages;
  expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
  expect(sent[3]).toMatchObject({ role: 'tool', content: INTERRUPTED_RUNNING_RESULT });
  const reread = readTranscript(path);
  expect(reread.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
  await server.close();
});

it('skips a last line cut short by a crash, and a damaged line anywhere (the records around it are whole)', () => {
  const writer = TranscriptWriter.create(join(directory, 'partial'), { cwd: directory, kind: 'sql' });
  writer.message({ role: 'user', content: 'hello' });
  const text = readFileSync(writer.path, 'utf8');
  writeFileSync(writer.path, `${text}{"kind":"message","time":"2026-01-01","message":{"role":"assis`);
  const loaded = readTranscript(writer.path);
  expect(loaded.truncatedTail).toBe(true);
  expect(loaded.messages).toEqual([{ role: 'user', content: 'hello' }]);
  writeFileSync(writer.path, `${text}garbage\n{"kind":"message","time":"x","message":{"role":"user","content":"b"}}\n`);
  const damaged = readTranscript(writer.path);
  expect(damaged.damagedLines).toBe(1);
  expect(damaged.messages).toEqual([
    { role: 'user', content: 'hello' },
    { role: 'user', content: 'b' },
  ]);
});
