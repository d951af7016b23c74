import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Effect, judgeEffects } from '../src/index.js';

/**
 * The fixture of the knowledge-base attack tables: real files (secrets by name and by content,
 * safe look-alikes, pipes, symlinks with harmless names) in a temporary home and workspace.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-kb-')));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
export { home, workspace };
const context = { cwd: workspace, home };
export const expand = (path: string) =>
  path === '~'
    ? home
    : path.startsWith('~/')
      ? join(home, path.slice(2))
      : path.startsWith('/')
        ? path
        : join(workspace, path);
export const judge = (effect: Effect) => judgeEffects([effect], context);
export const read = (path: string, extra: Partial<Effect> = {}) =>
  judge({ kind: 'read-path', path: expand(path), ...extra } as Effect);

// Built from parts so that this source file is not itself a secret to a recursive read of the repository.
const AGE = ['AGE', 'SECRET', 'KEY'].join('-');
const PUTTY = ['PuTTY', 'User', 'Key', 'File'].join('-');
const AWS_SECRET = ['aws', 'secret', 'access', 'key'].join('_');
const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW'.repeat(3)}\n-----END OPENSSH PRIVATE KEY-----\n`;
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun'.repeat(3)}\n-----END RSA PRIVATE KEY-----\n`;
const ENCRYPTED_KEY = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRge'.repeat(3)}\n-----END RSA PRIVATE KEY-----\n`;
const PGP_KEY = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${'lQOYBF0000000BCAC9nq8n2pJ1c1xvJ5Z1X2tGQG6bX0q1p8Yk7e'.repeat(3)}\n-----END PGP PRIVATE KEY BLOCK-----\n`;
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ'.repeat(3)}\n-----END CERTIFICATE-----\n`;
const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  project_id: 'p',
  private_key_id: 'abc',
  private_key: RSA_KEY.replace('RSA ', ''),
  client_email: 'x@p.iam.gserviceaccount.com',
});

/** Files created before the tables run: path (as written in the rows) → content. */
const FILES: Record<string, string> = {
  '~/.bash_history': 'mysql -p hunter2\n',
  '~/.zsh_history': ': 1:0;export TOKEN=x\n',
  '~/.histfile': 'ls\n',
  '~/.local/share/fish/fish_history': '- cmd: ls\n',
  '~/.config/fish/fish_history': '- cmd: ls\n',
  '~/.psql_history': 'select 1;\n',
  '~/.mysql_history': 'show databases;\n',
  '~/.sqlite_history': '.tables\n',
  '~/.python_history': 'import os\n',
  '~/.node_repl_history': 'process.env\n',
  '~/.rediscli_history': 'AUTH secret\n',
  '~/.lesshst': '.less-history-file:\n',
  '~/.mongosh/mongosh_repl_history': 'db.auth()\n',
  '~/.config/gh/hosts.yml': 'github.com:\n  oauth_token: gho_x\n',
  '~/.vault-token': 'hvs.x\n',
  '~/.terraform.d/credentials.tfrc.json': '{}\n',
  '~/.terraformrc': 'credentials "app.terraform.io" {}\n',
  '~/.cargo/credentials.toml': '[registry]\ntoken = "x"\n',
  '~/.cargo/credentials': '[registry]\ntoken = "x"\n',
  '~/.gem/credentials': ':rubygems_api_key: x\n',
  '~/.local/share/gem/credentials': ':rubygems_api_key: x\n',
  '~/.pulumi/credentials.json': '{}\n',
  '~/.databrickscfg': '[DEFAULT]\ntoken = x\n',
  '~/.s3cfg': '[default]\nsecret_key = x\n',
  '~/.boto': '[Credentials]\n',
  '~/.config/rclone/rclone.conf': '[remote]\npass = x\n',
  '~/.m2/settings.xml': '<settings><servers><server><password>x</password></server></servers></settings>\n',
  '~/.m2/settings-security.xml': '<settingsSecurity/>\n',
  '~/.config/doctl/config.yaml': 'access-token: x\n',
  '~/.config/hub': 'github.com:\n',
  '~/.docker/config.json': '{"auths":{}}\n',
  '~/.config/containers/auth.json': '{"auths":{}}\n',
  '~/.kube/config': 'apiVersion: v1\n',
  '~/.config/gcloud/application_default_credentials.json': '{}\n',
  '~/.azure/msal_token_cache.json': '{}\n',
  '~/.netrc': 'machine x login y password z\n',
  '~/.git-credentials': 'https://u:p@github.com\n',
  '~/.config/git/credentials': 'https://u:p@github.com\n',
  '~/.pgpass': 'localhost:5432:*:u:p\n',
  '~/.pg_service.conf': '[shop]\nhost=db\npassword=x\n',
  '~/.my.cnf': '[client]\npassword=x\n',
  '~/.composer/auth.json': '{}\n',
  '~/.config/composer/auth.json': '{}\n',
  '~/.gradle/gradle.properties': 'signing.password=x\n',
  '~/.ivy2/.credentials': 'password=x\n',
  '~/.sbt/.credentials': 'password=x\n',
  '~/.config/sops/age/keys.txt': `${AGE}-1${'Q'.repeat(58)}\n`,
  '~/.config/ngrok/ngrok.yml': 'authtoken: x\n',
  '~/.fly/config.yml': 'access_token: x\n',
  '~/.config/configstore/firebase-tools.json': '{"tokens":{}}\n',
  '~/.wrangler/config/default.toml': 'oauth_token = "x"\n',
  '~/.config/hcloud/cli.toml': 'token = "x"\n',
  '~/.circleci/cli.yml': 'token: x\n',
  '~/.npmrc': '//registry.npmjs.org/:_authToken=npm_x\n',
  '~/.pypirc': '[pypi]\npassword = x\n',
  '~/.snowsql/config': 'password = x\n',
  '~/.dbt/profiles.yml': 'password: x\n',
  '~/.mc/config.json': '{"aliases":{}}\n',
  '~/.password-store/email.gpg': 'x',
  '~/.gnupg/private-keys-v1.d/x.key': 'x',
  '~/.config/riskgate/config.json': '{"apiKey":"sk-x"}\n',
  '~/.config/filezilla/sitemanager.xml': '<Pass>x</Pass>\n',
  '~/.vault_pass.txt': 'x\n',
  '.envrc': 'export DATABASE_URL=postgres://u:p@db/app\n',
  '.env': 'A=1\n',
  '.env.local': 'A=1\n',
  '.env.production': 'A=1\n',
  'config/prod.env': 'A=1\n',
  'deploy/terraform.tfstate': '{}\n',
  'deploy/prod.tfvars': 'db_password = "x"\n',
  'config/master.key': 'abc\n',
  'certs/server.key': 'x\n',
  'certs/tls.pem': RSA_KEY,
  'certs/store.p12': 'x',
  'keys/id_rsa': OPENSSH_KEY,
  'keys/id_ed25519': OPENSSH_KEY,
  'keys/id_ecdsa_sk': OPENSSH_KEY,
  'backup.txt': OPENSSH_KEY,
  'notes.md': `# Notes\nHere is the deploy key, keep it safe:\n\n${RSA_KEY}`,
  'late-key.md': `${'filler line that is not a secret\n'.repeat(400)}${OPENSSH_KEY}`,
  'old.txt': ENCRYPTED_KEY,
  'short.txt': `-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n`,
  'pgp.asc': PGP_KEY,
  'putty.txt': `${PUTTY}-3: ssh-ed25519\nEncryption: none\n`,
  'gcp-key.json': SERVICE_ACCOUNT,
  'my-project-service-account.json': '{}\n',
  'krb5.keytab': '\x05\x02x',
  'secrets.yaml': 'a: b\n',
  'wg0.conf': '[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n',
  'aws.ini': `[default]\naws_access_key_id = ${'AKIA'}IOSFODNN7EXAMPLE\n${AWS_SECRET} = ${'wJalrXUtnFEMI/K7MDENG'}/bPxRfiCYEXAMPLEKEY\n`,
  '.htpasswd': 'u:$apr1$x\n',
  'db.kdbx': 'x',
  '.git-credentials': 'https://u:p@github.com\n',
  '.pgpass': 'x\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npm_x\n',
  '.docker/config.json': '{"auths":{"r":{"auth":"eA=="}}}\n',
  'settings.xml': '<settings><password>x</password></settings>\n',
  // Safe files
  'README.md': '# Demo\nTo sign, create a PRIVATE KEY with ssh-keygen and never commit it.\n',
  'docs/example.md': 'A key looks like:\n\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n',
  'docs/tls.md': 'Paste the block that starts with `-----BEGIN PRIVATE KEY-----` into the box.\n',
  'package.json': '{"name":"demo"}\n',
  'tsconfig.json': '{}\n',
  'src/index.ts': 'export {};\n',
  'src/keys.ts': 'export const keys = [];\n',
  'src/credentials/index.ts': 'export const login = () => {};\n',
  'src/secret-santa.ts': 'export {};\n',
  '.env.example': 'API_KEY=\n',
  '.env.sample': 'API_KEY=\n',
  '.env.template': 'API_KEY=\n',
  'plain/.npmrc': 'save-exact=true\n',
  'plain/settings.xml': '<settings><mirrors/></settings>\n',
  'plain/.docker/config.json': '{"credsStore":"desktop"}\n',
  'certs/ca.pem': CERTIFICATE,
  'certs/ca.crt': CERTIFICATE,
  'keys/id_rsa.pub': 'ssh-ed25519 AAAA x@y\n',
  '.gitignore': '.env\n',
  '.github/workflows/ci.yml': 'on: push\n',
  'Cargo.toml': '[package]\n',
  'docs/credentials.md': '# How credentials work\n',
  'tokenizer.py': 'import re\n',
  '~/notes/todo.txt': 'buy milk\n',
  '~/backup/old-laptop.bak': OPENSSH_KEY,
  '~/.ssh-notes.txt': 'nothing\n',
  // Private by default (home outside the workspace) although nothing names them.
  '~/.msmtprc': 'account default\nhost smtp.example.com\nuser dev\npassword Sm7p-s3cret\n',
  '~/.config/psi/profiles/default/accounts.xml': '<accounts><password>p1</password></accounts>\n',
  '~/other-project/README.md': '# another checkout\n',
  // On the allowlist: hold no secrets.
  '~/.ssh/id_rsa.pub': 'ssh-ed25519 AAAA dev@laptop\n',
  '~/.ssh/known_hosts': 'github.com ssh-ed25519 AAAA\n',
  '~/.cargo/bin/rg': '#!/bin/sh\n',
};

/** Creates the files before the tests of the calling file, removes them after. */
export function useKnowledgeFixture(): void {
  beforeAll(() => {
    for (const [path, content] of Object.entries(FILES)) {
      const full = expand(path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content, 'latin1');
    }
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), OPENSSH_KEY);
    writeFileSync(join(home, '.ssh', 'id_ed25519'), OPENSSH_KEY);
    mkdirSync(join(home, '.aws'), { recursive: true });
    writeFileSync(join(home, '.aws', 'credentials'), '[default]\n');
    mkdirSync(join(workspace, 'pipes'), { recursive: true });
    execFileSync('mkfifo', [join(workspace, 'pipes', 'fifo')]);
    execFileSync('mkfifo', [join(workspace, 'innocent.log')]);
    // Symlinks with harmless names to everything above.
    const links: Record<string, string> = {
      'link-history': join(home, '.bash_history'),
      'link-key.txt': join(home, '.ssh', 'id_rsa'),
      'link-env': join(workspace, '.env'),
      'link-zero': '/dev/zero',
      'link-urandom': '/dev/urandom',
      'link-mem': '/dev/mem',
      'link-disk': '/dev/sda',
      'link-environ': '/proc/self/environ',
      'link-fifo': join(workspace, 'pipes', 'fifo'),
      'link-shadow': '/etc/shadow-',
      'link-secrets': '/run/secrets/db_password',
      'link-dir': join(home, '.aws'),
      'link-safe': join(workspace, 'README.md'),
    };
    for (const [name, target] of Object.entries(links)) symlinkSync(target, join(workspace, name));
    symlinkSync(join(workspace, 'link-key.txt'), join(workspace, 'link-to-link'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
}
