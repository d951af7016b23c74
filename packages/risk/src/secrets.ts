/**
 * What looks like a secret in text: used by assessors (a request carrying one is never
 * whitelisted) and by the audit log and transcript (which store it redacted).
 */
export const SECRET_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/, 'a private key'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}/, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/, 'an API secret key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\b(?:sk|rk)_live_[0-9A-Za-z]{16,}/, 'a Stripe live key'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, 'a JSON Web Token'],
];

/** Names of the kinds of secret found in the text. */
export function findSecrets(text: string): string[] {
  return SECRET_PATTERNS.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
}

/** Keys whose values are secrets whatever they look like. */
export const SECRET_KEY_NAMES = /^(password|passwd|pwd|secret|client_secret|token|access_token|refresh_token|api_?key|apikey|authorization|proxy-authorization|cookie|x-api-key|x-auth-token)$/i;

export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, what] of SECRET_PATTERNS) {
    redacted = redacted.replace(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), `[redacted: ${what}]`);
  }
  // Passwords inside URLs: scheme://user:password@host
  return redacted.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+@/gi, '$1***@');
}

/** A deep copy of a JSON value with secret-named fields and secret-looking strings redacted. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_KEY_NAMES.test(key) && inner !== null && inner !== undefined && inner !== '' ? '***' : redactValue(inner)]),
    );
  }
  return value;
}
