import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();
const TOKEN = 'glpat-Zx9Qw8Er7Ty6Ui5Op4As';

describe('a withheld result in a real terminal', () => {
  it('shows the person the original with the mark, and /send hands it to the model on purpose', async () => {
    const { directory, env, server } = await scene.start([
      {
        toolCalls: [
          { name: 'execute_command', arguments: { command: "printf 'deploy with glpat-%s\\n' Zx9Qw8Er7Ty6Ui5Op4As" } },
        ],
      },
      { text: 'The log holds a token I did not see.' },
      { text: 'Got the whole log.' },
    ]);
    // A token the command assembles: a file that holds one (anywhere in it) is asked before it is read.
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('read app.log', true);
    const screen = await terminal.waitFor(/did not see\./);
    expect(screen).toContain(`deploy with ${TOKEN}`);
    expect(screen).toContain('[withheld from the model: a secret (gitlab-pat)]');
    // The model got the withheld copy.
    expect(JSON.stringify(server.requests[1]!.body.messages)).not.toContain(TOKEN);
    terminal.type('/send', true);
    await terminal.waitFor(/Got the whole log\./);
    const sent = server.requests[2]!.body.messages.at(-1)!;
    expect(sent.role).toBe('user');
    expect(String(sent.content)).toContain(`deploy with ${TOKEN}`);
  });
});
