import { SECRET_PATTERNS } from '../secrets.js';
import { findInContext } from './context-rules.js';
import { isPlaceholderToken } from './placeholders.js';
import { findServiceFormats } from './service-formats.js';
import { findTokens } from './token-rules.js';
import type { SecretFinding } from './types.js';

/**
 * The secret engine (docs/decisions/0008-secret-engine.md): gitleaks' maintained token rules, the
 * private-key blocks of `SECRET_PATTERNS` (also cut off by a head/tail cap), riskgate's context rules
 * (assignments, URLs, headers, markup, netrc, Kubernetes Secrets…) and the same again inside base64
 * (`base64 id_rsa`, a JWT wrapped once more). One call for the output guard, the child-process
 * environment, the sandbox's workspace scan and the judge.
 */

/** Private-key blocks only: the other token formats of SECRET_PATTERNS are gitleaks' rules' job. */
const KEY_BLOCKS = SECRET_PATTERNS.filter(([, what]) => what.includes('private key')).map(
  ([pattern, what]) => [new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), what] as const,
);

function findKeyBlocks(text: string): SecretFinding[] {
  if (!text.includes('PRIVATE KEY') && !text.includes('PuTTY-User-Key-File')) return [];
  const findings: SecretFinding[] = [];
  for (const [pattern, what] of KEY_BLOCKS) {
    for (const match of text.matchAll(pattern)) {
      const footer = /-----END [^-]+-----$|Private-MAC: *[0-9a-f]+$/.test(match[0]);
      const end = footer || what.includes('PuTTY') ? match.index + match[0].length : cutOffEnd(text, match.index);
      // A header and footer round nothing (`-----BEGIN PRIVATE KEY-----\nanything\n-----END…`) is an example.
      const body = text
        .slice(match.index, end)
        .replace(/-----[^-]+-----/g, '')
        .replace(/[^A-Za-z0-9+/=]/g, '');
      if (body.length >= 12 || what.includes('PuTTY'))
        findings.push({ start: match.index, end, what, rule: 'private-key-block' });
    }
  }
  return findings;
}

/**
 * What may follow a key's header: base64 (runs of 16 or more, or a whole short line: the last of a
 * block), line breaks (also `\n` escaped in JSON), PEM and PGP armor headers. Words of prose are
 * neither.
 */
const KEY_BODY =
  /^(?:[ \t]*(?:\r?\n|\\r|\\n)|[ \t]*(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[^\n]*|[ \t]*[A-Za-z0-9+/=]{16,}|[ \t]*[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|$)))*/i;

/**
 * Where a key block with no footer ends (a head/tail cap cut it, or it is a header named in
 * prose or code): after the base64 lines that follow its header, not at the end of the text, so a
 * comment that names `-----BEGIN PRIVATE KEY-----` does not take the rest of its file with it.
 */
function cutOffEnd(text: string, start: number): number {
  const header = text.indexOf('-----', text.indexOf('-----', start) + 5) + 5;
  return header + (KEY_BODY.exec(text.slice(header))?.[0].trimEnd().length ?? 0);
}

/**
 * Runs of base64 long enough to wrap a token (40 characters, or lines of a wrapped block): decoded
 * and scanned once more. Hex digests and random ids decode to binary and are left alone.
 */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])(?:[A-Za-z0-9+/]{40,}={0,2}[ \t]*\r?\n[ \t]*)*[A-Za-z0-9+/_-]{40,}={0,2}/g;

function decodedText(run: string): string | undefined {
  const compact = run.replace(/\s+/g, '');
  const decoded = Buffer.from(
    compact,
    compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64',
  ).toString('latin1');
  if (decoded.length < 20) return undefined;
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 32 && code < 127) || code === 9 || code === 10 || code === 13) printable++;
  }
  return printable / decoded.length >= 0.85 ? decoded : undefined;
}

/**
 * gitleaks' rules end a token at a quote, a space or `;`: in JSON inside a string (`\"tok\"`), an
 * XML element (`<a>tok</a>`), a query (`?k=tok&page=2`) or braces (`{tok}`, `${VAR:-tok}`) they
 * find nothing. The token rules run on a copy where those ends are spaces; the copy has the
 * text's length, so positions hold. A `}}` stays: allowlists know `{{ template }}`.
 */
function tokenView(text: string): string {
  return text
    .replace(/\\(["'])/g, ' $1')
    .replace(/<\//g, '  ')
    .replace(/&/g, ' ')
    .replace(/\}/g, closingBrace);
}

/**
 * A `}` right after a token's character, not the first of `}}`, becomes a space (a literal search
 * is ~10× a lookbehind's). The `}` of a reference (`${password}`, `#{key}`, `%{x}`) stays: without
 * it `deploy:${password` would be no placeholder to the allowlists and placeholder tests.
 */
function closingBrace(brace: string, at: number, text: string): string {
  if (!/[\w=]/.test(text[at - 1] ?? '') || text[at + 1] === '}') return brace;
  const open = text.lastIndexOf('{', at);
  const reference =
    open > 0 && at - open < 100 && '$#%'.includes(text[open - 1]!) && /^[\w.]*$/.test(text.slice(open + 1, at));
  return reference ? brace : ' ';
}

/**
 * The token rules' findings (gitleaks', and riskgate's service formats), placeholders dropped: the
 * cheaper half of the engine, which the workspace scan uses beside its own context rules
 * (knowledge/content-secret.ts).
 */
export function findTokensIn(text: string): SecretFinding[] {
  const view = tokenView(text);
  // A token rule's match that is masked or an example (`ghp_xxxx…`, `AKIA…EXAMPLE`) is a placeholder.
  const gitleaks = findTokens(view, view.toLowerCase()).filter(
    (finding) => !isPlaceholderToken(text.slice(finding.start, finding.end)),
  );
  return [...gitleaks, ...findServiceFormats(view, isPlaceholderToken)];
}

function findInPlainText(text: string): SecretFinding[] {
  // Context findings first: where two name the same span, "the value of DB_PASSWORD" says more than a rule id.
  return [...findKeyBlocks(text), ...findInContext(text), ...findTokensIn(text)];
}

function findInBase64(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const match of text.matchAll(BASE64_RUN)) {
    const decoded = decodedText(match[0]);
    if (decoded === undefined) continue;
    const inner = findInPlainText(decoded);
    if (inner.length > 0)
      findings.push({
        start: match.index,
        end: match.index + match[0].length,
        what: `${inner[0]!.what} in base64`,
        rule: `base64:${inner[0]!.rule}`,
      });
  }
  return findings;
}

/** Overlapping findings become one; the earliest names it. */
function merged(findings: SecretFinding[]): SecretFinding[] {
  const sorted = findings.sort((a, b) => a.start - b.start || b.end - a.end);
  const result: SecretFinding[] = [];
  for (const finding of sorted) {
    const last = result[result.length - 1];
    if (last !== undefined && finding.start < last.end) {
      if (finding.end > last.end) result[result.length - 1] = { ...last, end: finding.end };
      continue;
    }
    result.push(finding);
  }
  return result;
}

/**
 * `path:12:`, `path-12-` (context lines), `path:` — what `grep -rn`, `rg`, `git grep` put before
 * each line. Line-anchored rules (`ENV NAME value`, netrc, plists, Kubernetes data, wrapped base64)
 * need the line without it.
 */
const SEARCH_PREFIX = /^(?:[^\s:\d][^\s:]*:\d+:|[^\s:\d][^\s:]*-\d+-|[^\s:\d][^\s:]*[/.][^\s:]*:)/;

/** The text without search prefixes, and where each of its lines starts in the text; undefined when no line has one. */
function withoutSearchPrefixes(text: string): { stripped: string; starts: number[]; removed: number[] } | undefined {
  const lines = text.split('\n');
  let prefixed = 0;
  const stripped: string[] = [];
  const starts: number[] = [];
  const removed: number[] = [];
  let original = 0;
  let at = 0;
  for (const line of lines) {
    const prefix = SEARCH_PREFIX.exec(line)?.[0] ?? '';
    if (prefix !== '') prefixed++;
    starts.push(at);
    removed.push(original + prefix.length - at);
    stripped.push(line.slice(prefix.length));
    at += line.length - prefix.length + 1;
    original += line.length + 1;
  }
  // Search output has a prefix on (nearly) every line; a stray match in prose is no reason for a second pass.
  const nonEmpty = lines.filter((line) => line !== '').length;
  return prefixed === 0 || prefixed * 2 < nonEmpty ? undefined : { stripped: stripped.join('\n'), starts, removed };
}

function findInSearchOutput(text: string): SecretFinding[] {
  const view = withoutSearchPrefixes(text);
  if (view === undefined) return [];
  const { stripped, starts, removed } = view;
  const toOriginal = (position: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return position + removed[low]!;
  };
  return [...findInPlainText(stripped), ...findInBase64(stripped)].map((finding) => ({
    ...finding,
    start: toOriginal(finding.start),
    end: toOriginal(finding.end - 1) + 1,
  }));
}

/** The secrets in `text`, in order, not overlapping: each the exact characters of one secret value. */
export function findSecretsIn(text: string): SecretFinding[] {
  if (text.length === 0) return [];
  return merged([...findInPlainText(text), ...findInBase64(text), ...findInSearchOutput(text)]);
}

/** Whether `text` holds a secret: for hiding workspace files by content and dropping environment variables by value. */
export function textHoldsSecret(text: string): boolean {
  return findSecretsIn(text).length > 0;
}

/** `text` with every finding replaced by `marker(what)`; everything around a secret stays as it was. */
export function replaceFindings(
  text: string,
  findings: readonly SecretFinding[],
  marker: (what: string) => string,
): string {
  let result = '';
  let at = 0;
  for (const finding of findings) {
    result += text.slice(at, finding.start) + marker(finding.what);
    at = finding.end;
  }
  return result + text.slice(at);
}
