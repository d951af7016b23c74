import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();

describe('the first frame', () => {
  it('draws the prompt before the session opens; a database that fails then ends riskgate with its error', async () => {
    const { env } = await scene.start([]);
    // Nothing listens on port 1: the session fails only after the prompt was drawn.
    const terminal = scene.open(`node ${BIN} sql --db postgres://nobody@127.0.0.1:1/shop`, env);
    await terminal.waitFor(/\[exited 1\]/);
    const screen = terminal.screen();
    expect(screen).toContain('Ask anything, or /help');
    expect(screen).toMatch(/SQL · \w+ · postgres:\/\/nobody@127\.0\.0\.1:1\/shop · starting…/);
    expect(screen).toMatch(/riskgate: .*(ECONNREFUSED|connect|refused)/i);
  });

  it('sends what was typed and entered while the session opened, once it is ready', async () => {
    const { env, server } = await scene.start([{ text: 'First answer.' }]);
    const terminal = scene.open(`node ${BIN}`, env);
    await terminal.waitFor(/Ask anything/);
    terminal.type('hello', true);
    await terminal.waitFor(/First answer\./);
    expect(server.requests.at(-1)?.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'hello' });
  });
});
