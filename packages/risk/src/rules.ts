import picomatch from 'picomatch';

/**
 * User rules: `allow`, `ask` and `deny`, each written `tool` or `tool(pattern)`, e.g.
 * `execute_command(git log *)`, `execute_sql(SELECT *)`,
 * `http_request(GET https://api.example.com/*)`, `file_operations(read src/**)`.
 *
 * A pattern is matched against the *subjects* a tool's assessor reports (one per statement,
 * simple command, request or path), never against the raw text, so `git log *` cannot match
 * `git log; rm -rf ~`: that line has two subjects and `rm -rf ~` is not `git log …`.
 * An allow rule needs every subject to match; deny and ask rules need one.
 */

export type RuleEffect = 'allow' | 'ask' | 'deny';
export const RULE_EFFECTS: readonly RuleEffect[] = ['deny', 'ask', 'allow'];

/**
 * How a tool's patterns read:
 * - `text` (commands): `*` is any run of characters on one line; a trailing ` *` also matches
 *   nothing (`git log *` matches `git log`); whitespace runs are one space; case counts.
 * - `sql`: as `text`, but letter case does not count.
 * - `path` (files): `OPERATION GLOB` (`read src/**`), the glob with shell semantics through
 *   picomatch: `*` stays within one path segment, `**` crosses segments, `?` is one character,
 *   `{a,b}` and `[…]` as in bash, and no wildcard matches a name starting with `.` (so
 *   `read src/*` does not cover `src/.env`: write `read src/.env` to mean it). The operation
 *   may be `*`.
 * - `url` (HTTP): `METHOD URL`; in the host part `*` never crosses `/ ? # @ :`, after it `*`
 *   is any run; the method is matched without regard to case and may itself be `*`.
 */
export type RuleStyle = 'text' | 'sql' | 'path' | 'url';

export interface Rule {
  readonly effect: RuleEffect;
  readonly tool: string;
  /** Absent: the rule covers every call of the tool. */
  readonly pattern?: string;
  /** The rule as written, e.g. `execute_command(git log *)`. */
  readonly text: string;
}

export type RuleParseResult =
  | { readonly ok: true; readonly rule: Rule }
  | { readonly ok: false; readonly error: string };

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function parseRule(text: string, effect: RuleEffect): RuleParseResult {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open === -1) {
    if (!TOOL_NAME.test(trimmed)) {
      return { ok: false, error: `rule "${text}": expected a tool name such as execute_sql, or tool(pattern)` };
    }
    return { ok: true, rule: { effect, tool: trimmed, text: trimmed } };
  }
  const tool = trimmed.slice(0, open).trim();
  if (!TOOL_NAME.test(tool)) {
    return { ok: false, error: `rule "${text}": "${tool}" is not a tool name` };
  }
  if (!trimmed.endsWith(')')) {
    return { ok: false, error: `rule "${text}": the pattern must end with ")"` };
  }
  const pattern = trimmed.slice(open + 1, -1).trim();
  if (pattern === '') {
    return { ok: false, error: `rule "${text}": the pattern is empty; write "${tool}" to cover the whole tool` };
  }
  return { ok: true, rule: { effect, tool, pattern, text: `${tool}(${pattern})` } };
}

export function formatRule(tool: string, pattern?: string): string {
  return pattern === undefined ? tool : `${tool}(${pattern})`;
}

/** Does `rule` apply to a call of `toolName` whose assessor reported `subjects`? */
export function ruleMatches(rule: Rule, toolName: string, style: RuleStyle, subjects: readonly string[]): boolean {
  if (rule.tool !== toolName) return false;
  if (rule.pattern === undefined) return true;
  if (subjects.length === 0) return false;
  const matcher = compilePattern(rule.pattern, style);
  return rule.effect === 'allow' ? subjects.every(matcher) : subjects.some(matcher);
}

/** The first rule of the given effect that applies, in the order written. */
export function findRule(
  rules: readonly Rule[],
  effect: RuleEffect,
  toolName: string,
  style: RuleStyle,
  subjects: readonly string[],
): Rule | undefined {
  return rules.find((rule) => rule.effect === effect && ruleMatches(rule, toolName, style, subjects));
}

const compiled = new Map<string, (subject: string) => boolean>();

export function compilePattern(pattern: string, style: RuleStyle): (subject: string) => boolean {
  const key = `${style}\u0000${pattern}`;
  let matcher = compiled.get(key);
  if (matcher === undefined) {
    matcher = buildMatcher(pattern, style);
    compiled.set(key, matcher);
  }
  return matcher;
}

function buildMatcher(pattern: string, style: RuleStyle): (subject: string) => boolean {
  switch (style) {
    case 'text':
    case 'sql': {
      const regex = new RegExp(`^${textPatternSource(collapseSpaces(pattern))}$`, style === 'sql' ? 'is' : 's');
      return (subject) => !subject.includes('\n') && regex.test(collapseSpaces(subject));
    }
    case 'path':
      return pathMatcher(collapseSpaces(pattern));
    case 'url': {
      const regex = urlPatternRegex(collapseSpaces(pattern));
      return (subject) => regex.test(subject);
    }
    default: {
      const unreachable: never = style;
      throw new Error(`unknown rule style ${String(unreachable)}`);
    }
  }
}

function collapseSpaces(value: string): string {
  return value.trim().replace(/[ \t]+/g, ' ');
}

function escapeRegex(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function textPatternSource(pattern: string): string {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\' && pattern[index + 1] === '*') {
      source += '\\*';
      index++;
    } else if (char === ' ' && pattern[index + 1] === '*' && index + 2 === pattern.length) {
      // A trailing " *" also matches nothing: `git log *` covers a bare `git log`.
      source += '(?: [^\\n]*)?';
      index++;
    } else if (char === '*') {
      source += '[^\\n]*';
    } else {
      source += escapeRegex(char);
    }
  }
  return source;
}

/** `OPERATION GLOB` against subjects `operation path`; a pattern without a space is a glob for any operation. */
function pathMatcher(pattern: string): (subject: string) => boolean {
  const space = pattern.indexOf(' ');
  const operation = space === -1 ? '*' : pattern.slice(0, space);
  const glob = space === -1 ? pattern : pattern.slice(space + 1).trim();
  const matchesGlob = picomatch(glob, { dot: false, nonegate: true });
  return (subject) => {
    const split = subject.indexOf(' ');
    if (split === -1) return false;
    const subjectOperation = subject.slice(0, split);
    return (operation === '*' || operation === subjectOperation) && matchesGlob(subject.slice(split + 1));
  };
}

function urlPatternRegex(pattern: string): RegExp {
  const space = pattern.indexOf(' ');
  const method = space === -1 ? '*' : pattern.slice(0, space);
  let url = space === -1 ? pattern : pattern.slice(space + 1).trim();
  const methodSource = method === '*' ? '[A-Z]+' : escapeRegex(method.toUpperCase());
  const schemeEnd = url.indexOf('://');
  let source = '';
  if (schemeEnd !== -1) {
    const scheme = url.slice(0, schemeEnd).toLowerCase();
    const rest = url.slice(schemeEnd + 3);
    const slash = rest.search(/[/?#]/);
    const authority = (slash === -1 ? rest : rest.slice(0, slash)).toLowerCase();
    url = slash === -1 ? '/' : rest.slice(slash);
    source += `${scheme === '*' ? 'https?' : escapeRegex(scheme)}://`;
    for (const char of authority) {
      source += char === '*' ? '[^/?#@:\\s]*' : escapeRegex(char);
    }
  }
  for (const char of url) {
    source += char === '*' ? '\\S*' : escapeRegex(char);
  }
  return new RegExp(`^${methodSource} ${source}$`);
}
