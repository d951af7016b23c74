import type { SecretFinding } from './types.js';

/**
 * Self-identifying token formats of services that gitleaks' rule set lacks or cuts short, written
 * by riskgate from the formats the providers document (a fixed prefix, then a body of a known
 * length and alphabet). Found missing by measuring the engine against outside test corpora
 * (docs/decisions/0008-secret-engine.md, "Measured against outside corpora"). Each row is
 * anchored on literal prefixes: a text that holds none of them costs one `includes` per
 * prefix, and a rule never runs on text without its prefix. No row is a bare "N random
 * characters": the prefix is what says "secret".
 */
export interface ServiceFormat {
  /** The literal texts a token of the format starts with (the prefilter), case as issued. */
  readonly prefixes: readonly string[];
  /**
   * The whole token, or the URL around it with the secret part as the group `token`; global. A
   * token ends where the body's alphabet ends (boundaries in the pattern).
   */
  readonly pattern: RegExp;
  readonly what: string;
  /** Extra test of the body (a digit in it, mixed case) where the prefix could start an identifier. */
  readonly accept?: (token: string) => boolean;
}

/** A body a generator made: digits and letters both (identifiers like `aio_client_session` have no digit). */
const hasDigitAndLetter = (token: string) => /\d/.test(token) && /[A-Za-z]/.test(token);
const mixedCaseWithDigit = (token: string) => /\d/.test(token) && /[a-z]/.test(token) && /[A-Z]/.test(token);

/** Not preceded by a token character: `xsk_live_…` is not `sk_live_…`. */
const START = '(?<![A-Za-z0-9_.-])';

export const SERVICE_FORMATS: readonly ServiceFormat[] = [
  // The `sk_live_`/`sk_test_` (restricted `rk_…`) secret-key convention of Stripe and services
  // that copy it (Apideck, Checkout.com, Recharge): gitleaks' Stripe rule stops at 99 characters
  // and at `-`; these keys run longer and hold `-` and `_`. Publishable `pk_…` keys are public.
  {
    prefixes: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    pattern: new RegExp(`${START}[sr]k_(?:live|test|prod)_[A-Za-z0-9][A-Za-z0-9_-]{19,}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a secret API key (sk_live_…)',
    // Keys mix cases; `sk_test_parse_header_2` (a test's name) does not.
    accept: mixedCaseWithDigit,
  },
  // OpenAI keys carry `T3BlbkFJ` (base64 of "OpenAI") mid-key. gitleaks' rule knows the current
  // lengths and the first 20+20 form without a scope; the first project keys were
  // `sk-proj-` + 20 + `T3BlbkFJ` + 20, and service-account keys hold a name with `-`.
  {
    prefixes: ['T3BlbkFJ'],
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    what: 'an OpenAI API key',
  },
  // Telegram bot tokens: the bot's numeric id, `:`, and a 35-character secret that starts with `AA`.
  // gitleaks knows them only beside the word "telegram".
  {
    prefixes: [':AA'],
    pattern: /(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
    what: 'a Telegram bot token',
    accept: (token) => /[a-z]/.test(token) && /[A-Z]/.test(token.slice(token.indexOf(':') + 3)),
  },
  // Mailchimp API keys: 32 hex digits and the data centre, `-us1` to `-us99`. gitleaks knows them
  // only beside the word "mailchimp"; the `-usN` suffix is what names them.
  {
    prefixes: ['-us'],
    pattern: /(?<![A-Za-z0-9_-])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9_-])/g,
    what: 'a Mailchimp API key',
  },
  // PyPI API tokens are macaroons: `pypi-AgE` and a long base64url body. gitleaks knows those of
  // pypi.org; test.pypi.org's and other indexes' differ after `AgE`.
  {
    prefixes: ['pypi-AgE'],
    pattern: /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,1000}(?![A-Za-z0-9_-])/g,
    what: 'a PyPI API token',
  },
  // Cloudflare's self-identifying tokens: user API tokens `cfut_`, account tokens `cfat_`, global
  // API keys `cfk_`, each a 40-character body and an 8-hex checksum.
  {
    prefixes: ['cfut_', 'cfat_', 'cfk_'],
    pattern: new RegExp(`${START}cf(?:ut|at|k)_[A-Za-z0-9]{40,60}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Cloudflare API token',
    accept: hasDigitAndLetter,
  },
  // LangSmith (LangChain) keys: `lsv2_pt_` personal, `lsv2_sk_` service; 32 hex, `_`, 10 hex.
  {
    prefixes: ['lsv2_'],
    pattern: new RegExp(`${START}lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a LangSmith API key',
  },
  // Langfuse secret keys: `sk-lf-` and a UUID (the `pk-lf-` public key is not a secret).
  {
    prefixes: ['sk-lf-'],
    pattern: new RegExp(
      `${START}sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9_-])`,
      'g',
    ),
    what: 'a Langfuse secret key',
  },
  // Pinecone API keys: `pcsk_`, a short key id, `_`, a long random body.
  {
    prefixes: ['pcsk_'],
    pattern: new RegExp(`${START}pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Pinecone API key',
    accept: hasDigitAndLetter,
  },
  // Adafruit IO keys: `aio_` and 28 letters and digits (`aio_` alone starts Python identifiers).
  {
    prefixes: ['aio_'],
    pattern: new RegExp(`${START}aio_[A-Za-z0-9]{28}(?![A-Za-z0-9_-])`, 'g'),
    what: 'an Adafruit IO key',
    accept: mixedCaseWithDigit,
  },
  // Apify API tokens start with `apify_api_`, then 36 letters, digits, `-` and `_`.
  {
    prefixes: ['apify_api_'],
    pattern: new RegExp(`${START}apify_api_[A-Za-z0-9_-]{36}(?![A-Za-z0-9_-])`, 'g'),
    what: 'an Apify API token',
    accept: hasDigitAndLetter,
  },
  // Buildkite user API access tokens start with `bkua_`, then 40 lower-case letters and digits.
  {
    prefixes: ['bkua_'],
    pattern: new RegExp(`${START}bkua_[a-z0-9]{40}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Buildkite API token',
    accept: hasDigitAndLetter,
  },
  // Rootly API keys: `rootly_` and 64 hex digits.
  {
    prefixes: ['rootly_'],
    pattern: new RegExp(`${START}rootly_[0-9a-f]{64}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Rootly API key',
  },
  // Bitbucket Data Center HTTP access tokens start with `BBDC-`, then 44 base64 characters.
  {
    prefixes: ['BBDC-'],
    pattern: new RegExp(`${START}BBDC-[A-Za-z0-9+/]{44}(?![A-Za-z0-9+/_-])`, 'g'),
    what: 'a Bitbucket Data Center access token',
    accept: mixedCaseWithDigit,
  },
  // Bitbucket Cloud app passwords start with `ATBB`, then a mixed-case body (Atlassian's self-identifying
  // form); they are used as a password beside a user name, often where no name says "password".
  {
    prefixes: ['ATBB'],
    pattern: new RegExp(`${START}ATBB[A-Za-z0-9_=.-]{24,60}(?![A-Za-z0-9_=.-])`, 'g'),
    what: 'a Bitbucket app password',
    accept: mixedCaseWithDigit,
  },
  // Octopus Deploy API keys: `API-` and 25 to 30 upper-case letters and digits. Not after `/`:
  // a URL's slug (`notion.site/API-<32 hex>`) is a page's name.
  {
    prefixes: ['API-'],
    pattern: /(?<![A-Za-z0-9_./-])API-[A-Z0-9]{25,30}(?![A-Za-z0-9_-])/g,
    what: 'an Octopus Deploy API key',
    accept: (token) => /\d/.test(token.slice(4)) && /[A-Z]/.test(token.slice(4)),
  },
  // Spectral (Check Point) personal tokens start with `spu-`, then 32 hex digits.
  {
    prefixes: ['spu-'],
    pattern: new RegExp(`${START}spu-[0-9a-f]{32}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Spectral API token',
  },
  // Bannerbear API keys: `bb_ma_` (master) / `bb_pr_` (project) and 30 hex digits.
  {
    prefixes: ['bb_'],
    pattern: new RegExp(`${START}bb_(?:ma|pr)_[0-9a-f]{30}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Bannerbear API key',
  },
  // Ramp API client secrets: `ramp_sec_` and 40 or more letters and digits (`ramp_id_` is the public client id).
  {
    prefixes: ['ramp_sec_'],
    pattern: new RegExp(`${START}ramp_sec_[A-Za-z0-9]{40,}(?![A-Za-z0-9_-])`, 'g'),
    what: 'a Ramp client secret',
    accept: hasDigitAndLetter,
  },
  // Discord bot tokens: the bot's numeric id in base64 (17 to 20 digits: `MT…`, `Nz…`, `OD…`), `.`,
  // 6 characters of a timestamp, `.`, 27 to 38 characters of HMAC. No fixed prefix, so a token
  // counts only when its first part decodes to such an id (a JWT's decodes to `{"`).
  {
    prefixes: ['MT', 'Mj', 'Mz', 'ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'],
    pattern:
      /(?<![A-Za-z0-9_.-])(?<id>[MNO][A-Za-z0-9_-]{22,26})\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_.-])/g,
    what: 'a Discord bot token',
    accept: (token) =>
      /^\d{17,20}$/.test(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('latin1')) &&
      hasDigitAndLetter(token.slice(token.lastIndexOf('.') + 1)),
  },
  // Discord webhook URLs: anyone holding one posts to the channel. The secret is the part after
  // the webhook's numeric id (68 base64url characters); the host and id stay readable.
  {
    prefixes: ['discord.com/api/', 'discordapp.com/api/'],
    pattern:
      /discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/\d{17,20}\/(?<token>[A-Za-z0-9_-]{60,80})(?![A-Za-z0-9_-])/g,
    what: 'a Discord webhook token',
    accept: hasDigitAndLetter,
  },
];

const PREFIXES = new RegExp(
  SERVICE_FORMATS.flatMap((format) => format.prefixes)
    .map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join('|'),
  'g',
);

/**
 * Every service-format token in `text`. `isPlaceholder` drops masked and example bodies
 * (`shippo_live_xxxx…`, `sk_live_…EXAMPLE…`), as for gitleaks' rules.
 */
export function findServiceFormats(text: string, isPlaceholder: (token: string) => boolean): SecretFinding[] {
  const found: SecretFinding[] = [];
  const present = new Set<string>();
  // One pass finds which prefixes the text holds (half the cost of an `includes` per prefix).
  PREFIXES.lastIndex = 0;
  for (const match of text.matchAll(PREFIXES)) present.add(match[0]);
  if (present.size === 0) return found;
  for (const format of SERVICE_FORMATS) {
    if (!format.prefixes.some((prefix) => present.has(prefix))) continue;
    format.pattern.lastIndex = 0;
    for (const match of text.matchAll(format.pattern)) {
      // With a `token` group the secret is that part of the match (a webhook URL's last segment).
      const matched = match.groups?.token ?? match[0];
      if (format.accept !== undefined && !format.accept(matched)) continue;
      if (isPlaceholder(matched)) continue;
      const start = match.index + match[0].length - matched.length;
      found.push({ start, end: start + matched.length, what: format.what, rule: 'service-format' });
    }
  }
  return found;
}
