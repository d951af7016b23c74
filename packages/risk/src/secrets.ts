import { isSecretEnvironmentName } from './knowledge/environment.js';

/**
 * What looks like a secret in text (token formats after gitleaks' and secretlint's rules): used
 * by assessors (a request carrying one is never
 * whitelisted) and by the audit log and transcript (which store it redacted).
 */
export const SECRET_PATTERNS: readonly (readonly [RegExp, string])[] = [
  // PEM and PGP private keys, the whole block (to the end of the text when cut off).
  [
    /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/,
    'a private key',
  ],
  [/PuTTY-User-Key-File-\d[\s\S]*?(?:Private-MAC: *[0-9a-f]+|$)/, 'a private key (PuTTY)'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}/, 'a GitHub token'],
  [/\bglpat-[0-9A-Za-z_-]{20,}/, 'a GitLab token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/, 'a Slack webhook'],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/, 'an API secret key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\bya29\.[0-9A-Za-z_-]{20,}/, 'a Google OAuth token'],
  [/\b(?:sk|rk)_live_[0-9A-Za-z]{16,}/, 'a Stripe live key'],
  [/\bnpm_[A-Za-z0-9]{36}\b/, 'an npm token'],
  [/\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/, 'a PyPI token'],
  [/\bhf_[A-Za-z]{34}\b/, 'a Hugging Face token'],
  [/\bdop_v1_[a-f0-9]{64}\b/, 'a DigitalOcean token'],
  [/\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/, 'a Shopify token'],
  [/\bSG\.[\w-]{22}\.[\w-]{43}\b/, 'a SendGrid key'],
  [/AccountKey=[A-Za-z0-9+/=]{86,88}/, 'an Azure storage key'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, 'a JSON Web Token'],
];

/** Names of the kinds of secret found in the text. */
export function findSecrets(text: string): string[] {
  return SECRET_PATTERNS.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
}

/** Keys whose values are secrets whatever they look like. */
export const SECRET_KEY_NAMES =
  /^(password|passwd|pwd|secret|client_secret|token|access_token|refresh_token|api_?key|apikey|authorization|proxy-authorization|cookie|x-api-key|x-auth-token)$/i;

/** SECRET_PATTERNS as global expressions, compiled once (compiling them per string cost the audit ~0.05 ms a line). */
const REDACTIONS: readonly (readonly [RegExp, string])[] = SECRET_PATTERNS.map(([pattern, what]) => [
  new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`),
  `[redacted: ${what}]`,
]);

/**
 * Any of SECRET_PATTERNS, in one pass: most text holds none, and one scan answers that (twenty
 * scans, one per pattern, were most of an audit line's cost). Where none matches, no replacement
 * could change the text, so skipping them changes nothing.
 */
const ANY_SECRET = new RegExp(SECRET_PATTERNS.map(([pattern]) => `(?:${pattern.source})`).join('|'));

/**
 * A shell assignment (`PGPASSWORD=…`, `export MYSQL_PWD='…'`, `env API_KEY=… cmd`) at the start
 * of a word: its value is a secret when the name is one (the environment table's judgement),
 * whatever the value looks like — a password has no format to recognise. Upper-case names
 * only, as environment variables are written: `token_count=3` in a WHERE clause stays.
 */
const ASSIGNMENT = /(^|[\s;&|(`'"])([A-Z_][A-Z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|)`'"]+)/g;

export function redactSecrets(text: string): string {
  let redacted = text;
  // `replace` with a global expression starts at 0 whatever lastIndex says: sharing them is safe.
  if (ANY_SECRET.test(text))
    for (const [pattern, replacement] of REDACTIONS) redacted = redacted.replace(pattern, replacement);
  if (redacted.includes('='))
    redacted = redacted.replace(ASSIGNMENT, (whole, before: string, name: string) =>
      isSecretEnvironmentName(name) ? `${before}${name}=***` : whole,
    );
  if (!redacted.includes('://')) return redacted;
  // Passwords inside URLs: scheme://user:password@host
  return redacted.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+@/gi, '$1***@');
}

/** A deep copy of a JSON value with secret-named fields and secret-looking strings redacted. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEY_NAMES.test(key) && inner !== null && inner !== undefined && inner !== ''
          ? '***'
          : redactValue(inner),
      ]),
    );
  }
  return value;
}
