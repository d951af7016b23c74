import { describe, expect, it } from 'vitest';
import { terminalText } from '../src/terminal-text.js';
import { conversationReducer, INITIAL_CONVERSATION } from '../src/ui/conversation.js';
import { fullText } from '../src/ui/history-text.js';

// Every way a text can drive a terminal: each row is a hostile text and the codes shown instead.
const ATTACKS: readonly (readonly [string, string, string])[] = [
  ['OSC 52 clipboard write (BEL)', '\u001B]52;c;cGF5bG9hZA==\u0007', '\\e]52;c;cGF5bG9hZA==^G'],
  ['OSC 52 clipboard write (ST)', '\u001B]52;c;cGF5\u001B\\', '\\e]52;c;cGF5\\e\\'],
  ['window title OSC 0', '\u001B]0;pwned\u0007', '\\e]0;pwned^G'],
  ['window title OSC 2', '\u001B]2;pwned\u0007', '\\e]2;pwned^G'],
  [
    'hyperlink OSC 8',
    '\u001B]8;;https://evil.example\u0007click\u001B]8;;\u0007',
    '\\e]8;;https://evil.example^Gclick\\e]8;;^G',
  ],
  ['8-bit OSC (C1)', '\u009D2;pwned\u009C', '<U+009D>2;pwned<U+009C>'],
  ['8-bit CSI (C1)', '\u009B2J', '<U+009B>2J'],
  ['clear screen', '\u001B[2J\u001B[H', '\\e[2J\\e[H'],
  ['cursor up and erase line', 'ok\u001B[1A\u001B[2Kfake', 'ok\\e[1A\\e[2Kfake'],
  ['colour that hides text', '\u001B[8mhidden\u001B[0m', '\\e[8mhidden\\e[0m'],
  ['DCS (tmux passthrough)', '\u001BPtmux;\u001B\u001B]52;c;eA==\u0007\u001B\\', '\\ePtmux;\\e\\e]52;c;eA==^G\\e\\'],
  ['carriage return overwriting a line', 'rm -rf /\rls', 'rm -rf /\\rls'],
  ['backspaces', 'safe\b\b\b\bevil', 'safe^H^H^H^Hevil'],
  ['bell', 'a\u0007b', 'a^Gb'],
  ['DEL', 'a\u007Fb', 'a<U+007F>b'],
  ['bidi override (Trojan Source)', 'a\u202Eb', 'a<U+202E>b'],
  ['zero-width space', 'a\u200Bb', 'a<U+200B>b'],
];

describe('terminalText: control and escape sequences shown as codes', () => {
  it.each(ATTACKS)('%s', (_name, hostile, shown) => {
    const text = terminalText(hostile);
    expect(text).toBe(shown);
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  });

  it('keeps newlines, tabs, CRLF line ends, plain and wide text, and emoji as they are', () => {
    expect(terminalText('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalText('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(terminalText('東京 Zürich 👩‍💻 ❤️')).toBe('東京 Zürich 👩‍💻 ❤️');
  });
});

describe('the TUI keeps results as they came and draws them through terminalText', () => {
  it('model text is stored as codes; a result stays raw for /send, and /view shows it as codes', () => {
    const osc = '\u001B]52;c;eA==\u0007';
    let state = conversationReducer(INITIAL_CONVERSATION, { type: 'user', text: 'go' });
    state = conversationReducer(state, { type: 'event', now: 0, event: { type: 'text-delta', text: `said ${osc}` } });
    state = conversationReducer(state, {
      type: 'event',
      now: 0,
      event: {
        type: 'tool-call',
        toolCallId: 'c1',
        title: 'the call',
        toolName: 'execute_command',
        argumentsText: '{"command":"cat x"}',
      },
    });
    state = conversationReducer(state, {
      type: 'event',
      now: 0,
      event: {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'execute_command',
        state: 'succeeded',
        forModel: `out ${osc}`,
        durationMs: 1,
      },
    });
    const [, assistant, tool] = state.live;
    expect(assistant).toMatchObject({ kind: 'assistant', text: 'said \\e]52;c;eA==^G' });
    if (tool?.kind !== 'tool') throw new Error('no tool item');
    expect(tool.result?.forModel).toBe(`out ${osc}`);
    expect(fullText(tool)).toContain('out \\e]52;c;eA==^G');
    expect(fullText(tool)).not.toContain('\u001B');
  });
});
