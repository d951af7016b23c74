import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

/** Mistral's Magistral as recorded (content arrays with thinking parts): packages/core's fixtures. */
const MAGISTRAL = readFileSync(
  new URL('../../../packages/core/test/fixtures/provider-streams/mistral/reasoning.sse', import.meta.url),
  'utf8',
);

const sse = (deltas: readonly Record<string, unknown>[], finish: string) =>
  [...deltas.map((delta) => ({ delta, finish_reason: null })), { delta: {}, finish_reason: finish }]
    .map(
      (choice) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`,
    )
    .join('')
    .concat('data: [DONE]\n\n');

const REFUSAL = sse(
  [{ role: 'assistant', content: null, refusal: "I'm sorry, " }, { refusal: "but I can't help with that." }],
  'stop',
);

const THINKING = sse(
  [
    { role: 'assistant', reasoning_content: 'Step one: read the question.\nStep two: count.\n' },
    { reasoning_content: 'Step three: check.\nStep four: the hidden detail.' },
    { content: 'The answer is 3.' },
  ],
  'stop',
);

/** A $PAGER that keeps what it was given (panel.e2e.test.ts has the same). */
function recordingPager(directory: string): { env: Record<string, string>; paged: () => string } {
  const script = join(directory, 'pager.sh');
  const copy = join(directory, 'paged.txt');
  writeFileSync(script, `#!/bin/sh\ncat "$1" >> '${copy}'\n`, { mode: 0o755 });
  return { env: { PAGER: script }, paged: () => readFileSync(copy, 'utf8') };
}

describe('reasoning, content arrays and refusals in a real terminal', () => {
  it("Magistral's recorded stream: the answer without [object Object], the reasoning dimmed on one line", async () => {
    const { env } = await scene.start([{ rawStream: MAGISTRAL }]);
    const terminal = scene.open(`node ${BIN}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('what is 2+2', true);
    const screen = await terminal.waitFor(/▸ reasoning/);
    await terminal.waitFor(/2 \+ 2 = 4/);
    expect(screen).not.toContain('[object Object]');
    expect(screen).toMatch(/▸ reasoning \(1 line, \/view \d+\): The user is asking for 2\+2\./);
    // Dimmed (SGR 2), apart from the answer.
    expect(terminal.screenWithStyles()).toMatch(/\u001B\[[0-9;]*\b2m[^\n]*▸ reasoning/);
    expect(screen).not.toMatch(/^2 \+ 2 = 4.*reasoning/m);
  });

  it('long reasoning folds to one line once the answer comes, and /view N opens it whole', async () => {
    const { directory, env } = await scene.start([{ rawStream: THINKING }]);
    const pager = recordingPager(directory);
    const terminal = scene.open(`node ${BIN}`, { ...env, ...pager.env });
    await terminal.waitFor(/scripted-model/);
    terminal.type('how many', true);
    await terminal.waitFor(/The answer is 3\./);
    const screen = await terminal.waitFor(/▸ reasoning \(4 lines/);
    expect(screen).not.toContain('Step four: the hidden detail.');
    const id = /\/view (\d+)\)/.exec(screen)?.[1];
    expect(id).toBeDefined();
    terminal.type(`/view ${id}`, true);
    await expect
      .poll(
        () =>
          (() => {
            try {
              return pager.paged();
            } catch {
              return '';
            }
          })(),
        { timeout: 15_000 },
      )
      .toContain('Step four: the hidden detail.');
    expect(pager.paged()).toContain('Step one: read the question.');
  });

  it("OpenAI's refusal is shown in the model's words", async () => {
    const { env } = await scene.start([{ rawStream: REFUSAL }]);
    const terminal = scene.open(`node ${BIN}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('do the forbidden thing', true);
    const screen = await terminal.waitFor(/The model refused: I'm sorry, but I can't help with that\./);
    expect(screen).not.toContain('cut off');
  });
});

describe('headless', () => {
  it('reasoning stays off stdout (JSON has it); a refusal prints its words and says so', async () => {
    const { env } = await scene.start([
      { rawStream: THINKING },
      { rawStream: REFUSAL },
      { rawStream: THINKING },
      { rawStream: REFUSAL },
    ]);
    const text = await runCli(['-p', 'how many'], { env });
    expect(text).toMatchObject({ code: 0, stdout: 'The answer is 3.\n' });
    expect(text.stderr).not.toContain('Step one');
    const refused = await runCli(['-p', 'forbidden'], { env });
    expect(refused.code).toBe(0);
    expect(refused.stdout).toBe("I'm sorry, but I can't help with that.\n");
    expect(refused.stderr).toContain('the model refused to answer');
    const json = await runCli(['-p', '--output-format', 'json', 'how many'], { env });
    const result = JSON.parse(json.stdout) as { text: string; reason: string; reasoning: string };
    expect(result).toMatchObject({ text: 'The answer is 3.', reason: 'answered' });
    expect(result.reasoning).toBe(
      'Step one: read the question.\nStep two: count.\nStep three: check.\nStep four: the hidden detail.',
    );
    const refusedJson = await runCli(['-p', '--output-format', 'json', 'forbidden'], { env });
    expect(JSON.parse(refusedJson.stdout)).toMatchObject({
      text: "I'm sorry, but I can't help with that.",
      reason: 'refusal',
      reasoning: null,
      exitCode: 0,
    });
  });
});
