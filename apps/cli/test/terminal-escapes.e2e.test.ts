import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

// Sequences a program, a file, a web page or the model could send to take over the terminal:
// an OSC 52 clipboard write (BEL- and ST-terminated), window-title changes (OSC 0 and 2), and a
// cursor move with an erase that would redraw the lines above.
const CLIPBOARD = '\u001B]52;c;cGF5bG9hZA==\u0007';
const CLIPBOARD_ST = '\u001B]52;p;c2Vjb25k\u001B\\';
const TITLE = '\u001B]2;pwned-title\u0007';
const ICON_TITLE = '\u001B]0;pwned-icon\u0007';
const REDRAW = '\u001B[2A\u001B[2K';
const HOSTILE = `start ${CLIPBOARD}${CLIPBOARD_ST}${TITLE}${ICON_TITLE}${REDRAW} end`;

/** The model runs `cat evil.txt` (a read: it runs unasked), then answers with the sequences too. */
async function hostileScene() {
  const started = await scene.start([
    { toolCalls: [{ name: 'execute_command', arguments: { command: 'cat evil.txt', risk_level: 'low' } }] },
    { text: `Model says: ${HOSTILE} done-marker` },
  ]);
  writeFileSync(join(started.directory, 'evil.txt'), `file says: ${HOSTILE}\n`);
  return started;
}

describe('the terminal is the person’s: escape sequences from tools and the model are shown as codes', () => {
  it('tmux itself takes the clipboard write and the title from a plain printf (the check below can fail)', async () => {
    const { directory, env } = await scene.start([]);
    writeFileSync(join(directory, 'evil.txt'), HOSTILE);
    // The pause: the sequences come after set-clipboard took effect.
    const terminal = scene.open(`sh -c 'sleep 0.5; cat evil.txt'`.replace('cat ', `cd ${directory} && cat `), env);
    terminal.allowClipboardWrites();
    await terminal.waitFor(/\[exited 0\]/);
    expect(terminal.title()).toBe('pwned-icon');
    expect(terminal.buffers()).toMatch(/payload|second/);
  });

  it('in the TUI: command output and model text change neither the title nor the clipboard', async () => {
    const { directory, env } = await hostileScene();
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    terminal.allowClipboardWrites();
    await terminal.waitFor(/scripted-model/);
    const title = terminal.title();
    terminal.type('show it', true);
    const screen = await terminal.waitFor(/done-marker/);
    expect(terminal.title()).toBe(title);
    expect(terminal.title()).not.toMatch(/pwned/);
    expect(terminal.buffers()).toBe('');
    // Shown as codes: the command's output (its file) and the model's reply.
    expect(screen).toContain('file says: start \\e]52;c;cGF5bG9hZA==^G\\e]52;p;c2Vjb25k\\e\\\\e]2;pwned-title^G');
    expect(screen).toContain('Model says: start \\e]52;c;cGF5bG9hZA==^G');
    expect(screen).toContain('\\e[2A\\e[2K end');
  });

  it('headless: stdout and stderr carry the codes, never the sequences', async () => {
    const { directory, env } = await hostileScene();
    const result = await runCli(['-p', 'show it'], { env: env, cwd: directory });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001B');
    expect(result.stderr).not.toContain('\u001B');
    expect(result.stdout).not.toContain('\u0007');
    expect(result.stderr).not.toContain('\u0007');
    expect(result.stdout).toContain('Model says: start \\e]52;c;cGF5bG9hZA==^G');
    expect(result.stderr).toContain('file says: start \\e]52;c;cGF5bG9hZA==^G\\e]52;p;c2Vjb25k\\e\\');
  });

  it('headless in a real terminal: the title and the clipboard stay', async () => {
    const { directory, env } = await hostileScene();
    const terminal = scene.open(`sh -c 'sleep 0.3; cd ${directory} && node ${BIN} -p "show it"'`, env);
    terminal.allowClipboardWrites();
    const title = terminal.title();
    const screen = await terminal.waitFor(/\[exited 0\]/);
    expect(screen).toContain('Model says: start \\e]52;');
    expect(terminal.title()).toBe(title);
    expect(terminal.buffers()).toBe('');
  });
});
