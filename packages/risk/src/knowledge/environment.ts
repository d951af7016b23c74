/**
 * Environment variables whose values are secrets. A name matches when it is listed exactly or
 * one of its `_`-separated words (or the whole name) says secret. Used by the command assessor
 * (`echo $GITHUB_TOKEN`), the output guard and the child-process environment scrubber.
 */

/** Whole names that hold secrets although no word of theirs says so. */
export const SECRET_ENVIRONMENT_NAMES: ReadonlySet<string> = new Set([
  'PGPASSWORD', // PostgreSQL client password
  'PGPASSFILE',
  'PGPASS',
  'SSHPASS', // sshpass -e reads the SSH password from it
  'DBPASS',
  'SONAR_LOGIN', // SonarQube's token
  'GCLOUD_KEYFILE_JSON', // a service-account key's JSON
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
  /(^|_)(TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PWD|PW|PWD_?HASH|PASSPHRASE|PASSCODE|APIKEY|KEY|KEYS|CREDENTIAL|CREDENTIALS|CREDS|AUTH|COOKIE|SESSION|SIGNATURE|SIG|DSN|PRIVATE|CERT|BEARER|OTP|SALT|WEBHOOK|PAT|JWT|PSK)(_|$)/;
/**
 * Whole-name shapes: a password written together with what it opens (`SSHPASS`, `DB_ROOTPASS`,
 * `ORACLEPWD`), bundler's per-host credentials (`BUNDLE_GITHUB__COM=user:token`, the host's dots
 * written `__`), Airflow connections (`AIRFLOW_CONN_MY_DB=postgres://user:pass@…`).
 */
const SECRET_SHAPES =
  /(?:SSH|PG|DB|SQL|SMTP|ROOT|ADMIN|USER|FTP|LDAP|REDIS|MAIL|IMAP|VNC|SUDO|BIND|ORACLE|SA)(?:PASS|PASSWD|PWD|PW)$|^BUNDLE_[A-Z0-9_]*__[A-Z0-9_]+$|^AIRFLOW_CONN_/;
const SECRET_FRAGMENTS =
  /(TOKEN|SECRET|PASSW|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|CONN_?STR|CONNECTION_STRING)/;

export function isSecretEnvironmentName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === 'PWD' || upper === 'OLDPWD') return false; // the working directory, not a password
  if (PUBLIC_ENVIRONMENT_NAMES.has(upper)) return false;
  return (
    SECRET_ENVIRONMENT_NAMES.has(upper) ||
    SECRET_WORDS.test(upper) ||
    SECRET_FRAGMENTS.test(upper) ||
    SECRET_SHAPES.test(upper)
  );
}
