/**
 * A jq filter is whitelisted only when every token is one the tables below know to be harmless:
 * paths (`.a`, `.[0]`, `..`), literals, operators, variables bound by the filter or by --arg,
 * object keys, user `def`s and a fixed list of builtins that compute on their input. Anything
 * else — `import`/`include` (modules from disk), `input`/`inputs`/`input_filename` (other
 * input), `env`/`$ENV`/`$__loc__` (the environment and source), `debug`/`stderr`/`halt_error`
 * (other outputs), `getpath`-free module lookups (`get_search_list`…) — makes it unknown.
 * jq has no mode that prints a parsed filter without running it, and no maintained parser
 * exists for JavaScript, so a token reader stands in (docs/decisions/0007-awk-jq-token-allowlists.md).
 */

const KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'end',
  'as',
  'def',
  'reduce',
  'foreach',
  'try',
  'catch',
  'label',
  'break',
  'and',
  'or',
  'not',
]);

/** Builtins that compute on their input and arguments only. */
const FUNCTIONS = new Set([
  'empty',
  'error',
  'length',
  'utf8bytelength',
  'keys',
  'keys_unsorted',
  'values',
  'has',
  'in',
  'map',
  'map_values',
  'path',
  'del',
  'to_entries',
  'from_entries',
  'with_entries',
  'select',
  'add',
  'any',
  'all',
  'flatten',
  'range',
  'floor',
  'ceil',
  'round',
  'sqrt',
  'pow',
  'log',
  'log2',
  'log10',
  'exp',
  'exp2',
  'exp10',
  'fabs',
  'abs',
  'min',
  'max',
  'min_by',
  'max_by',
  'tostring',
  'tonumber',
  'type',
  'infinite',
  'nan',
  'isinfinite',
  'isnan',
  'isnormal',
  'isvalid',
  'sort',
  'sort_by',
  'group_by',
  'unique',
  'unique_by',
  'reverse',
  'contains',
  'inside',
  'startswith',
  'endswith',
  'ltrimstr',
  'rtrimstr',
  'trim',
  'ltrim',
  'rtrim',
  'explode',
  'implode',
  'split',
  'splits',
  'join',
  'ascii_downcase',
  'ascii_upcase',
  'ascii',
  'recurse',
  'recurse_down',
  'tojson',
  'fromjson',
  'todate',
  'fromdate',
  'date',
  'now',
  'mktime',
  'gmtime',
  'localtime',
  'strftime',
  'strflocaltime',
  'strptime',
  'todateiso8601',
  'fromdateiso8601',
  'dateadd',
  'datesub',
  'test',
  'match',
  'capture',
  'scan',
  'sub',
  'gsub',
  'limit',
  'first',
  'last',
  'nth',
  'until',
  'while',
  'repeat',
  'indices',
  'index',
  'rindex',
  'combinations',
  'walk',
  'transpose',
  'tostream',
  'fromstream',
  'truncate_stream',
  'getpath',
  'setpath',
  'delpaths',
  'paths',
  'leaf_paths',
  'toarray',
  'arrays',
  'objects',
  'iterables',
  'booleans',
  'numbers',
  'strings',
  'nulls',
  'scalars',
  'halt',
  'significand',
  'gamma',
  'lgamma',
  'tgamma',
  'frexp',
  'ldexp',
  'modf',
  'trunc',
  'pick',
  'have_literal_numbers',
  'have_decnum',
  'isempty',
  'finites',
  'normals',
  'skip',
  'null',
  'true',
  'false',
  'builtins',
  'not',
  'tojson',
  'ascii',
  'getpath',
  'splits',
  'any',
]);

/** Output formats: each turns its input into a string. */
const FORMATS = new Set([
  '@text',
  '@json',
  '@html',
  '@uri',
  '@csv',
  '@tsv',
  '@sh',
  '@base64',
  '@base64d',
  '@base32',
  '@base32d',
]);

const OPERATORS = [
  '?//',
  '//=',
  '|=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '..',
  '|',
  ',',
  '<',
  '>',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '?',
  ':',
  ';',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '.',
];

/** Why the filter is not made only of harmless tokens, or undefined when it is. */
export function jqProblem(filter: string): string | undefined {
  // Names a filter defines (`def f(g; $x):`) may be called; parameters too.
  const defined = new Set<string>();
  for (const match of filter.matchAll(/\bdef\s+([A-Za-z_]\w*)\s*(\(([^)]*)\))?/g)) {
    defined.add(match[1]!);
    for (const parameter of (match[3] ?? '').split(';')) defined.add(parameter.trim().replace(/^\$/, ''));
  }
  return read(filter, defined);
}

function read(filter: string, defined: ReadonlySet<string>): string | undefined {
  let index = 0;
  const stack: string[] = [];
  let keyPosition = false;
  while (index < filter.length) {
    const rest = filter.slice(index);
    const char = rest[0]!;
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    if (char === '#') {
      // jq 1.7 continues a comment after an odd number of backslashes: it only hides more, never less.
      const end = filter.indexOf('\n', index);
      index = end === -1 ? filter.length : end;
      continue;
    }
    const atKey = keyPosition;
    keyPosition = false;
    if (char === '"') {
      const end = readString(filter, index, defined);
      if (typeof end === 'string') return end;
      index = end;
      continue;
    }
    if (char === '$') {
      const name = /^\$(__loc__|[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_]\w*)*)/.exec(rest);
      if (name === null) return 'a "$" that names no variable';
      if (name[1] === 'ENV' || name[1]!.startsWith('__') || name[1]!.includes('::'))
        return `$${name[1]} reaches outside the filter`;
      index += name[0].length;
      continue;
    }
    if (char === '@') {
      const format = /^@[A-Za-z0-9_]+/.exec(rest)?.[0];
      if (format === undefined || !FORMATS.has(format)) return `${format ?? '@'} is not a format riskgate knows`;
      index += format.length;
      continue;
    }
    if (char === '.' && /^\.[A-Za-z_]/.test(rest)) {
      // `.name`: a field, whatever the name.
      index += /^\.[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0].length;
      continue;
    }
    if (/[0-9]/.test(char) || (char === '.' && /^\.[0-9]/.test(rest))) {
      index += /^([0-9]*\.?[0-9]+|[0-9]+\.?)([eE][-+]?[0-9]+)?/.exec(rest)![0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest)![0];
      index += name.length;
      // `{name: …}` and `{name}`: an object key, not a call.
      if (atKey && /^\s*[:,}]/.test(filter.slice(index))) continue;
      if (name.includes('::')) return `${name} calls a module`;
      if (!KEYWORDS.has(name) && !FUNCTIONS.has(name) && !defined.has(name))
        return `${name} is not a jq builtin riskgate knows to be harmless`;
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (operator === undefined) return `"${char}" is not part of the jq riskgate reads`;
    if (operator === '(' || operator === '[' || operator === '{') stack.push(operator);
    else if (operator === ')' || operator === ']' || operator === '}') {
      const open = stack.pop();
      if (open !== { ')': '(', ']': '[', '}': '{' }[operator]) return 'unbalanced brackets';
    }
    if (operator === '{' || (operator === ',' && stack.at(-1) === '{')) keyPosition = true;
    index += operator.length;
  }
  return stack.length === 0 ? undefined : 'unbalanced brackets';
}

/** A string, its `\(…)` interpolations read as filters; returns the index after it, or a problem. */
function readString(filter: string, start: number, defined: ReadonlySet<string>): number | string {
  let index = start + 1;
  while (index < filter.length) {
    const char = filter[index]!;
    if (char === '"') return index + 1;
    if (char !== '\\') {
      index++;
      continue;
    }
    if (filter[index + 1] !== '(') {
      index += 2;
      continue;
    }
    // `\(expr)`: find its closing parenthesis, strings inside included.
    let depth = 1;
    let cursor = index + 2;
    while (cursor < filter.length && depth > 0) {
      const inner = filter[cursor]!;
      if (inner === '"') {
        const end = readString(filter, cursor, defined);
        if (typeof end === 'string') return end;
        cursor = end;
        continue;
      }
      if (inner === '(') depth++;
      else if (inner === ')') depth--;
      cursor++;
    }
    if (depth > 0) return 'an interpolation that does not end';
    const problem = read(filter.slice(index + 2, cursor - 1), defined);
    if (problem !== undefined) return problem;
    index = cursor;
  }
  return 'a string that does not end';
}
