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

const OPERATORS = [
  '**=',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
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
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
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
  const functions = new Set([...program.matchAll(/\bfunc(?:tion)?\s+([A-Za-z_]\w*)/g)].map((match) => match[1]!));
  let index = 0;
  let previous = '';
  let depth = 0;
  /** The parenthesis depth of the print statement being read, if any. */
  let printDepth: number | undefined;
  while (index < program.length) {
    const rest = program.slice(index);
    const char = rest[0]!;
    if (char === ' ' || char === '\t' || char === '\r') {
      index++;
      continue;
    }
    if (rest.startsWith('\\\n') || rest.startsWith('\\\r\n')) {
      index += rest.startsWith('\\\n') ? 2 : 3;
      continue;
    }
    if (char === '#') {
      const end = program.indexOf('\n', index);
      index = end === -1 ? program.length : end;
      continue;
    }
    if (char === '\n') {
      if (ENDS_OPERAND.test(previous) && printDepth === depth) printDepth = undefined;
      if (ENDS_OPERAND.test(previous)) previous = '\n';
      index++;
      continue;
    }
    let token: string;
    if (char === '"') {
      const match = /^"(?:[^"\\\n]|\\[\s\S])*"/.exec(rest);
      if (match === null) return 'a string that does not end';
      token = match[0];
    } else if (char === '/' && (WANTS_OPERAND.has(previous) || AMBIGUOUS.has(previous))) {
      if (AMBIGUOUS.has(previous)) {
        // Division or a regular expression? Read the same tokens either way, or refuse.
        const line = rest.slice(1).split('\n')[0]!;
        const next = line.indexOf('/');
        if (/["#[\\]/.test(next === -1 ? line : line.slice(0, next)))
          return `awk could read "/" after "${previous}" as a regular expression`;
        token = '/';
      } else {
        const regex = readRegex(rest);
        if (regex === undefined) return 'a regular expression that does not end';
        // A quote inside a regular expression is rare and is where two readings could part.
        if (regex.includes('"')) return 'a regular expression with a quote in it';
        token = regex;
      }
    } else if (
      /[0-9.]/.test(char) &&
      /^(0[xX][0-9a-fA-F]+|[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?)/.test(rest)
    ) {
      token = /^(0[xX][0-9a-fA-F]+|[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?)/.exec(rest)![0];
    } else if (/[A-Za-z_]/.test(char)) {
      token = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
      if (REFUSED.has(token)) return `${token} reaches outside awk`;
      const called = program.slice(index + token.length).startsWith('(');
      if (called && !KEYWORDS.has(token) && !FUNCTIONS.has(token) && !functions.has(token))
        return `${token}() is not a function riskgate knows to be harmless`;
      if (token === 'print' || token === 'printf') printDepth = depth;
    } else {
      const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
      if (operator === undefined)
        return `"${char}" is not part of the awk riskgate reads (pipes, @ and :: reach outside)`;
      if (rest.startsWith('::')) return '"::" names a function in another namespace (awk::system)';
      token = operator;
      if (token === '(' || token === '[') depth++;
      else if (token === ')' || token === ']') depth--;
      else if (token === ';' || token === '}' || token === '{') {
        if (printDepth !== undefined && depth <= printDepth) printDepth = undefined;
      } else if ((token === '>' || token === '>=') && printDepth === depth) {
        // `print … > target` writes a file; only the call's own output is harmless.
        const target = /^>\s*("(?:[^"\\\n]|\\[\s\S])*")/.exec(rest);
        if (token === '>=' || target === null || !OWN_OUTPUT.has(target[1]!)) return 'print writes to a file';
        index += target[0].length;
        previous = target[1]!;
        continue;
      }
    }
    index += token.length;
    previous = token;
  }
  return depth === 0 ? undefined : 'unbalanced brackets';
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
