import { GITLEAKS_RULES } from './gitleaks-rules.js';
import type { GitleaksAllowlist, GitleaksRule } from './gitleaks-types.js';
import { translateGoRegex } from './go-regex.js';
import type { SecretFinding } from './types.js';

/**
 * Token formats from gitleaks' rule set (docs/decisions/0008-secret-engine.md): ~220 rules, each
 * a regex with the keywords one of which a text must contain before the regex runs (the prefilter
 * that keeps the guard fast), the entropy its secret must exceed, and allowlists of known
 * non-secrets. Run the way gitleaks runs them (detect/detect.go): the secret is the rule's
 * `secretGroup` or else its first non-empty capture group, else the whole match.
 */

const LEADING = /^((?:\(\?:)*)\[\\w\.-\]\{0,50\}\?/;

/** Where the match of a rule begun with `[\w.-]{0,50}?` would start: up to 50 word characters back. */
function wordStart(text: string, start: number): number {
  let at = start;
  while (at > 0 && start - at < 50 && /[\w.-]/.test(text[at - 1]!)) at--;
  return at;
}

interface CompiledAllowlist {
  readonly and: boolean;
  readonly target: 'secret' | 'match' | 'line';
  readonly regexes: readonly RegExp[];
  /** All stopwords as one regex (gitleaks has 1,500 for its generic rule): one test per finding. */
  readonly stopwords: RegExp | undefined;
  /** Paths were part of an AND list: output has no path, so the list never holds. */
  readonly neverHolds: boolean;
}

interface CompiledRule {
  readonly id: string;
  readonly regex: RegExp;
  /** The rule began with `[\w.-]{0,50}?` (the word before a keyword), left out for speed: see compileRule. */
  readonly leadingWord: boolean;
  readonly secretGroup: number | undefined;
  readonly entropy: number | undefined;
  readonly keywords: readonly string[];
  readonly allowlists: readonly CompiledAllowlist[];
}

function compileAllowlist(list: GitleaksAllowlist): CompiledAllowlist {
  const and = list.condition?.toUpperCase() === 'AND';
  return {
    and,
    target: list.regexTarget === 'match' || list.regexTarget === 'line' ? list.regexTarget : 'secret',
    regexes: (list.regexes ?? []).map((source) => new RegExp(translateGoRegex(source))),
    stopwords:
      list.stopwords === undefined || list.stopwords.length === 0
        ? undefined
        : new RegExp(list.stopwords.map((word) => word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')),
    neverHolds: and && list.hasPaths === true,
  };
}

/** Compiles one rule; exported for the test that proves every rule compiles. */
export function compileRule(rule: GitleaksRule): CompiledRule {
  // gitleaks' keyword rules start with `[\w.-]{0,50}?`: it only stretches the match back over the
  // word before the keyword (`bucket_key`), never changes the secret, and tried at every
  // position it is most of the guard's time. It is left out, and the word is put back for
  // allowlists that test the whole match.
  let source = translateGoRegex(rule.regex);
  let leadingWord = false;
  // Also inside leading groups (`(?i:[\w.-]{0,50}?…`), and twice over (privateai's rule has two).
  for (let stripped = LEADING.exec(source); stripped !== null; stripped = LEADING.exec(source)) {
    source = `${stripped[1]}${source.slice(stripped[0].length)}`;
    leadingWord = true;
  }
  return {
    id: rule.id,
    regex: new RegExp(source, 'gd'),
    leadingWord,
    secretGroup: rule.secretGroup,
    entropy: rule.entropy,
    keywords: rule.keywords,
    allowlists: rule.allowlists.map(compileAllowlist),
  };
}

interface Compiled {
  /** The rules in gitleaks' order, each compiled the first time a text holds one of its keywords. */
  readonly rules: readonly LazyRule[];
  /** Every keyword at once, longest first, as a lookahead: one pass finds where each keyword starts. */
  readonly keywordScan: RegExp;
  /** Every keyword, longest first. */
  readonly keywords: readonly string[];
  /** For each keyword found so far, the keywords it starts with (`key` → `ke`): present whenever it is. */
  readonly prefixes: Map<string, readonly string[]>;
}

interface LazyRule {
  readonly rule: GitleaksRule;
  compiled?: CompiledRule;
}

let compiled: Compiled | undefined;
let globalAllowlist: CompiledAllowlist | undefined;

/**
 * The rule set, its rules left uncompiled: translating and compiling all ~220 Go regexes (and
 * their allowlists) cost ~20 ms on the first text scanned, usually a command's environment,
 * where a handful of keywords occur. A rule is compiled the first time its keywords are
 * present, so every verdict is the one the whole compiled set gives.
 */
function rules(): Compiled {
  if (compiled !== undefined) return compiled;
  const keywords = [...new Set(GITLEAKS_RULES.rules.flatMap((rule) => rule.keywords))].sort(
    (a, b) => b.length - a.length,
  );
  const escaped = keywords.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
  compiled = {
    rules: GITLEAKS_RULES.rules.map((rule) => ({ rule })),
    keywordScan: new RegExp(`(?=(${escaped.join('|')}))`, 'g'),
    keywords,
    prefixes: new Map(),
  };
  return compiled;
}

function compiledRule(entry: LazyRule): CompiledRule {
  entry.compiled ??= compileRule(entry.rule);
  return entry.compiled;
}

/** The allowlist every rule shares: needed only once a rule has found something. */
function globalList(): CompiledAllowlist {
  globalAllowlist ??= compileAllowlist(GITLEAKS_RULES.allowlist);
  return globalAllowlist;
}

/** The keywords `keyword` starts with, itself included (the list of `prefixes`). */
function prefixesOf(keyword: string, { keywords, prefixes }: Compiled): readonly string[] {
  let found = prefixes.get(keyword);
  if (found === undefined) {
    found = keywords.filter((other) => keyword.startsWith(other));
    prefixes.set(keyword, found);
  }
  return found;
}

/**
 * The keywords present in `lower`, in one pass (the prefilter: a rule runs only on text holding
 * one of its keywords). At each position the longest keyword starting there is found; the
 * shorter ones it starts with are then present too; those starting later are found at their own
 * position.
 */
function presentKeywords(lower: string, rules: Compiled): Set<string> {
  const present = new Set<string>();
  const { keywordScan } = rules;
  keywordScan.lastIndex = 0;
  for (const match of lower.matchAll(keywordScan)) {
    const longest = match[1]!;
    if (present.has(longest)) continue;
    for (const keyword of prefixesOf(longest, rules)) present.add(keyword);
  }
  return present;
}

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    entropy -= share * Math.log2(share);
  }
  return entropy;
}

function allowed(list: CompiledAllowlist, targets: () => { secret: string; match: string; line: string }): boolean {
  if (list.neverHolds || (list.regexes.length === 0 && list.stopwords === undefined)) return false;
  const target = targets();
  const byRegex = () => list.regexes.length > 0 && list.regexes.some((regex) => regex.test(target[list.target]));
  const byStopword = () => list.stopwords?.test(target.secret.toLowerCase()) === true;
  if (!list.and) return byRegex() || byStopword();
  return (list.regexes.length === 0 || byRegex()) && (list.stopwords === undefined || byStopword());
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to < 0 ? text.length : to);
}

/** The secrets gitleaks' rules find in `text`; `lower` is `text.toLowerCase()` when the caller has it. */
export function findTokens(text: string, lower = text.toLowerCase()): SecretFinding[] {
  const compiledRules = rules();
  const present = presentKeywords(lower, compiledRules);
  const findings: SecretFinding[] = [];
  for (const entry of compiledRules.rules) {
    const { keywords } = entry.rule;
    if (keywords.length > 0 && !keywords.some((keyword) => present.has(keyword))) continue;
    const rule = compiledRule(entry);
    rule.regex.lastIndex = 0;
    for (let match = rule.regex.exec(text); match !== null; match = rule.regex.exec(text)) {
      if (match[0].length === 0) {
        rule.regex.lastIndex++;
        continue;
      }
      const indices = match.indices!;
      let group = rule.secretGroup;
      if (group === undefined)
        group = match.findIndex((value, index) => index > 0 && value !== undefined && value !== '');
      const span = group !== undefined && group > 0 ? indices[group] : indices[0];
      if (span === undefined) continue;
      let [start, end] = span;
      // Some rules take the quotes with the value (`"…"`): the quotes are the text's, not the secret's.
      if (end - start > 2 && /["'`]/.test(text[start]!) && text[end - 1] === text[start]) {
        start++;
        end--;
      }
      const secret = text.slice(start, end);
      if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue;
      let targets: { secret: string; match: string; line: string } | undefined;
      const lazyTargets = () => {
        const matchStart = rule.leadingWord ? wordStart(text, indices[0]![0]) : indices[0]![0];
        const whole = text.slice(matchStart, indices[0]![1]);
        targets ??= {
          secret,
          match: whole.replace(/^\n+|\n+$/g, ''),
          line: lineAround(text, matchStart, indices[0]![1]),
        };
        return targets;
      };
      if (allowed(globalList(), lazyTargets) || rule.allowlists.some((list) => allowed(list, lazyTargets))) continue;
      findings.push({ start, end, what: `a secret (${rule.id})`, rule: rule.id });
    }
  }
  return findings;
}

/** How many token rules the engine carries (for docs and `riskgate doctor`). */
export function tokenRuleCount(): number {
  return GITLEAKS_RULES.rules.length;
}
