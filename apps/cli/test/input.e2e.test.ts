import type { ScriptedModelServer } from '@riskgate/testing';
import { describe, expect, it } from 'vitest';
import { e2eScene, pause } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();
const lastUserMessage = (server: ScriptedModelServer, index: number) =>
  server.requests[index]!.body.messages.filter((message) => message.role === 'user').at(-1)?.content;

describe('the prompt editor in a real terminal', () => {
  it('a multi-line paste stays one message, sent whole with Enter', async () => {
    const { directory, env, server } = await scene.start([{ text: 'Got both lines.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.paste('first line\nsecond line\nthird line');
    await terminal.waitFor(/third line/);
    await pause(300);
    expect(server.requests).toHaveLength(0);
    terminal.key('Enter');
    await terminal.waitFor(/Got both lines\./);
    expect(lastUserMessage(server, 0)).toBe('first line\nsecond line\nthird line');
  });

  it('\\ then Enter adds a line; cursor and word movement edit in place', async () => {
    const { directory, env, server } = await scene.start([{ text: 'One.' }, { text: 'Two.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('wrld');
    for (const key of ['Left', 'Left', 'Left']) terminal.key(key);
    terminal.type('o');
    terminal.key('C-a');
    terminal.type('hello ');
    terminal.key('End');
    terminal.type(' extra');
    terminal.key('C-w');
    terminal.type('\\');
    // Each step seen before the next: on a loaded machine keys sent together arrive as one chunk,
    // which the editor rightly reads as a paste (a pasted newline does not send).
    await terminal.waitFor(/› hello world \\/);
    terminal.key('Enter');
    await terminal.waitFor(/› hello world\s*\n/);
    terminal.type('next line');
    await terminal.waitFor(/next line/);
    terminal.key('Enter');
    const answered = await terminal.waitFor(/One\./);
    expect(lastUserMessage(server, 0), answered).toBe('hello world \nnext line');
    // ↑ brings the last message back, whole; it is sent again as it was.
    terminal.key('Up');
    await terminal.waitFor(/› hello world[\s\S]*next line[\s\S]*chat ·/);
    terminal.key('Enter');
    await terminal.waitFor(/Two\./);
    expect(lastUserMessage(server, 1)).toBe('hello world \nnext line');
  });

  it('the history is kept per project across sessions', async () => {
    const { directory, env } = await scene.start([{ text: 'First answer.' }]);
    const first = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await first.waitFor(/chat · smart · scripted-model/);
    first.type('remember this question', true);
    await first.waitFor(/First answer\./);
    first.key('C-d');
    await first.waitFor(/\[exited 0\]/);
    first.close();
    const second = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await second.waitFor(/chat · smart · scripted-model/);
    second.key('Up');
    await second.waitFor(/› remember this question/);
  });

  it('Esc interrupts a running command; Ctrl-D at an empty prompt exits', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'sleep 30', risk_level: 'low' } }] },
      { text: 'unused' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('wait', true);
    await terminal.waitFor(/execute_command: sleep 30 \d+\.\d s/);
    const started = Date.now();
    terminal.key('Escape');
    await terminal.waitFor(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await terminal.waitFor(/Ask anything/);
    terminal.key('C-d');
    await terminal.waitFor(/\[exited 0\]/);
  });
});
