/**
 * Bash arithmetic (`$((…))`, `((…))`, `for ((…))`, `let`, `[[ a -lt b ]]`) evaluates the value
 * of every name it meets as an expression in turn, and an expression may hold `a[$(cmd)]`:
 * `x='a[$(id)]'; echo $((x))` runs id. So arithmetic is modelled only on literal numbers,
 * operators and variables the walk knows to hold plain numbers; anything else is unknown.
 */

/** A variable's values as the walk knows them: NUMBER when only "some integer" is known. */
export const NUMBER: readonly string[] = Object.freeze(['\u0000number']);

const NUMBER_LITERAL = /^(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9a-zA-Z@_]+)?)$/;
/** Variables bash sets to integers itself. */
const NUMERIC_SPECIALS = new Set([
  '#',
  '?',
  '$',
  '!',
  'RANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'OPTIND',
  'SRANDOM',
  'EPOCHSECONDS',
]);
const OPERATORS = /^(\*\*=?|<<=?|>>=?|\+\+|--|&&|\|\||[-+*/%&|^]=|[=!<>]=|[-+*/%&|^~!<>=?:,()])/;

export interface ArithmeticScope {
  /** The values of a variable: set on the line, NUMBER, null (run time) or undefined (from the environment). */
  variable(name: string): readonly string[] | null | undefined;
}

export interface ArithmeticReading {
  /** Why the walk cannot follow it, or undefined. */
  readonly problem: string | undefined;
  /** Names the expression assigns (each then holds an integer). */
  readonly assigned: readonly string[];
}

export function isKnownNumber(scope: ArithmeticScope, name: string): boolean {
  if (NUMERIC_SPECIALS.has(name)) return true;
  const values = scope.variable(name);
  if (values === NUMBER) return true;
  return Array.isArray(values) && values.length > 0 && values.every((value) => /^\s*-?[0-9]+\s*$/.test(value));
}

/** Read one arithmetic expression's text as bash would evaluate it. */
export function readArithmetic(text: string, scope: ArithmeticScope): ArithmeticReading {
  const assigned: string[] = [];
  let index = 0;
  let previous = '';
  const fail = (problem: string): ArithmeticReading => ({ problem, assigned });
  while (index < text.length) {
    const rest = text.slice(index);
    const space = /^(\s|\\\n)+/.exec(rest);
    if (space !== null) {
      index += space[0].length;
      continue;
    }
    const expansion = /^\$(?:\{(#?)([A-Za-z_][A-Za-z0-9_]*|[#?$!])\}|([A-Za-z_][A-Za-z0-9_]*|[#?$!]))/.exec(rest);
    if (expansion !== null) {
      const name = expansion[2] ?? expansion[3]!;
      if (expansion[1] !== '#' && !isKnownNumber(scope, name))
        return fail(`arithmetic on $${name}, whose value is known only at run time`);
      index += expansion[0].length;
      continue;
    }
    const word = /^[A-Za-z0-9_@#]+/.exec(rest);
    if (word !== null) {
      const token = word[0];
      index += token.length;
      if (NUMBER_LITERAL.test(token)) continue;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(token)) return fail(`arithmetic on "${token}"`);
      const after = text.slice(index).replace(/^\s+/, '');
      // `name = …` only writes name; every other use (`name`, `name++`, `name += 1`) reads its value.
      if (/^=(?!=)/.test(after)) {
        assigned.push(token);
        continue;
      }
      if (!isKnownNumber(scope, token)) return fail(`arithmetic on ${token}, whose value is known only at run time`);
      if (/^(\+\+|--|[-+*/%&|^]=|<<=|>>=|\*\*=)/.test(after) || previous === '++' || previous === '--')
        assigned.push(token);
      previous = token;
      continue;
    }
    const operator = OPERATORS.exec(rest);
    if (operator !== null) {
      index += operator[0].length;
      previous = operator[0];
      continue;
    }
    return fail(`arithmetic riskgate does not model near "${rest.slice(0, 20)}"`);
  }
  return { problem: undefined, assigned };
}
