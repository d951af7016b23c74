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

interface CompiledAllowlist {
  readonly and: boolean;
  readonly target: 'secret' | 'match' | 'line';
  readonly regexes: readonly RegExp[];
  readonly stopwords: readonly string[];
  /** Paths were part of an AND list: output has no path, so the list never holds. */
  readonly neverHolds: boolean;
}

interface CompiledRule {
  readonly id: string;
  readonly regex: RegExp;
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
    stopwords: list.stopwords ?? [],
    neverHolds: and && list.hasPaths === true,
  };
}

/** Compiles one rule; exported for the test that proves every rule compiles. */
export function compileRule(rule: GitleaksRule): CompiledRule {
  return {
    id: rule.id,
    regex: new RegExp(translateGoRegex(rule.regex), 'gd'),
    secretGroup: rule.secretGroup,
    entropy: rule.entropy,
    keywords: rule.keywords,
    allowlists: rule.allowlists.map(compileAllowlist),
  };
}

let compiled: { rules: readonly CompiledRule[]; global: CompiledAllowlist } | undefined;

function rules() {
  compiled ??= { rules: GITLEAKS_RULES.rules.map(compileRule), global: compileAllowlist(GITLEAKS_RULES.allowlist) };
  return compiled;
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

function allowed(list: CompiledAllowlist, targets: { secret: string; match: string; line: string }): boolean {
  if (list.neverHolds) return false;
  const checks: boolean[] = [];
  if (list.regexes.length > 0) checks.push(list.regexes.some((regex) => regex.test(targets[list.target])));
  if (list.stopwords.length > 0) {
    const lower = targets.secret.toLowerCase();
    checks.push(list.stopwords.some((word) => lower.includes(word)));
  }
  if (checks.length === 0) return false;
  return list.and ? checks.every(Boolean) : checks.some(Boolean);
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to < 0 ? text.length : to);
}

/** The secrets gitleaks' rules find in `text`; `lower` is `text.toLowerCase()` when the caller has it. */
export function findTokens(text: string, lower = text.toLowerCase()): SecretFinding[] {
  const { rules: all, global } = rules();
  const findings: SecretFinding[] = [];
  for (const rule of all) {
    if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => lower.includes(keyword))) continue;
    rule.regex.lastIndex = 0;
    for (let match = rule.regex.exec(text); match !== null; match = rule.regex.exec(text)) {
      if (match[0].length === 0) {
        rule.regex.lastIndex++;
        continue;
      }
      const indices = match.indices!;
      let group = rule.secretGroup;
      if (group === undefined) group = match.findIndex((value, index) => index > 0 && value !== undefined && value !== '');
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
      const targets = { secret, match: match[0].replace(/^\n+|\n+$/g, ''), line: lineAround(text, indices[0]![0], indices[0]![1]) };
      if (allowed(global, targets) || rule.allowlists.some((list) => allowed(list, targets))) continue;
      findings.push({ start, end, what: `a secret (${rule.id})`, rule: rule.id });
    }
  }
  return findings;
}

/** How many token rules the engine carries (for docs and `riskgate doctor`). */
export function tokenRuleCount(): number {
  return GITLEAKS_RULES.rules.length;
}
