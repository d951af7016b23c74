import { describe, expect, it } from 'vitest';
import { colourLevel } from '../src/ui/colour.js';

describe('colourLevel', () => {
  it.each([
    [{ TERM: 'xterm-256color' }, true, 2],
    [{ TERM: 'xterm-256color', CI: 'true' }, true, 2],
    [{ TERM: 'xterm-256color', CI: 'false' }, true, 2],
    [{ TERM: 'xterm', COLORTERM: 'truecolor' }, true, 3],
    [{ TERM: 'xterm', COLORTERM: '24bit' }, true, 3],
    [{ TERM: 'screen-256color' }, true, 2],
    [{ TERM: 'xterm' }, true, 1],
    [{ TERM: 'dumb' }, true, 0],
    [{ TERM: 'xterm-256color' }, false, 0],
    [{ TERM: 'xterm-256color', NO_COLOR: '1' }, true, 0],
    [{ TERM: 'xterm-256color', NO_COLOR: 'true', FORCE_COLOR: '3' }, true, 0],
    [{ TERM: 'xterm-256color', NO_COLOR: '' }, true, 2],
    [{ TERM: 'xterm-256color', FORCE_COLOR: '1' }, true, undefined],
    [{ TERM: 'xterm-256color', FORCE_COLOR: '0' }, true, undefined],
  ])('%j on a terminal: %s → %s', (env, tty, level) => {
    expect(colourLevel(env, tty)).toBe(level);
  });
});
