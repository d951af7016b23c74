/**
 * The colour level the TUI draws with (0 none, 1 basic, 2 256, 3 truecolor), or undefined to
 * leave it to FORCE_COLOR as given. Decided here rather than by chalk because chalk (read once
 * when Ink loads) gives no colour whenever CI is set — and CI is masked while Ink loads (see
 * importInk) — and because chalk ignores NO_COLOR (https://no-color.org: present and not empty
 * means no colour).
 */
export function colourLevel(env: NodeJS.ProcessEnv, isTTY: boolean): 0 | 1 | 2 | 3 | undefined {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (env.FORCE_COLOR !== undefined) return undefined;
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (/-256(color)?$/.test(env.TERM ?? '') || env.TERM_PROGRAM === 'iTerm.app') return 2;
  return 1;
}
