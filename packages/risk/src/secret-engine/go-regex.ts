/**
 * Go (RE2) regular expressions as JavaScript ones. gitleaks writes its rules for Go, whose syntax
 * JavaScript on Node 20 lacks in three places: inline flags that start mid-pattern (`p8e-(?i)[a-z]`)
 * or apply to a group (`(?-i:acc)`, `(?s:.)`), POSIX classes (`[[:alnum:]]`), and `\z`, `\A`,
 * `(?P<name>…)`. Case-insensitivity is spelled out (`[a-z]` → `[a-zA-Z]`, `x` → `[xX]`) so it
 * applies exactly where Go applies it; nothing is widened or narrowed elsewhere.
 */

interface Flags {
  readonly caseless: boolean;
  readonly dotAll: boolean;
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
};

const isLetter = (char: string) => /^[A-Za-z]$/.test(char);
const otherCase = (char: string) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase());

/** The other case of the letters in a range `from`-`to` (single characters when from === to). */
function swappedRanges(from: string, to: string): string {
  const parts: string[] = [];
  for (const [low, high] of [
    ['a', 'z'],
    ['A', 'Z'],
  ] as const) {
    const start = from > low ? from : low;
    const end = to < high ? to : high;
    if (start > end) continue;
    const a = otherCase(start);
    const b = otherCase(end);
    parts.push(a === b ? a : `${a}-${b}`);
  }
  return parts.join('');
}

/** Reads one item of a character class at `at`: returns its text, its first and last literal character (if literal), and the end. */
function classItem(source: string, at: number): { text: string; literal?: string; end: number } {
  const char = source[at]!;
  if (char === '[' && source[at + 1] === ':') {
    const close = source.indexOf(':]', at + 2);
    const name = source.slice(at + 2, close);
    const negated = name.startsWith('^');
    const expansion = POSIX_CLASSES[negated ? name.slice(1) : name];
    if (close < 0 || expansion === undefined || negated) throw new Error(`unsupported POSIX class in ${source}`);
    return { text: expansion, end: close + 2 };
  }
  if (char === '\\') {
    const next = source[at + 1]!;
    if (next === 'x') return { text: source.slice(at, at + 4), end: at + 4 };
    if (/[A-Za-z0-9]/.test(next)) return { text: `\\${next}`, end: at + 2 };
    // An escaped punctuation character stands for itself.
    return { text: `\\${next}`, literal: next, end: at + 2 };
  }
  // `[`, `/` are literal in a Go class but must be escaped in some JavaScript contexts.
  return { text: char === '[' || char === '/' ? `\\${char}` : char, literal: char, end: at + 1 };
}

/** A character class starting at `at` (the `[`): its JavaScript text and the index after the `]`. */
function translateClass(source: string, at: number, flags: Flags): { text: string; end: number } {
  let index = at + 1;
  let prefix = '[';
  if (source[index] === '^') {
    prefix += '^';
    index++;
  }
  let text = '';
  let extra = '';
  let first = true;
  while (index < source.length && (source[index] !== ']' || first)) {
    first = false;
    const item = classItem(source, index);
    index = item.end;
    // A range: `a-z`, unless the `-` is last in the class.
    if (item.literal !== undefined && source[index] === '-' && source[index + 1] !== ']' && index + 1 < source.length) {
      const upper = classItem(source, index + 1);
      index = upper.end;
      text += `${item.text}-${upper.text}`;
      if (flags.caseless && upper.literal !== undefined) extra += swappedRanges(item.literal, upper.literal);
      continue;
    }
    text += item.text;
    if (flags.caseless && item.literal !== undefined && isLetter(item.literal)) extra += otherCase(item.literal);
  }
  if (source[index] !== ']') throw new Error(`unterminated class in ${source}`);
  // The other case goes first: after a trailing `-` it would read as a range.
  return { text: `${prefix}${extra}${text}]`, end: index + 1 };
}

/** Parses `(?flags)` or `(?flags:` at `at`; undefined when the group is something else. */
function inlineFlags(
  source: string,
  at: number,
  flags: Flags,
): { flags: Flags; scoped: boolean; end: number } | undefined {
  const match = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(source.slice(at));
  if (match === null || (match[1] === '' && match[2] === undefined)) return undefined;
  const [whole, on = '', off = '', close] = match;
  if (on.includes('m') || on.includes('U')) throw new Error(`unsupported flag in ${source}`);
  return {
    flags: {
      caseless: off.includes('i') ? false : on.includes('i') ? true : flags.caseless,
      dotAll: off.includes('s') ? false : on.includes('s') ? true : flags.dotAll,
    },
    scoped: close === ':',
    end: at + whole.length,
  };
}

/** The JavaScript source of a Go regular expression (to compile without the `i`, `s`, `m` or `u` flags). */
export function translateGoRegex(source: string): string {
  let flags: Flags = { caseless: false, dotAll: false };
  // The flags to restore at each `)`.
  const outer: Flags[] = [];
  let out = '';
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (char === '\\') {
      const next = source[index + 1]!;
      if (next === 'z') out += '(?![\\s\\S])';
      else if (next === 'A') out += '(?<![\\s\\S])';
      else if (next === 'x') {
        out += source.slice(index, index + 4);
        index += 4;
        continue;
      } else if (flags.caseless && isLetter(next) && !/[dDwWsSbBnrtfvpP]/.test(next))
        out += `[${next}${otherCase(next)}]`;
      else out += `\\${next}`;
      index += 2;
      continue;
    }
    if (char === '[') {
      const { text, end } = translateClass(source, index, flags);
      out += text;
      index = end;
      continue;
    }
    if (char === '(') {
      const inline = inlineFlags(source, index, flags);
      if (inline !== undefined) {
        if (inline.scoped) {
          outer.push(flags);
          out += '(?:';
        }
        flags = inline.flags;
        index = inline.end;
        continue;
      }
      outer.push(flags);
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(source.slice(index));
      if (named !== null) {
        out += `(?<${named[1]}>`;
        index += named[0].length;
        continue;
      }
      out += '(';
      index++;
      continue;
    }
    if (char === ')') {
      flags = outer.pop() ?? flags;
      out += ')';
      index++;
      continue;
    }
    if (char === '.' && flags.dotAll) out += '[\\s\\S]';
    else if (flags.caseless && isLetter(char)) out += `[${char}${otherCase(char)}]`;
    else if (char === '/') out += '\\/';
    else out += char;
    index++;
  }
  return out;
}
