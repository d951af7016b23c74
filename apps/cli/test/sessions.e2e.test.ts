import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene, settle } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();
const sessionFiles = (env: Record<string, string>) => {
  const directory = join(env.XDG_STATE_HOME!, 'riskgate', 'sessions');
  return existsSync(directory) ? readdirSync(directory) : [];
};

describe('modes and sessions in a real terminal', () => {
  it('/chat and /sql keep a strict mode; strict mode never offers "always allow"', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'touch made.txt' } }] },
      { text: 'Not made.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} sql --mode strict'`, env);
    await terminal.waitFor(/SQL · strict/);
    terminal.type('/chat', true);
    await terminal.waitFor(/chat mode \(strict\)[\s\S]*chat · strict/);
    terminal.type('make a file', true);
    const panel = await terminal.waitFor(/Execute this command\?/);
    expect(panel).toContain('asked because: strict mode confirms every operation');
    expect(panel).not.toContain('always allow');
    await settle();
    terminal.type('n');
    await terminal.waitFor(/Not made\./);
    terminal.type('/sql', true);
    await terminal.waitFor(/SQL mode on .* \(strict\)[\s\S]*SQL · strict/);
  });

  it('an empty session leaves no file and no resume hint; a conversation says how to resume it', async () => {
    const { directory, env } = await scene.start([{ text: 'Hello there.' }]);
    const empty = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await empty.waitFor(/chat · smart/);
    empty.key('C-d');
    const after = await empty.waitFor(/\[exited 0\]/);
    expect(after).not.toContain('--resume');
    expect(sessionFiles(env)).toEqual([]);
    empty.close();
    const talked = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await talked.waitFor(/chat · smart/);
    talked.type('hi', true);
    await talked.waitFor(/Hello there\./);
    talked.key('C-d');
    const hint = await talked.waitFor(/\[exited 0\]/);
    const files = sessionFiles(env);
    expect(files).toHaveLength(1);
    expect(hint).toContain(`Resume this conversation with: riskgate --resume ${files[0]!.replace(/\.jsonl$/, '')}`);
  });

  it('a start that fails (unreachable model) leaves no session file', async () => {
    const { env } = await scene.start([]);
    const result = await runCli(['-p', 'hello'], { env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(result.code).toBe(1);
    expect(sessionFiles(env)).toEqual([]);
  });

  it('/clear clears the screen and starts a new conversation', async () => {
    const { directory, env, server } = await scene.start([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart/);
    terminal.type('first question', true);
    await terminal.waitFor(/First answer\./);
    terminal.type('/clear', true);
    await terminal.waitFor(/chat mode \(smart\)/);
    expect(terminal.screen()).not.toContain('First answer.');
    terminal.type('second question', true);
    await terminal.waitFor(/Second answer\./);
    const sent = server.requests[1]!.body.messages.filter((message) => message.role === 'user');
    expect(sent.map((message) => message.content)).toEqual(['second question']);
  });

  it('/resume opens a picker of earlier conversations and redraws the chosen one, which goes on', async () => {
    const { directory, env, server } = await scene.start([{ text: 'The answer is 42.' }, { text: 'Still 42.' }]);
    const first = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await first.waitFor(/chat · smart/);
    first.type('what is the answer', true);
    await first.waitFor(/The answer is 42\./);
    first.key('C-d');
    await first.waitFor(/\[exited 0\]/);
    first.close();
    const second = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await second.waitFor(/chat · smart/);
    second.type('/resume', true);
    const picker = await second.waitFor(/Resume a conversation \(1\)/);
    expect(picker).toMatch(/just now\s+chat · smart · 2 messages · what is the answer/);
    await settle();
    second.key('Enter');
    const redrawn = await second.waitFor(/resumed .*: 2 messages/);
    expect(redrawn).toMatch(/› what is the answer[\s\S]*The answer is 42\./);
    second.type('and now?', true);
    await second.waitFor(/Still 42\./);
    const sent = server.requests[1]!.body.messages.filter((message) => message.role === 'user').map(
      (message) => message.content,
    );
    expect(sent).toEqual(['what is the answer', 'and now?']);
  });

  it('/model switches the model for the next request; the status line shows it and the context used of the window', async () => {
    const { directory, env, server } = await scene.start([{ text: 'From the other model.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model · ctx \d+(\.\d)?k?\/100k \(\d+%\)/);
    terminal.type('/model other-model', true);
    await terminal.waitFor(/chat · smart · other-model/);
    terminal.type('hello', true);
    await terminal.waitFor(/From the other model\./);
    expect(server.requests[0]!.body.model).toBe('other-model');
    await terminal.waitFor(/other-model · ctx \d+(\.\d)?k?\/100k/);
  });
});
