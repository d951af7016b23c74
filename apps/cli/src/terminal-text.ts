// The one place that knows which characters a terminal does not print as themselves, and how
// riskgate shows them instead: the confirmation panel, the TUI's history and headless text all
// use it, so a tool's output or the model's text can never drive the person's terminal (an OSC 52
// clipboard write, a window title, a cursor move that redraws the lines above).

/**
 * Characters a terminal does not print as themselves: C0/C1 controls (an escape sequence can
 * erase or overwrite the lines above it), DEL, bidirectional overrides and isolates (Trojan
 * Source: the text shown is not the text run), zero-width and invisible format characters, and
 * line/paragraph separators. The panel shows each as a visible code, so what is asked about is
 * exactly what is seen.
 */
export const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists variation selectors on purpose, each matched alone.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
export const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

export function escapeCode(character: string): string {
  const code = character.codePointAt(0)!;
  if (code === 0x1b) return '\\e';
  if (code === 0x0d) return '\\r';
  if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * A zero-width joiner between two pictographs (👩‍💻) and one emoji-presentation selector right
 * after a pictograph (❤️) draw an emoji; anywhere else they are hidden characters.
 */
export function partOfEmoji(text: string, index: number): boolean {
  const character = text[index];
  if (character === '\u200D')
    return (
      PICTOGRAPH_BEFORE.test(text.slice(Math.max(0, index - 4), index)) &&
      PICTOGRAPH_AFTER.test(text.slice(index + 1, index + 3))
    );
  if (character === '\uFE0F') return /\p{Extended_Pictographic}$/u.test(text.slice(Math.max(0, index - 2), index));
  return false;
}

/**
 * A text for the terminal: every control, escape and invisible character shown as its code
 * (`\e]52;…` for an OSC 52 clipboard write), newlines and tabs kept. Used wherever text from a
 * tool, a file, a web page or the model reaches the screen or stderr. A CRLF line end is a line
 * end (HTTP bodies, Windows files); a lone carriage return, which could overwrite a line, shows.
 */
export function terminalText(text: string): string {
  if (!INVISIBLE.test(text)) return text;
  return text
    .replaceAll('\r\n', '\n')
    .replace(INVISIBLE_ALL, (character: string, index: number, whole: string) =>
      partOfEmoji(whole, index) ? character : escapeCode(character),
    );
}
