import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type EditorAction, type EditorState, editorReducer } from '../src/ui/editor.js';
import { historyPath } from '../src/ui/history-path.js';
import { InputHistory } from '../src/ui/input-history.js';

/** `|` marks the cursor in these tables. */
const parse = (marked: string): EditorState => ({ text: marked.replace('|', ''), cursor: marked.indexOf('|') });
const show = (state: EditorState) => `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;

describe('editorReducer', () => {
  it.each<[string, EditorAction, string]>([
    ['ab|', { type: 'insert', text: 'c' }, 'abc|'],
    ['a|c', { type: 'insert', text: 'b' }, 'ab|c'],
    ['a|', { type: 'insert', text: 'x\r\ny\rz' }, 'ax\ny\nz|'],
    ['abc|', { type: 'backspace' }, 'ab|'],
    ['|abc', { type: 'backspace' }, '|abc'],
    ['a👩‍💻|', { type: 'backspace' }, 'a|'],
    ['é|', { type: 'backspace' }, '|'],
    ['a|bc', { type: 'delete-forward' }, 'a|c'],
    ['ab|', { type: 'delete-forward' }, 'ab|'],
    ['ab|c', { type: 'left' }, 'a|bc'],
    ['|ab', { type: 'left' }, '|ab'],
    ['x👍|y', { type: 'left' }, 'x|👍y'],
    ['a|bc', { type: 'right' }, 'ab|c'],
    ['one\ntw|o', { type: 'line-start' }, 'one\n|two'],
    ['o|ne\ntwo', { type: 'line-end' }, 'one|\ntwo'],
    ['hello big world|', { type: 'word-left' }, 'hello big |world'],
    ['hello big |world', { type: 'word-left' }, 'hello |big world'],
    ['|hello big', { type: 'word-right' }, 'hello| big'],
    ['hello big world|', { type: 'delete-word-back' }, 'hello big |'],
    ['hello big   |', { type: 'delete-word-back' }, 'hello |'],
    ['one\ntwo th|ree', { type: 'kill-to-line-start' }, 'one\n|ree'],
    ['one\nt|wo', { type: 'kill-to-line-end' }, 'one\nt|'],
    ['one|\ntwo', { type: 'kill-to-line-end' }, 'one|two'],
    ['long line\nsh|', { type: 'up' }, 'lo|ng line\nsh'],
    ['ab\nlong lin|e', { type: 'up' }, 'ab|\nlong line'],
    ['fi|rst\nsecond', { type: 'down' }, 'first\nse|cond'],
    ['only| line', { type: 'up' }, 'only| line'],
    ['only| line', { type: 'down' }, 'only| line'],
  ])('%j %j → %j', (before, action, after) => {
    expect(show(editorReducer(parse(before), action))).toBe(after);
  });
});

describe('InputHistory', () => {
  let directory: string | undefined;
  afterEach(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('walks back and forth and returns to the draft', () => {
    const history = new InputHistory(undefined);
    history.add('first');
    history.add('second');
    expect(history.previous('draft')).toBe('second');
    expect(history.previous('ignored')).toBe('first');
    expect(history.previous('ignored')).toBeUndefined();
    expect(history.next()).toBe('second');
    expect(history.next()).toBe('draft');
    expect(history.next()).toBeUndefined();
  });

  it('skips blanks and repeats', () => {
    const history = new InputHistory(undefined);
    for (const entry of ['a', 'a', '  ', 'b']) history.add(entry);
    expect(history.size).toBe(2);
  });

  it('persists per project, multi-line entries intact, owner-only, damaged lines skipped', () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-history-'));
    const path = historyPath(directory, '/work/project-a');
    expect(historyPath(directory, '/work/project-b')).not.toBe(path);
    const first = new InputHistory(path);
    first.add('SELECT 1;\nSELECT 2;');
    first.add('second');
    expect(statSync(path).mode & 0o077).toBe(0);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"cut`);
    const again = new InputHistory(path);
    expect(again.previous('')).toBe('second');
    expect(again.previous('')).toBe('SELECT 1;\nSELECT 2;');
    again.add('after the crash');
    expect(new InputHistory(path).previous('')).toBe('after the crash');
  });

  it("attached to its file after the first frame: the file's entries first, then those typed meanwhile, kept", () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-history-'));
    const path = historyPath(directory, '/work/project-a');
    new InputHistory(path).add('from an earlier session');
    const history = new InputHistory(undefined);
    history.add('typed before the file was read');
    history.attach(path);
    expect(history.previous('')).toBe('typed before the file was read');
    expect(history.previous('')).toBe('from an earlier session');
    const next = new InputHistory(path);
    expect(next.previous('')).toBe('typed before the file was read');
    expect(next.size).toBe(2);
  });
});
