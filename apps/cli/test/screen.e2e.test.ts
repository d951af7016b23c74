import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene, settle } from './e2e-setup.js';
import { BIN } from './run-cli.js';
import type { TmuxTerminal } from './tmux.js';

const scene = e2eScene();

/** Polls the screen until `check` passes (it throws until then); its last failure is the test's. */
async function screenWhere(terminal: TmuxTerminal, check: (screen: string) => void, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = terminal.screen();
    try {
      check(screen);
      return screen;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${(error as Error).message}\nthe screen:\n${screen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ANSWER =
  'The build directory holds compiled artefacts, cached dependency archives and the coverage reports from yesterday evening, which nobody needs any more once the release is tagged.';
const FILES = ['alphabetical', 'bravissimo', 'charlestown', 'deltaforce', 'echolocation', 'foxtrotting', 'golfcourse'];
const COMMAND = `rm -rf ${FILES.map((name) => `build/${name}.log`).join(' ')}`;

/** Whole words of `text` each sit on one screen line (the capture is not joined: -J is off here). */
function wordsWhole(screen: string, text: string): void {
  const tokens = new Set(screen.split(/\s+/));
  for (const word of text.split(/\s+/)) if (!tokens.has(word)) throw new Error(`"${word}" is not whole on the screen`);
}

const count = (screen: string, text: string) => screen.split(text).length - 1;

describe('the screen in a real terminal', () => {
  it('re-wraps the transcript and the panel on each resize: whole words, no ghost lines', async () => {
    const { directory, env } = await scene.start([
      { text: ANSWER },
      { toolCalls: [{ name: 'execute_command', arguments: { command: COMMAND } }] },
      { text: 'Cleaned.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env, { columns: 110, rows: 45 });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('what is in build?', true);
    await terminal.waitFor(/once the release is\s+tagged\./);
    terminal.type('clean it', true);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    for (const columns of [60, 100, 45]) {
      terminal.resize(columns);
      await screenWhere(terminal, (screen) => {
        const lines = screen.split('\n');
        for (const line of lines)
          if (line.trimEnd().length > columns) throw new Error(`a line wider than ${columns}: ${line}`);
        wordsWhole(screen, ANSWER);
        wordsWhole(screen, COMMAND);
        // Nothing twice: the question, the answer's first words, the panel's top and bottom borders.
        for (const once of ['Execute this command?', '› what is in build?', 'The build directory', '╭', '╰'])
          if (count(screen, once) !== 1) throw new Error(`"${once}" is on the screen ${count(screen, once)} times`);
        // The panel's frame is as wide as the terminal now: no leftover pieces of a wider one.
        const top = lines.find((line) => line.includes('╭'))!;
        if (top.trimEnd().length !== columns) throw new Error(`the panel's top is ${top.trimEnd().length} wide`);
      });
    }
    terminal.type('n');
    await terminal.waitFor(/Cleaned\./);
  }, 120_000);

  it("keeps an approved write's diff in the history after the answer, collapsed, and /view names it", async () => {
    const before = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join('\n');
    const after = before.replace('line 2\n', 'line two\n');
    const { directory, env } = await scene.start([
      {
        toolCalls: [
          { name: 'file_operations', arguments: { operation: 'write', path: 'notes.txt', content: `${after}\n` } },
        ],
      },
      { text: 'Written.' },
    ]);
    writeFileSync(join(directory, 'notes.txt'), `${before}\n`);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('fix line 2', true);
    await terminal.waitFor(/Execute this file operation\?/);
    await settle();
    terminal.type('y');
    const screen = await terminal.waitFor(/Written\./);
    expect(screen).not.toMatch(/Execute this file operation\?/);
    expect(readFileSync(join(directory, 'notes.txt'), 'utf8')).toBe(`${after}\n`);
    // The diff stays: the removed and the added line, then the result.
    expect(screen).toMatch(/^-line 2$/m);
    expect(screen).toMatch(/^\+line two$/m);
    expect(screen).toMatch(/wrote notes\.txt/);
  }, 60_000);

  it('Esc during a streaming answer leaves what was said, marked as interrupted', async () => {
    const { directory, env } = await scene.start([
      { text: 'Here is the first part of a long explanation', endless: true, chunkDelayMs: 40 },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('explain', true);
    await terminal.waitFor(/Here is the first part of a long explanation/);
    terminal.key('Escape');
    const screen = await terminal.waitFor(/cancelled: the answer above was interrupted/);
    // The endless text runs on from "explanation" without a space: by the time Esc lands, the
    // word may be longer than the line and wrap as a whole to the next one.
    const kept = /Here is the first part of a long\s+explanation/;
    expect(screen).toMatch(kept);
    await terminal.waitFor(/Ask anything/);
    expect(terminal.screen()).toMatch(kept);
  }, 60_000);

  it('Esc during a command keeps its output so far and says cancelled once', async () => {
    const { directory, env } = await scene.start([
      {
        toolCalls: [
          { name: 'execute_command', arguments: { command: 'echo first-output-line; sleep 30', risk_level: 'low' } },
        ],
      },
      { text: 'unused' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('wait', true);
    await terminal.waitFor(/first-output-line/);
    terminal.key('Escape');
    await terminal.waitFor(/⊘ execute_command cancelled: echo first-output-line; sleep 30/);
    const screen = await terminal.waitFor(/Ask anything/);
    expect(screen).toMatch(/⊘ execute_command cancelled: echo first-output-line; sleep 30\n\s*first-output-line/);
    expect(screen.match(/cancelled/g), screen).toHaveLength(1);
  }, 60_000);

  it('NO_COLOR keeps the prompt cursor visible (reverse video is not a colour)', async () => {
    const { directory, env } = await scene.start([{ text: 'unused' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, NO_COLOR: '1' });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('abc');
    terminal.key('Left');
    await screenWhere(terminal, (screen) => {
      if (!/abc/.test(screen)) throw new Error('not typed yet');
    });
    await screenWhere(terminal, () => {
      const styled = terminal.screenWithStyles();
      // The cursor sits on the c, in reverse video; no colour anywhere.
      if (!/ab\u001B\[7mc/.test(styled)) throw new Error('no reverse-video cursor on the c');
      if (/\u001B\[[\d;]*(3[1-7]|9[1-7]|38;5;\d+)m/.test(styled)) throw new Error('a colour under NO_COLOR');
    });
  }, 60_000);
});
