import type { Node } from 'web-tree-sitter';

/**
 * What bash makes of one word before the program sees it: quotes removed, escapes applied,
 * `$'…'` decoded, `~` and `{a,b}` expanded, variables looked up where their value is known.
 * A part only known at run time (`$(…)`, an unset variable) is kept as UNKNOWN, so callers can
 * tell "a file whose name we know" from "a file named at run time".
 */
export const UNKNOWN = '\u0000';
/** Marks the next character as literal (quoted or escaped) inside a template. */
const LITERAL = '\u0001';

export interface WordValue {
  /** As written. */
  readonly raw: string;
  /** Every text bash could pass (brace expansion, loop variables), UNKNOWN for unknown parts. */
  readonly texts: readonly string[];
  /** The single value, when it is fully known and not a pattern. */
  readonly value: string | undefined;
  /** Some part is only known at run time. */
  readonly unknown: boolean;
  /** Unquoted `*`, `?` or `[`: bash expands the word against the filesystem. */
  readonly glob: boolean;
  /** The word is one command substitution (`$(git ls-files)`), for path producers. */
  readonly substitution?: Node;
  /**
   * A word standing for file names a producer printed (`find . | xargs cat`, `find -exec cat {}`):
   * every name lies in `path` (below it when `recursive`).
   */
  readonly tree?: Producer;
  /** `<(cmd)` / `>(cmd)`: a pipe to a command judged on its own; reading or writing it does nothing more. */
  readonly pipe?: boolean;
}

/** A word whose one text is known before running: what bash makes of a literal. */
export const known = (text: string): WordValue => ({
  raw: text,
  texts: [text],
  value: text,
  unknown: false,
  glob: false,
});

/** A word made of the given words' texts joined by spaces, as `sh -c "$*"` or `eval` sees it. */
export function joinWords(words: readonly WordValue[]): string | undefined {
  if (words.some((word) => word.unknown || word.texts.length !== 1)) return undefined;
  return words.map((word) => word.texts[0]!).join(' ');
}

/** Where the file names a command prints lie (see producers.ts). */
export interface Producer {
  readonly path: string;
  readonly recursive: boolean;
  readonly pattern?: boolean;
  readonly skipsHidden?: boolean;
  /** The producer followed symbolic links below `path` (find -L, grep -R): names may lie where they lead. */
  readonly followsLinks?: boolean;
  /** The producer prints no symbolic links (find -type f, git ls-files of an index without one). */
  readonly noLinks?: boolean;
}

/** What the evaluator asks of the walk: nested commands, variables, the environment. */
export interface WordHost {
  readonly source: string;
  readonly home: string;
  /** Walk a command, process substitution or arithmetic inside the word (a subshell). */
  walkNested(node: Node): void;
  /** Values of a shell variable set earlier on the line, null when only known at run time, undefined when not set there. */
  variable(name: string): readonly string[] | null | undefined;
  /** The word reads an environment variable (`all` for indirection and name listing). */
  readEnvironment(name: string | 'all', via: string): void;
}

/** Parameters bash sets itself: reading them reads nothing from the environment. */
const SPECIAL =
  /^([0-9]+|[?#$!@*_-]|BASHPID|LINENO|RANDOM|SECONDS|PPID|UID|EUID|BASH_VERSION|FUNCNAME|PIPESTATUS|OPTIND|OPTARG|REPLY)$/;
const MAX_TEXTS = 256;

export function textOf(node: Node, source: string): string {
  return source.slice(node.startIndex, node.endIndex);
}

export function* childrenOf(node: Node): Generator<Node> {
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (child !== null) yield child;
  }
}

const literal = (text: string): string => [...text].map((char) => LITERAL + char).join('');

/** Evaluate one word node. */
/** Plain words bash passes unchanged: nothing to expand, quote or escape. */
const PLAIN = /^[A-Za-z0-9_.,:/@%+=-]*$/;

export function evaluateWord(node: Node, host: WordHost): WordValue {
  const raw = textOf(node, host.source);
  if (PLAIN.test(raw) && (node.type === 'word' || node.type === 'number'))
    return { raw, texts: [raw], value: raw, unknown: false, glob: false };
  const templates = template(node, host, true);
  const expanded = templates.flatMap(expandBraces).slice(0, MAX_TEXTS);
  const glob = expanded.some((text) => /(^|[^\u0001])[*?[]/.test(text));
  const texts = expanded.map((text) => expandTilde(text, host)).map(strip);
  const unknown = texts.some((text) => text.includes(UNKNOWN));
  const value = texts.length === 1 && !unknown && !glob ? texts[0] : undefined;
  const substitution =
    node.type === 'command_substitution'
      ? node
      : node.type === 'string' && node.namedChildCount === 1 && node.namedChild(0)?.type === 'command_substitution'
        ? node.namedChild(0)!
        : undefined;
  return {
    raw,
    texts,
    value,
    unknown,
    glob,
    ...(substitution === undefined ? {} : { substitution }),
    ...(node.type === 'process_substitution' ? { pipe: true } : {}),
  };
}

function strip(text: string): string {
  return text.replace(/\u0001(.)/gsu, '$1');
}

/**
 * `~` and `~/…` are the home directory (`~root` is /root, `~name` /home/name), unquoted only;
 * bash also expands it after the `=` of a word that looks like an assignment (`dd if=~/x`).
 */
function expandTilde(text: string, host: WordHost): string {
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*=)(~.*)$/s.exec(text);
  if (assignment !== null) return assignment[1]! + expandTilde(assignment[2]!, host);
  // `~+`, `~-`, `~N`, `~+N`, `~-N` are PWD, OLDPWD and the directory stack: not followed.
  if (/^~[+-]?\d*(?=\/|$)/.test(text) && text !== '~' && !text.startsWith('~/'))
    return UNKNOWN + text.replace(/^~[+-]?\d*/, '');
  const match = /^~([a-z_][a-z0-9_-]*)?(?=\/|$)/.exec(text);
  if (match === null) return text;
  const home = host.variable('HOME');
  const base =
    match[1] === undefined
      ? home === undefined
        ? host.home
        : home === null || home.length !== 1
          ? UNKNOWN
          : home[0]!
      : match[1] === 'root'
        ? '/root'
        : `/home/${match[1]}`;
  return literal(base) + text.slice(match[0].length);
}

/** Templates: alternatives of marked text (LITERAL before quoted characters). */
function template(node: Node, host: WordHost, top: boolean): string[] {
  const raw = textOf(node, host.source);
  switch (node.type) {
    case 'word':
    case 'number':
      return [unquotedWord(raw)];
    case 'raw_string':
      return [literal(raw.slice(1, -1))];
    case 'ansi_c_string':
      return [literal(decodeAnsiC(raw.slice(2, -1)))];
    case 'string':
    case 'translated_string':
      return quotedString(node, host);
    case 'concatenation': {
      let results = [''];
      for (const child of childrenOf(node)) {
        const parts = template(child, host, false);
        results = results.flatMap((prefix) => parts.map((part) => prefix + part)).slice(0, MAX_TEXTS);
      }
      return results;
    }
    case 'simple_expansion':
    case 'expansion':
      return expansion(node, host, false);
    case 'brace_expression':
      return [raw];
    case 'command_substitution':
    case 'process_substitution':
    case 'arithmetic_expansion':
      host.walkNested(node);
      return [UNKNOWN];
    default:
      // Glob and regex pieces (extglob, `[[ =~ ]]`) stand as written; anything else is walked.
      if (node.type === 'extglob_pattern' || node.type === 'regex') return [raw];
      if (!top) host.walkNested(node);
      return [UNKNOWN];
  }
}

/** An unquoted word: backslash makes the next character literal. */
function unquotedWord(raw: string): string {
  let out = '';
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index]!;
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[++index]!;
      if (next !== '\n') out += LITERAL + next;
    } else out += char;
  }
  return out;
}

function quotedString(node: Node, host: WordHost): string[] {
  let results = [''];
  for (const child of childrenOf(node)) {
    let parts: string[];
    if (child.type === '"' || child.type === '$"') continue;
    if (child.type === 'string_content') {
      parts = [
        literal(
          textOf(child, host.source)
            .replace(/\\([$`"\\])/g, '$1')
            .replace(/\\\n/g, ''),
        ),
      ];
    } else if (child.type === 'simple_expansion' || child.type === 'expansion') {
      parts = expansion(child, host, true);
    } else {
      host.walkNested(child);
      parts = [UNKNOWN];
    }
    results = results.flatMap((prefix) => parts.map((part) => prefix + part)).slice(0, MAX_TEXTS);
  }
  return results;
}

/**
 * `$X`, `${X}`, `${X:-word}`, `${#X}`, `${!X}`, `${a[$(cmd)]}`: the variable is read (from the
 * environment when the line did not set it); words inside are evaluated for what they run.
 */
function expansion(node: Node, host: WordHost, quoted: boolean): string[] {
  const raw = textOf(node, host.source);
  let name: string | undefined;
  let plain = true;
  let indirect = false;
  for (const child of childrenOf(node)) {
    if (child.type === 'variable_name' || child.type === 'special_variable_name') name ??= textOf(child, host.source);
    else if (child.type === '$' || child.type === '${' || child.type === '}') continue;
    else if (child.type === '!') indirect = true;
    else if (child.type === 'subscript') {
      name ??= textOf(child.childForFieldName('name') ?? child, host.source);
      const index = child.childForFieldName('index');
      if (index !== null) template(index, host, false);
      plain = false;
    } else {
      plain = false;
      if (child.isNamed) template(child, host, false);
    }
  }
  if (name === undefined) return [UNKNOWN];
  if (indirect) {
    // `${!X}` reads the variable X names; `${!GH*}` lists names: the whole environment is in reach.
    host.readEnvironment('all', raw);
    return [UNKNOWN];
  }
  if (SPECIAL.test(name)) return [UNKNOWN];
  const set = host.variable(name);
  if (set === undefined) host.readEnvironment(name, raw);
  if (!plain || set === null) return [UNKNOWN];
  const values = set ?? (name === 'HOME' ? [host.home] : undefined);
  if (values === undefined) return [UNKNOWN];
  // Unquoted values are split and globbed by bash: keep glob characters live, as the loop `for f in *.ts` means.
  return values.map((value) => (quoted ? literal(value) : value));
}

/** Bash's `{a,b}` and `{1..3}` expansion on unmarked characters, up to MAX_TEXTS results. */
export function expandBraces(text: string): string[] {
  const open = findUnmarked(text, '{', 0);
  if (open === -1) return [text];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let index = open; index < text.length; index++) {
    if (text[index] === LITERAL) {
      index++;
      continue;
    }
    if (text[index] === '{') depth++;
    else if (text[index] === '}' && --depth === 0) {
      close = index;
      break;
    } else if (text[index] === ',' && depth === 1) commas.push(index);
  }
  if (close === -1) return [text];
  const prefix = text.slice(0, open);
  const suffix = text.slice(close + 1);
  const inner = text.slice(open + 1, close);
  let alternatives: string[];
  if (commas.length > 0) {
    const bounds = [open, ...commas, close];
    alternatives = bounds.slice(1).map((end, index) => text.slice(bounds[index]! + 1, end));
  } else {
    const range = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
    // `{abc}` is no expansion: bash leaves the brace as written and goes on after it.
    if (range === null) return expandBraces(`${prefix}${LITERAL}{${text.slice(open + 1)}`);
    alternatives = rangeOf(range[1]!, range[2]!, Math.abs(Number(range[3] ?? 1)) || 1);
  }
  const results: string[] = [];
  for (const alternative of alternatives) {
    for (const expanded of expandBraces(prefix + alternative + suffix)) {
      results.push(expanded);
      if (results.length >= MAX_TEXTS) return results;
    }
  }
  return results;
}

function rangeOf(from: string, to: string, step: number): string[] {
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const out: string[] = [];
  for (let value = start; start <= end ? value <= end : value >= end; value += start <= end ? step : -step) {
    out.push(numeric ? String(value) : String.fromCharCode(value));
    if (out.length >= MAX_TEXTS) break;
  }
  return out;
}

function findUnmarked(text: string, char: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === LITERAL) index++;
    else if (text[index] === char) return index;
  }
  return -1;
}

/** `$'…'` as bash decodes it: `\x72`, `\162`, `\u0072`, `\n`, `\cX`. */
export function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, sequence: string) => {
      const head = sequence[0]!;
      if (head === 'x' || head === 'u' || head === 'U')
        return String.fromCodePoint(Number.parseInt(sequence.slice(1), 16));
      if (/[0-7]/.test(head)) return String.fromCharCode(Number.parseInt(sequence, 8) & 0xff);
      if (head === 'c') return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
      return simple[head] ?? `\\${sequence}`;
    },
  );
}
