/**
 * Environment variables whose values are secrets. A name matches when it is listed exactly or
 * one of its `_`-separated words (or the whole name) says secret. Used by the command assessor
 * (`echo $GITHUB_TOKEN`), the output guard and the child-process environment scrubber.
 */

/** Whole names that hold secrets although no word of theirs says so. */
export const SECRET_ENVIRONMENT_NAMES: ReadonlySet<string> = new Set([
  'PGPASSWORD', // PostgreSQL client password
  'PGPASSFILE',
  'MYSQL_PWD', // MySQL client password
  'DATABASE_URL', // connection strings carry passwords
  'REDIS_URL',
  'MONGODB_URI',
  'MONGO_URL',
  'AMQP_URL',
  'SENTRY_DSN',
  'KUBECONFIG',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'SSH_AUTH_SOCK', // access to the SSH agent signs as the person
  'GPG_AGENT_INFO',
  'NETRC',
  'HISTFILE',
  'RISKGATE_BASE_URL',
  'OPENAI_BASE_URL',
]);

/**
 * Names whose words look secret (CERT) but that hold the path of public CA certificates: hiding
 * them from commands would break TLS for curl, pip and git where the system bundle is not used.
 */
export const PUBLIC_ENVIRONMENT_NAMES: ReadonlySet<string> = new Set([
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NIX_SSL_CERT_FILE',
  'PIP_CERT',
  'NODE_EXTRA_CA_CERTS',
  'CLOUDSDK_CORE_CUSTOM_CA_CERTS_FILE',
  'HTTPLIB2_CA_CERTS',
]);

/** Words that make a name secret wherever they stand: AWS_SECRET_ACCESS_KEY, NPM_TOKEN, X_APIKEY. */
const SECRET_WORDS =
  /(^|_)(TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PWD_?HASH|PASSPHRASE|APIKEY|KEY|KEYS|CREDENTIAL|CREDENTIALS|CREDS|AUTH|COOKIE|SESSION|SIGNATURE|SIG|DSN|PRIVATE|CERT|BEARER|OTP|SALT|WEBHOOK)(_|$)/;
const SECRET_FRAGMENTS = /(TOKEN|SECRET|PASSW|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|CONN_?STR|CONNECTION_STRING)/;

export function isSecretEnvironmentName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === 'PWD' || upper === 'OLDPWD') return false; // the working directory, not a password
  if (PUBLIC_ENVIRONMENT_NAMES.has(upper)) return false;
  return SECRET_ENVIRONMENT_NAMES.has(upper) || SECRET_WORDS.test(upper) || SECRET_FRAGMENTS.test(upper);
}
