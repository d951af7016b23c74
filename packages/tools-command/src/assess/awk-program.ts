/**
 * An awk program is whitelisted only when every token of it is one the table below knows to be
 * harmless: field references, literals, operators, user variables and functions, and a fixed
 * list of builtins that compute in memory or print to standard output. Anything else —
 * `system`, `getline`, `|`, print redirections (other than to /dev/stdout and /dev/stderr),
 * `@` (indirect calls, @include, @load), ENVIRON, PROCINFO, ARGV, `close`, `fflush`, `::` — makes
 * the program unknown. A token reader, not regular expressions over the text: the reader walks
 * strings, regular expressions and comments the way awk's lexer does, and where awk itself
 * could read a `/` two ways it refuses to guess (docs/decisions/0007-awk-jq-token-allowlists.md).
 */

/** Keywords: control flow and program structure; none reaches outside the process. */
const KEYWORDS = new Set([
  'BEGIN',
  'END',
  'BEGINFILE',
  'ENDFILE',
  'if',
  'else',
  'while',
  'for',
  'do',
  'break',
  'continue',
  'next',
  'nextfile',
  'exit',
  'return',
  'in',
  'delete',
  'function',
  'func',
  'print',
  'printf',
]);

/** Builtin functions that compute in memory (strings, numbers, arrays, time) and touch nothing else. */
const FUNCTIONS = new Set([
  'length',
  'substr',
  'index',
  'split',
  'sub',
  'gsub',
  'gensub',
  'match',
  'sprintf',
  'tolower',
  'toupper',
  'int',
  'sqrt',
  'exp',
  'log',
  'sin',
  'cos',
  'atan2',
  'rand',
  'srand',
  'strtonum',
  'asort',
  'asorti',
  'patsplit',
  'isarray',
  'typeof',
  'mktime',
  'strftime',
  'systime',
  'and',
  'or',
  'xor',
  'lshift',
  'rshift',
  'compl',
]);

/**
 * Names that reach outside: commands (system, getline, close, fflush), the environment
 * (ENVIRON, PROCINFO), what files awk reads next (ARGV, ARGC), name tables that allow indirect
 * access (SYMTAB, FUNCTAB), message catalogs (bindtextdomain, dcgettext).
 */
const REFUSED = new Set([
  'system',
  'getline',
  'close',
  'fflush',
  'ENVIRON',
  'PROCINFO',
  'ARGV',
  'ARGC',
  'SYMTAB',
  'FUNCTAB',
  'bindtextdomain',
  'dcgettext',
  'dcngettext',
]);

/** Assignment operators: after one, awk wants an operand (`/` starts a regular expression). */
const ASSIGNMENTS = ['+=', '-=', '*=', '/=', '%=', '^='];

const OPERATORS = [
  '**=',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  ...ASSIGNMENTS,
  '**',
  '++',
  '--',
  '!~',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '!',
  '~',
  '?',
  ':',
  '=',
  ',',
  ';',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '$',
];

/** Tokens after which a `/` starts a regular expression (awk wants an operand there). */
const WANTS_OPERAND = new Set([
  '',
  '\n',
  '(',
  ',',
  '{',
  '}',
  ';',
  '!',
  '~',
  '!~',
  '&&',
  '||',
  '?',
  ':',
  '=',
  ...ASSIGNMENTS,
  '**=',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '+',
  '-',
  '*',
  '%',
  '^',
  '**',
  '[',
  'print',
  'printf',
  'return',
  'do',
  'else',
  'in',
]);
/** Tokens after which a `/` could be read either way by awk (`if (x) /re/`, `x++ /2`, `length /2`). */
const AMBIGUOUS = new Set([')', '++', '--', 'length']);
/** Tokens that end an operand: a newline after one ends a statement. */
const ENDS_OPERAND = /^([A-Za-z_]\w*|[0-9.].*|".*|\/.*|\)|\]|\+\+|--)$/s;
/** Print redirections that only reach the call's own output. */
const OWN_OUTPUT = new Set(['"/dev/stdout"', '"/dev/stderr"']);

/** Why the program is not made only of harmless tokens, or undefined when it is. */
export function awkProblem(program: string): string | undefined {
  return new AwkTokens(program).problem();
}

/** A token read (and how many characters it took, when not its own length), or why it is refused. */
type Token = { readonly token: string; readonly length?: number } | { readonly problem: string };

/** An awk program read token by token, with the state a print redirection depends on. */
class AwkTokens {
  private readonly program: string;
  /** Functions the program defines: calling them is harmless. */
  private readonly functions: ReadonlySet<string>;
  private index = 0;
  private previous = '';
  private depth = 0;
  /** The parenthesis depth of the print statement being read, if any. */
  private printDepth: number | undefined;

  constructor(program: string) {
    this.program = program;
    this.functions = new Set([...program.matchAll(/\bfunc(?:tion)?\s+([A-Za-z_]\w*)/g)].map((match) => match[1]!));
  }

  problem(): string | undefined {
    while (this.index < this.program.length) {
      const rest = this.program.slice(this.index);
      if (this.skipped(rest)) continue;
      const read = this.token(rest);
      if ('problem' in read) return read.problem;
      this.index += read.length ?? read.token.length;
      this.previous = read.token;
    }
    return this.depth === 0 ? undefined : 'unbalanced brackets';
  }

  /** Blanks, line continuations, comments and newlines (which may end a print statement). */
  private skipped(rest: string): boolean {
    const char = rest[0]!;
    if (char === ' ' || char === '\t' || char === '\r') this.index++;
    else if (rest.startsWith('\\\n') || rest.startsWith('\\\r\n')) this.index += rest.startsWith('\\\n') ? 2 : 3;
    else if (char === '#') {
      const end = this.program.indexOf('\n', this.index);
      this.index = end === -1 ? this.program.length : end;
    } else if (char === '\n') {
      if (ENDS_OPERAND.test(this.previous) && this.printDepth === this.depth) this.printDepth = undefined;
      if (ENDS_OPERAND.test(this.previous)) this.previous = '\n';
      this.index++;
    } else return false;
    return true;
  }

  private token(rest: string): Token {
    const char = rest[0]!;
    const previous = this.previous;
    if (char === '"') {
      const match = /^"(?:[^"\\\n]|\\[\s\S])*"/.exec(rest);
      return match === null ? { problem: 'a string that does not end' } : { token: match[0] };
    }
    if (char === '/' && (WANTS_OPERAND.has(previous) || AMBIGUOUS.has(previous))) return this.slash(rest);
    const number = /^(0[xX][0-9a-fA-F]+|[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?)/;
    if (/[0-9.]/.test(char) && number.test(rest)) return { token: number.exec(rest)![0] };
    if (/[A-Za-z_]/.test(char)) return this.name(rest);
    return this.operator(rest);
  }

  /** `/` after a token that wants an operand: a regular expression, or division where both readings agree. */
  private slash(rest: string): Token {
    const previous = this.previous;
    if (AMBIGUOUS.has(previous)) {
      // Division or a regular expression? Read the same tokens either way, or refuse.
      const line = rest.slice(1).split('\n')[0]!;
      const next = line.indexOf('/');
      if (/["#[\\]/.test(next === -1 ? line : line.slice(0, next)))
        return { problem: `awk could read "/" after "${previous}" as a regular expression` };
      return { token: '/' };
    }
    const regex = readRegex(rest);
    if (regex === undefined) return { problem: 'a regular expression that does not end' };
    // A quote inside a regular expression is rare and is where two readings could part.
    if (regex.includes('"')) return { problem: 'a regular expression with a quote in it' };
    return { token: regex };
  }

  /** A name: a keyword, a variable, or a call of a function known to be harmless. */
  private name(rest: string): Token {
    const token = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
    if (REFUSED.has(token)) return { problem: `${token} reaches outside awk` };
    const called = this.program.slice(this.index + token.length).startsWith('(');
    if (called && !KEYWORDS.has(token) && !FUNCTIONS.has(token) && !this.functions.has(token))
      return { problem: `${token}() is not a function riskgate knows to be harmless` };
    if (token === 'print' || token === 'printf') this.printDepth = this.depth;
    return { token };
  }

  /** An operator; `print … > target` writes a file, and only the call's own output is harmless. */
  private operator(rest: string): Token {
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (operator === undefined)
      return { problem: `"${rest[0]}" is not part of the awk riskgate reads (pipes, @ and :: reach outside)` };
    if (rest.startsWith('::')) return { problem: '"::" names a function in another namespace (awk::system)' };
    if (operator === '(' || operator === '[') this.depth++;
    else if (operator === ')' || operator === ']') this.depth--;
    else if (operator === ';' || operator === '}' || operator === '{') {
      if (this.printDepth !== undefined && this.depth <= this.printDepth) this.printDepth = undefined;
    } else if ((operator === '>' || operator === '>=') && this.printDepth === this.depth) {
      const target = /^>\s*("(?:[^"\\\n]|\\[\s\S])*")/.exec(rest);
      if (operator === '>=' || target === null || !OWN_OUTPUT.has(target[1]!))
        return { problem: 'print writes to a file' };
      return { token: target[1]!, length: target[0].length };
    }
    return { token: operator };
  }
}

/** `/…/` as awk's lexer reads it: `\` escapes, and `/` inside a bracket expression does not end it. */
function readRegex(text: string): string | undefined {
  let index = 1;
  let bracket = false;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\n') return undefined;
    if (char === '\\') index += 2;
    else if (bracket) {
      // `[:alpha:]`, `[.a.]`, `[=a=]` inside a bracket expression end at their own `:]`.
      const inner = /^\[([:.=])/.exec(text.slice(index));
      if (inner !== null) {
        const end = text.indexOf(`${inner[1]}]`, index + 2);
        if (end === -1) return undefined;
        index = end + 2;
        continue;
      }
      if (char === ']') bracket = false;
      index++;
    } else if (char === '[') {
      bracket = true;
      index++;
      // `[]…]` and `[^]…]`: a leading `]` is a member.
      if (text[index] === '^') index++;
      if (text[index] === ']') index++;
    } else if (char === '/') return text.slice(0, index + 1);
    else index++;
  }
  return undefined;
}
