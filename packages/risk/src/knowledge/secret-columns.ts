/**
 * Database columns (and the keys of key/value tables) whose values are secrets: `password`,
 * `api_key`, `users.otp_secret`, `"refreshToken"`, `settings.key = 'smtp_password'`. Narrower
 * than the environment's names on purpose: a column called `key`, `session_id`, `max_tokens`
 * or `password_changed_at` holds no secret, and asking about every query that names one would
 * make the SQL tool useless. A name is secret when one of its words is a secret word and its
 * last word does not turn it into data about the secret (a time, a count, a kind, a flag).
 */

/** Words that make a column secret: what authenticates (passwords, tokens, keys, seeds). */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'password',
  'passwords',
  'passwd',
  'passwort',
  'passphrase',
  'pwd',
  'pw',
  'pass',
  'secret',
  'secrets',
  'token',
  'apikey',
  'credential',
  'credentials',
  'creds',
  'pin',
  'cvv',
  'cvc',
  'otp',
  'totp',
  'hotp',
  'mnemonic',
  'seed',
  'privkey',
  'salt',
]);

/** Two-word names: `api_key`, `private_key`, `access_key`, `signing_key`, `session_key`. */
const SECRET_PAIRS: ReadonlySet<string> = new Set([
  'api key',
  'private key',
  'access key',
  'secret key',
  'signing key',
  'encryption key',
  'master key',
  'session key',
  'license key',
  'auth key',
  'client secret',
  'app secret',
  'recovery code',
  'recovery codes',
  'backup code',
  'backup codes',
  'seed phrase',
  'connection string',
  'conn str',
  'card number',
  'account number',
  'ssn',
]);

/** Last words that make the name data about a secret, not the secret: `password_changed_at`, `token_count`, `is_secret`. */
const ABOUT_WORDS: ReadonlySet<string> = new Set([
  'at',
  'on',
  'date',
  'time',
  'timestamp',
  'ts',
  'expires',
  'expiry',
  'expiration',
  'ttl',
  'count',
  'counts',
  'len',
  'length',
  'size',
  'type',
  'types',
  'kind',
  'id',
  'ids',
  'uuid',
  'name',
  'names',
  'label',
  'hint',
  'policy',
  'required',
  'enabled',
  'disabled',
  'set',
  'changed',
  'updated',
  'created',
  'reset',
  'version',
  'used',
  'limit',
  'limits',
  'max',
  'min',
  'status',
  'state',
  'attempts',
  'retries',
  'strength',
  'algorithm',
  'algo',
  'scheme',
  'format',
  'prefix',
  'last4',
  'fingerprint',
  'url',
  'uri',
  'path',
  'file',
  'scope',
  'scopes',
  'audience',
  'issuer',
  'provider',
  'description',
]);

/** Leading words that make a name a flag: `is_secret`, `has_password`. */
const FLAG_WORDS: ReadonlySet<string> = new Set([
  'is',
  'has',
  'needs',
  'requires',
  'num',
  'n',
  'max',
  'min',
  'total',
  'input',
  'output',
  'prompt',
  'completion',
]);

/** The name's words, lower-case: `refreshToken` → refresh, token; `"API-Key"` → api, key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether a column (or a key of a key/value table) of this name holds secrets. */
export function isSecretColumnName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  const words = wordsOf(name);
  if (words.length === 0) return false;
  const last = words.at(-1)!;
  if (words.length > 1 && ABOUT_WORDS.has(last)) return false;
  if (FLAG_WORDS.has(words[0]!) && words.length > 1) return false;
  // "pin" and "pass" and "seed" and "salt" alone are too common as other things only with a neighbour.
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (index + 1 < words.length && SECRET_PAIRS.has(`${word} ${words[index + 1]}`)) return true;
    if (SECRET_PAIRS.has(word)) return true;
    if (!SECRET_WORDS.has(word)) continue;
    if ((word === 'pass' || word === 'seed' || word === 'pin' || word === 'salt') && words.length === 1)
      return word !== 'seed';
    return true;
  }
  // passwordhash, apitoken, authtoken, secretkey: one word made of a secret one.
  return /passw|passphrase|secret|apikey|apitoken|authtoken|accesstoken|refreshtoken|privatekey|accesskey|secretkey/.test(
    words.join(''),
  );
}

/**
 * Whether a text value is the name of a credential, as a key of a key/value table stores it
 * (`smtp_password`, `stripe.secret`) or a statement looks one up (`WHERE key = 'api_key'`): a
 * single identifier-like word that `isSecretColumnName` calls secret. Prose and values are not.
 */
export function isSecretKeyName(text: string): boolean {
  return /^[A-Za-z][\w.-]{1,63}$/.test(text) && isSecretColumnName(text);
}
