import { isSecretEnvironmentName } from '../knowledge/environment.js';

/**
 * What is not a secret although it stands where one could: identifiers that name a secret
 * (`credentialsId`, `kms_key_id`, `public_key`), placeholders (`${DB_PASSWORD}`, `<your-token>`,
 * `ghp_xxxx…`, `changeme`), settings (`PasswordAuthentication no`, `token_count: 12`), code that
 * fetches a secret (`os.getenv("TOKEN")`, `config.password`) and paths to secret files. Withholding
 * these hides the structure the model needs and measured 30.6% over-blocking before this table.
 */

/** Last words of a name that make it about a secret rather than the secret itself. */
const NOT_THE_SECRET_WORDS = new Set([
  'ID',
  'IDS',
  'NAME',
  'NAMES',
  'PATH',
  'PATHS',
  'FILE',
  'FILES',
  'DIR',
  'TYPE',
  'TYPES',
  'LENGTH',
  'LEN',
  'SIZE',
  'COUNT',
  'URL',
  'URI',
  'URLS',
  'ENDPOINT',
  'HOST',
  'PORT',
  'USER',
  'USERNAME',
  'HEADER',
  'FIELD',
  'PARAM',
  'PREFIX',
  'SUFFIX',
  'FORMAT',
  'REGEX',
  'PATTERN',
  'VERSION',
  'ENABLED',
  'DISABLED',
  'ENABLE',
  'TIMEOUT',
  'TTL',
  'EXPIRY',
  'EXPIRES',
  'EXPIRATION',
  'AT',
  'IN',
  'POLICY',
  'PROVIDER',
  'REF',
  'ARN',
  'LOCATION',
  'MODE',
  'ALGORITHM',
  'ALG',
  'METHOD',
  'SCOPE',
  'SCOPES',
  'KIND',
  'LABEL',
  'HINT',
  'REQUIRED',
  'MIN',
  'MAX',
  'VAR',
  'ENV',
  'INPUT',
  'PLACEHOLDER',
  'DESCRIPTION',
  'HELP',
  'STORE',
  'CLASS',
  'FINGERPRINT',
  'VAULT',
  'STRENGTH',
  'POLICY',
  'RESET',
  'FORGOT',
  'CONFIRM',
  'CONFIRMATION',
  'CHANGED',
  'AUTHENTICATION',
  'LIMIT',
  'LIFETIME',
  'ROTATION',
  'INTERVAL',
  'SECRETS',
  'MANAGER',
  'HANDLER',
  'SERVICE',
  'CLIENT',
  'TABLE',
  'COLUMN',
  'KEYS',
  'KEYRING',
  'KEYSTORE',
  'PAIR',
  'ALIAS',
  'SOURCE',
  'NAMESPACE',
  'ISSUER',
  'AUDIENCE',
  'SUBJECT',
  'EMAIL',
  'LOGIN',
  'ACCOUNT',
  'REGION',
]);

/** Words anywhere in a name that make it public: `public_key`, `publishableKey`, `csrf_token`. */
const PUBLIC_WORDS =
  /(?:^|_)(?:PUBLIC|PUB|PUBLISHABLE|CSRF|XSRF|AUTHENTICITY|ANON|ANONYMOUS|NEXT_PUBLIC|VITE|REACT_APP)(?:_|$)/;

/** `KEY` after these is a lookup key, not a credential: `bucket_key`, `schemaKey`, `sort_key`, `idempotency_key`. */
const LOOKUP_KEY_WORDS = new Set([
  'BUCKET',
  'FOREIGN',
  'PRIMARY',
  'SCHEMA',
  'SEQUENCE',
  'SORT',
  'PARTITION',
  'HASH',
  'RANGE',
  'CACHE',
  'IDX',
  'INDEX',
  'NATURAL',
  'HOT',
  'ROUTING',
  'MAP',
  'DICT',
  'LOOKUP',
  'SHORTCUT',
  'I18N',
  'TRANSLATION',
  'MESSAGE',
  'OBJECT',
  'IDEMPOTENCY',
  'QUERY',
  'UNIQUE',
  'COMPOSITE',
  'SURROGATE',
  'DEDUP',
  'DEDUPLICATION',
  'GROUP',
  'LABEL',
  'META',
  'METADATA',
  'PROPERTY',
  'RESOURCE',
  'ROW',
  'SETTING',
  'CONFIG',
  'STATE',
  'TABLE',
  'COLUMN',
  'FIELD',
  'VALUE',
  'SEARCH',
  'LOCALE',
  'CURSOR',
  'PAGINATION',
  'RATE',
  'LOCK',
  'REDIS',
  'S3',
  'STORAGE_OBJECT',
  'DOCUMENT',
  'ITEM',
  'ENTRY',
  'TOGGLE',
  'FLAG',
  'FEATURE',
]);

/** Secret words other than `KEY`: when `KEY` is the only one, where it stands decides (`KEY_PRESSED` is not a secret). */
function onlyKeyWord(words: readonly string[]): boolean {
  const secretWords = words.filter((word) => isSecretEnvironmentName(word));
  return secretWords.length > 0 && secretWords.every((word) => word === 'KEY' || word === 'KEYS');
}

/** `dbPassword`, `db.password`, `db-password`, `$db_password` → `DB_PASSWORD`. */
export function normaliseName(name: string): string {
  return name
    .replace(/^[$@]+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** Names whose value is a secret: secret words (`isSecretEnvironmentName`) and not an identifier or a public key. */
export function namesSecret(name: string): boolean {
  const normal = normaliseName(name);
  if (normal === '' || !isSecretEnvironmentName(normal)) return false;
  if (PUBLIC_WORDS.test(normal) || /TOKENI[SZ]/.test(normal)) return false;
  const words = normal.split('_');
  // A word after the last secret word that makes it about the secret: `SECRET_MANAGER_PROJECT`, `PASSWORD_RESET_URL`.
  const lastSecret = words.findLastIndex((word) => isSecretEnvironmentName(word));
  if (lastSecret >= 0 && words.slice(lastSecret + 1).some((word) => NOT_THE_SECRET_WORDS.has(word))) return false;
  const last = words[words.length - 1]!;
  // Written together (`APIKEY`, `SECRETKEY`) the words are not split; only a lone `KEY` is weighed.
  if (onlyKeyWord(words) && !SECRET_FRAGMENT_IN_WORDS.test(normal)) {
    if (last !== 'KEY') return false;
    if (words.length > 1 && LOOKUP_KEY_WORDS.has(words[words.length - 2]!)) return false;
  }
  // A whole name that is a word of NOT_THE_SECRET_WORDS (`SECRETS`, `KEYS`) names a collection, not a value.
  return !NOT_THE_SECRET_WORDS.has(last);
}

const SECRET_FRAGMENT_IN_WORDS = /API_KEY|ACCESS_KEY|PRIVATE_KEY|SECRET|TOKEN|PASSW|APIKEY/;

/** Names that say secret only loosely when alone: `"key": "user.name"`, `"session": "abc"`. */
export const AMBIGUOUS_ALONE: ReadonlySet<string> = new Set([
  'KEY',
  'SESSION',
  'SIG',
  'SIGNATURE',
  'CERT',
  'AUTH',
  'PRIVATE',
  'SALT',
  'OTP',
  'PASS',
  'PAT',
  'PW',
]);

/** Words only a placeholder holds: `sha256~XXXX_PUT_YOUR_TOKEN_HERE`, `AKIA…EXAMPLE`, a value cut off with `...`. */
const PLACEHOLDER_INSIDE = /EXAMPLE|YOUR[_-]|[_-]HERE\b|^<|>$|^\{|\}$|\.\.+$|…|\[redacted\]/i;
/**
 * A machine-made token with a run of seven in sequence (`xoxp-1234567890`, `sk-ant-…abcdefg…`) is
 * a documentation example: generated secrets hold one with negligible chance. Not applied to
 * passwords under a name: people do choose `hunter1234567`.
 */
const SEQUENCE = /0123456|1234567|2345678|3456789|abcdefg|bcdefgh|cdefghi/i;

const SETTING_VALUES =
  /^(?:true|false|yes|no|on|off|null|nil|none|undefined|required|optional|enabled|disabled|empty|default|auto|n\/a|low|medium|high|critical)$/i;
/** Words that people write where the real value goes. */
const PLACEHOLDER_WORDS =
  /^(?:change[-_ ]?me|changeit|replace[-_ ]?me|example|sample|dummy|placeholder|redacted|hidden|masked|secret|password|passwd|pass|token|test|testing|foobar|foo|bar|todo|tbd|fixme|insert[-_ ].*|enter[-_ ].*|(?:your|my|the)[-_ ]?(?:[a-z]+[-_ ]?)?(?:key|token|secret|password|pass|pwd)(?:[-_ ]?here)?)$/i;
/** `${VAR}`, `$VAR`, `$(cmd)`, `{{ .Values.x }}`, `%VAR%`, `<your-token>`, `[YOUR_KEY]`, `@VAR@`, `#{x}`, `%(name)s`, `env(X)`. */
const TEMPLATE =
  /^(?:\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\([^)]*\)|\{\{[^}]*\}\}|\$\{\{[^}]*\}\}|%[A-Za-z_]\w*%|<[^<>]*>|\[[A-Za-z _-]*\]|@[A-Za-z_]\w*@|#\{[^}]*\}|%\([\w]+\)s|\{[A-Za-z_]\w*\})$/;
/** Code that fetches a secret rather than the secret: `os.getenv("X")`, `process.env.X`, `config.db.password`. */
const CODE_REFERENCE =
  /^(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*\(.*\)|(?:process\.env|os\.environ|ENV|env|settings|config|self|this|cfg|conf|options|opts|params|args|props|secrets|vars)(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])+)$/;
/** Paths to a secret file are not the secret: `/run/secrets/db`, `./certs/key.pem`, `~/.ssh/id_rsa`. */
/** A token format's prefix alone (`ghp_`, `sk_live_`, `spu-`): what a comment or a check names. */
const TOKEN_PREFIX = /^[A-Za-z]{2,8}(?:[_-][A-Za-z]{2,8}){0,2}[_-]$/;

const PATH_VALUE =
  /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)[-\w./\\]*$|^[\w./-]+\.(?:pem|key|crt|cer|p12|pfx|json|txt|yaml|yml|jks|keystore|gpg|asc)$/;

/**
 * Masked: a run of masking characters (`xxxxxx`, `****`, `####`) or one character eight times
 * (`AIzaaaaaaaa…`, `glc_1111…`). A generated secret holds such a run with negligible chance.
 */
function masked(value: string): boolean {
  return /x{6,}|X{6,}|\*{4,}|#{4,}|•{3,}|(.)\1{7,}/.test(value) || /^(?:x{4,}|X{4,}|\*{3,})$/.test(value);
}

/** A token's value that is a placeholder although its form is a token's: masked, templated, an example. */
export function isPlaceholderToken(value: string): boolean {
  return (
    masked(value) ||
    PLACEHOLDER_INSIDE.test(value) ||
    SEQUENCE.test(value) ||
    TEMPLATE.test(value) ||
    PUBLIC_TOKEN.test(value)
  );
}

/** Tokens that are public by design: Stripe publishable keys, Mapbox public tokens. */
const PUBLIC_TOKEN = /^(?:pk_(?:live|test)_|pk\.ey)/;

/** Prose, not a secret: "Enter your password", "Forgot password?". */
const PROSE = /^[A-Za-z][A-Za-z' ,.?!-]*\s[A-Za-z' ,.?!-]*$/;
const PROSE_WORDS =
  /\b(?:your|the|enter|please|is|are|to|a|an|for|of|not|must|be|with|and|or|new|old|invalid|wrong|required)\b/i;

/** Whether a value standing where a secret could is a placeholder, a setting, a reference or prose. */
export function isPlaceholderValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < 4) return true;
  if (SETTING_VALUES.test(trimmed) || /^-?\d{1,6}(?:\.\d+)?$/.test(trimmed) || /^\d{1,3}(?:_\d{3})+$/.test(trimmed))
    return true;
  // A version or a version range (`pg-connection-string: 2.14.1`, `"^2.9.1"`, `>=1.2.0-rc.1`): a lockfile, not a secret.
  if (/^(?:[~^]|[<>]=?|=)?v?\d{1,5}(?:\.\d{1,5}){1,3}(?:[-+][\w.]{1,30})?$/.test(trimmed)) return true;
  if (
    PLACEHOLDER_WORDS.test(trimmed) ||
    TEMPLATE.test(trimmed) ||
    CODE_REFERENCE.test(trimmed) ||
    PATH_VALUE.test(trimmed) ||
    TOKEN_PREFIX.test(trimmed)
  )
    return true;
  if (/^(.)\1+$/.test(trimmed) || masked(trimmed) || PLACEHOLDER_INSIDE.test(trimmed)) return true;
  // `ACCESS_TOKEN`, `YOUR_API_KEY`: a constant's name where the value goes.
  if (/^[A-Z]+(?:_[A-Z]+)+$/.test(trimmed)) return true;
  // An artifact and its version (`jjwt-jackson-0.11.2`, `org.slf4j:slf4j-api:1.7.8`).
  if (/^[A-Za-z][\w.:-]*[-:]\d+(?:\.\d+)+(?:[-.][A-Za-z]\w*)?$/.test(trimmed)) return true;
  if (trimmed.startsWith('[withheld:') || trimmed.startsWith('[redacted')) return true;
  if (PROSE.test(trimmed) && PROSE_WORDS.test(trimmed)) return true;
  // A value with template references (`${PREFIX}/${ENV}/password`) is composed at run time.
  if (/\$\{[^}]+\}|\{\{[^}]+\}\}/.test(trimmed)) return true;
  return false;
}

/** Looks machine-made: long enough and varied enough that a loosely named field holds a real secret. */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+$/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length;
  return classes >= 2 && /\d/.test(value) && new Set(value).size >= 12;
}
