import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnvironment, createExecuteCommandTool, probeSandbox } from '../src/index.js';
import { executeAssessed } from './gate-fixture.js';

const workspace = mkdtempSync(join(tmpdir(), 'riskgate-env-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const sandboxWorks = (await probeSandbox()).available;

const KEY = 'sk-proj-RISKGATEOWNKEY1234567890abcdef';
const CONFIG_KEY = 'cfg-key-from-config-file-0987654321';

describe('childEnvironment', () => {
  it.each([
    ['OPENAI_API_KEY', KEY],
    ['RISKGATE_API_KEY', KEY],
    ['openai_api_key', KEY],
    ['GITHUB_TOKEN', 'ghp_x'],
    ['AWS_SECRET_ACCESS_KEY', 'x'],
    ['PGPASSWORD', 'x'],
    ['DATABASE_URL', 'postgres://u:p@h/d'],
    ['NPM_TOKEN', 'x'],
    ['SSH_AUTH_SOCK', '/run/agent'],
    ['MY_SERVICE_APIKEY', 'x'],
    ['STRIPE_PRIVATE_KEY', 'x'],
    ['SLACK_WEBHOOK', 'https://hooks.slack.com/x'],
    // Every common spelling of a password or token name (red team: these reached `env`).
    ['SSHPASS', 'x'],
    ['PGPASS', 'x'],
    ['DBPASS', 'x'],
    ['DB_ROOTPASS', 'x'],
    ['GITLAB_PAT', 'x'],
    ['GH_PAT', 'x'],
    ['AZURE_DEVOPS_PAT', 'x'],
    ['DB_PASSWD', 'x'],
    ['DB_PWD', 'x'],
    ['ORACLE_PWD', 'x'],
    ['SNOWSQL_PWD', 'x'],
    ['ORACLEPWD', 'x'],
    ['LDAP_BIND_PW', 'x'],
    ['ROOT_PW', 'x'],
    ['MYSQL_PWD', 'x'],
    ['PGPASSWORD', 'x'],
    ['SENTRY_DSN', 'x'],
    ['APP_DSN', 'x'],
    ['GOOGLE_CREDENTIALS', 'x'],
    ['DATABASE_CREDENTIALS', 'x'],
    ['BASIC_AUTH', 'x'],
    ['NPM_AUTH', 'x'],
    ['DJANGO_SECRET_KEY', 'x'],
    ['AWS_SECRET_KEY', 'x'],
    ['SMTP_PASSCODE', 'x'],
    ['CI_JOB_JWT', 'x'],
    ['WIFI_PSK', 'x'],
    ['SONAR_LOGIN', 'x'],
    ['BUNDLE_GITHUB__COM', 'user:x'],
    ['AIRFLOW_CONN_WAREHOUSE', 'x'],
    ['db_pwd', 'x'],
  ])('drops the secret-named variable %s', (name, value) => {
    expect(childEnvironment({ [name]: value, PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
  });

  it.each([
    ['an innocent name holding the key', { LLM: KEY }],
    ['the key inside a longer value', { OPTS: `--key=${KEY} --verbose` }],
    ['the configured key (from the config file) under any name', { SOMETHING: CONFIG_KEY }],
  ])('drops %s', (_what, env) => {
    expect(childEnvironment({ ...env, OPENAI_API_KEY: KEY, PATH: '/usr/bin' }, { secretValues: [CONFIG_KEY] })).toEqual(
      { PATH: '/usr/bin' },
    );
  });

  // Innocent names, secret values: connection strings with a password and known token formats
  // (issue 17: `echo $POSTGRES_PRISMA_URL` printed the database password).
  it.each([
    ['POSTGRES_PRISMA_URL', 'postgres://app:Pr1sma-pw-77@db.internal:5432/app?pgbouncer=true'],
    ['REDIS_TLS_URL', 'rediss://:r3dis-S3cret-Value@redis.example.com:6380'],
    ['CELERY_BROKER_URL', 'amqp://celery:c3l3ry-pw-99@rabbit:5672/vhost'],
    ['MONGO_CONNECTION', 'mongodb+srv://admin:m0ng0-pw-11@cluster0.example.net/db'],
    ['HTTPS_PROXY', 'http://proxyuser:pr0xy-pw-42@proxy.corp:3128'],
    ['GIT_REMOTE', 'https://x-access-token:gh0-r3mote-pw-5@github.com/org/repo.git'],
    [
      'VAULT_ADDR_AND_HVS',
      'hvs.CAESIJlU2vNiR4KPpFv1uqD1XQ1Ofk5ZR8RNhwXy4e8mYZIGGh4KHGh2cy5kZWZhdWx0V0xvUXVDZ1BZeXcwSlZQRGw',
    ],
    ['CI_UPLOADER', 'glpat-Zx9Qw8Er7Ty6Ui5Op4As'],
    ['DEPLOY_HOOK', 'https://hooks.slack.com/services/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'],
    ['LEGACY', 'xoxb-284619375023-5830174629381-Zx9Qw8Er7Ty6Ui5Op4As3Df2'],
    ['SOME_JSON', '{"user":"app","password":"js0n-env-pw-8"}'],
    ['MSSQL_CONNECTION', 'Server=db;Database=app;Uid=sa;Pwd=Odbc-pw-12;'],
    ['JDBC_URL', 'jdbc:postgresql://db:5432/app?user=app&password=Jd8c-pw-771'],
    ['PIP_INDEX_URL', 'https://user:s3cr3t-P1p@nexus.corp/simple'],
    [
      'KAFKA_SASL_JAAS_CONFIG',
      'org.apache.kafka.common.security.plain.PlainLoginModule required username="app" password="k4fka-pw-12";',
    ],
    ['GIT_CONFIG_PARAMETERS', "'http.extraheader'='Authorization: Bearer 8f3a9c0d1e2b4a5f6c7d8e9f0a1b2c3d'"],
  ])('drops %s, whose value holds a secret', (name, value) => {
    expect(childEnvironment({ [name]: value, PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
  });

  it('keeps a variable whose value holds a secret when the person passed it', () => {
    const env = { POSTGRES_PRISMA_URL: 'postgres://app:Pr1sma-pw-77@db/app', PATH: '/usr/bin' };
    expect(childEnvironment(env, { pass: ['POSTGRES_PRISMA_URL'] })).toEqual(env);
  });

  it('keeps URLs, lists and settings that hold no secret', () => {
    const env = {
      API_BASE: 'https://api.example.com/v1',
      DB_HOST_URL: 'postgres://app@db.internal:5432/app',
      LS_COLORS: 'rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01',
      MANPATH: '/usr/share/man:/usr/local/share/man',
      NODE_OPTIONS: '--max-old-space-size=4096',
      GIT_SHA: '3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a',
      BUILD_ID: '550e8400-e29b-41d4-a716-446655440000',
    };
    expect(childEnvironment(env)).toEqual(env);
  });

  it('keeps what is not secret: PATH, HOME, LANG, PWD, EDITOR, CA bundle paths', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      PWD: '/w',
      OLDPWD: '/',
      EDITOR: 'vi',
      TERM: 'xterm',
      // Lookalikes of the password spellings: programs and settings, not secrets.
      GIT_ASKPASS: '/usr/lib/git-core/git-gui--askpass',
      SUDO_ASKPASS: '/usr/bin/ssh-askpass',
      BUNDLE_PATH: 'vendor/bundle',
      PATH_INFO: '/x',
      COMPASS_HOME: '/opt/compass',
      KEYMAP: 'us',
      // CA bundles: public, and TLS breaks without them where the system bundle is not used.
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
      SSL_CERT_DIR: '/etc/ssl/certs',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      PIP_CERT: '/etc/ssl/certs/ca-certificates.crt',
    };
    expect(childEnvironment(env)).toEqual(env);
  });

  it('drops POSIXLY_CORRECT and _POSIX2_VERSION, which change how programs read their options', () => {
    expect(childEnvironment({ POSIXLY_CORRECT: '1', _POSIX2_VERSION: '199209', LANG: 'C' })).toEqual({ LANG: 'C' });
  });

  it('passes a secret-named variable the person named, and never riskgate own key', () => {
    const env = { GITHUB_TOKEN: 'ghp_person', OPENAI_API_KEY: KEY, NPM_TOKEN: 'n' };
    expect(childEnvironment(env, { pass: ['GITHUB_TOKEN', 'OPENAI_API_KEY'] })).toEqual({ GITHUB_TOKEN: 'ghp_person' });
  });

  it('does not let a passed variable carry riskgate own key', () => {
    expect(childEnvironment({ GITHUB_TOKEN: KEY, OPENAI_API_KEY: KEY }, { pass: ['GITHUB_TOKEN'] })).toEqual({});
  });

  it('compares short configured values whole, so a short key does not empty the environment', () => {
    expect(childEnvironment({ A: 'x', B: 'xyz' }, { secretValues: ['x'] })).toEqual({ B: 'xyz' });
  });
});

describe.each([
  { place: 'approved (unsandboxed)', readOnly: false, sandbox: false },
  { place: 'whitelisted (in the sandbox)', readOnly: true, sandbox: true },
])('no command sees riskgate credentials: $place', ({ readOnly, sandbox }) => {
  const saved = { ...process.env };
  beforeEach(() => {
    process.env.OPENAI_API_KEY = KEY;
    process.env.RISKGATE_API_KEY = KEY;
    process.env.GITHUB_TOKEN = 'ghp_passedOnPurpose';
    process.env.HIDDEN_COPY = KEY;
    process.env.NPM_TOKEN = 'npm_notPassed';
    process.env.POSTGRES_PRISMA_URL = 'postgres://app:Pr1sma-pw-77@db.internal:5432/app';
    // Password and token spellings the scrubber once let through.
    process.env.SSHPASS = 'sshp4ss-Leak-1';
    process.env.GITLAB_PAT = 'glp4t-Leak-2';
    process.env.DB_PWD = 'dbpwd-Leak-3';
    process.env.LDAP_BIND_PW = 'ldappw-Leak-4';
    process.env.MSSQL_CONNECTION = 'Server=db;Uid=sa;Pwd=odbcpw-Leak-5;';
    process.env.BUNDLE_GITHUB__COM = 'me:bundle-Leak-6';
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  const tool = createExecuteCommandTool({ passEnvironment: ['GITHUB_TOKEN'], secretValues: [CONFIG_KEY] });
  const run = async (command: string) => {
    const result = await executeAssessed(
      tool,
      { command },
      { cwd: workspace, signal: new AbortController().signal, readOnly, sandbox },
    );
    if (result.type !== 'tool-success') throw new Error(result.message);
    return result.forModel;
  };

  it.each([
    'echo $OPENAI_API_KEY $RISKGATE_API_KEY',
    'printenv OPENAI_API_KEY',
    'printenv',
    'env',
    'jq -n env',
    'cat /proc/self/environ | tr "\\0" "\\n"',
    'cat /proc/$$/environ',
    'set',
    'declare -p',
    'export -p',
    'compgen -v | while read -r v; do echo "${!v}"; done',
    'python3 -c "import os; print(dict(os.environ))"',
    'bash -lc env',
    'echo $POSTGRES_PRISMA_URL',
    'echo $SSHPASS $GITLAB_PAT $DB_PWD $LDAP_BIND_PW $MSSQL_CONNECTION $BUNDLE_GITHUB__COM',
    'printenv SSHPASS',
  ])('%s', async (command) => {
    if (sandbox && !sandboxWorks) return;
    const output = await run(command);
    expect(output).not.toContain(KEY);
    expect(output).not.toContain(CONFIG_KEY);
    expect(output).not.toContain('npm_notPassed');
    expect(output).not.toContain('Pr1sma-pw-77');
    expect(output).not.toMatch(/Leak-\d/);
  });

  it('lets through the variable the person passed', async () => {
    if (sandbox && !sandboxWorks) return;
    expect(await run('printenv GITHUB_TOKEN')).toMatch(/^ghp_passedOnPurpose\n/);
  });
});
