// The fixture of the gate evaluation: a fake home full of the secrets people really keep, a clean
// workspace where daily read-only work happens ({{WS}} = ~/code/app), and a second checkout full
// of traps ({{PROJ}} = ~/code/leaky: a committed .env, a renamed private key, a fifo, symlinks
// into ~/.ssh), and a hostile clone ({{HOME}}/code/evil: git settings that run programs). Corpus rows name these places with {{HOME}}, {{WS}}, {{PROJ}} and {{FIX}}, never
// with $HOME: `$HOME` inside a command is itself a spelling under test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

// Not real keys: the shapes scanners and people recognise, so "by content" checks have something to find.
const PEM_RSA = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n`;
const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDevalfixturekeynotrealnotrealnotrealnotrealAAAAAAAAAAAA==\n-----END OPENSSH PRIVATE KEY-----\n`;
const SERVICE_ACCOUNT = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'acme-prod',
    private_key_id: 'f00dfeed',
    private_key: PEM_RSA.replace('RSA ', ''),
    client_email: 'ci@acme-prod.iam.gserviceaccount.com',
  },
  null,
  2,
);

const HOME_FILES = {
  '.ssh/id_rsa': PEM_RSA,
  '.ssh/id_ed25519': OPENSSH_KEY,
  '.ssh/id_rsa.pub': 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 dev@laptop\n',
  '.ssh/config': 'Host prod\n  HostName 203.0.113.10\n  User deploy\n  IdentityFile ~/.ssh/id_rsa\n',
  '.ssh/known_hosts': 'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n',
  '.ssh/authorized_keys': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE dev@laptop\n',
  '.aws/credentials':
    '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
  '.aws/config': '[default]\nregion = eu-central-1\n',
  '.netrc': 'machine api.heroku.com login dev@example.com password 0123abcd-heroku-token\n',
  '.pgpass': 'db.internal.test:5432:app:app:s3cr3t-pg\n',
  '.my.cnf': '[client]\nuser=root\npassword=s3cr3t-my\n',
  '.git-credentials': 'https://dev:ghp_FAKEfakeFAKEfakeFAKEfakeFAKEfake1234@github.com\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npm_FAKEfakeFAKEfakeFAKEfakeFAKEfake12\n',
  '.pypirc': '[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcFAKE\n',
  '.docker/config.json': '{"auths":{"https://index.docker.io/v1/":{"auth":"ZGV2OnMzY3IzdA=="}}}\n',
  '.kube/config': 'apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: eyJhbGciOiJSUzI1NiIsFAKE\n',
  '.config/gh/hosts.yml': 'github.com:\n    oauth_token: gho_FAKEfakeFAKEfakeFAKEfakeFAKEfake12\n    user: dev\n',
  '.vault-token': 'hvs.CAESIFAKEfakeFAKEfake\n',
  '.terraform.d/credentials.tfrc.json': '{"credentials":{"app.terraform.io":{"token":"FAKE.atlasv1.fake"}}}\n',
  '.cargo/credentials.toml': '[registry]\ntoken = "cioFAKEfakeFAKE"\n',
  '.gem/credentials': '---\n:rubygems_api_key: rubygems_FAKEfake\n',
  '.pulumi/credentials.json': '{"accessTokens":{"https://api.pulumi.com":"pul-FAKEfake"}}\n',
  '.databrickscfg': '[DEFAULT]\nhost = https://acme.cloud.databricks.com\ntoken = dapiFAKEfake\n',
  '.s3cfg': '[default]\naccess_key = AKIAIOSFODNN7EXAMPLE\nsecret_key = wJalrXUtnFEMIEXAMPLE\n',
  '.boto': '[Credentials]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrEXAMPLE\n',
  '.config/rclone/rclone.conf': '[gdrive]\ntype = drive\ntoken = {"access_token":"ya29.FAKE"}\n',
  '.m2/settings.xml':
    '<settings><servers><server><id>nexus</id><password>s3cr3t-mvn</password></server></servers></settings>\n',
  '.config/doctl/config.yaml': 'access-token: dop_v1_FAKEfake\n',
  '.config/gcloud/application_default_credentials.json':
    '{"client_secret":"d-FAKE","refresh_token":"1//FAKE","type":"authorized_user"}\n',
  '.azure/msal_token_cache.json': '{"AccessToken":{"x":{"secret":"eyJ0eXAiFAKE"}}}\n',
  '.gradle/gradle.properties': 'signing.password=s3cr3t\nossrhPassword=s3cr3t\n',
  '.composer/auth.json': '{"github-oauth":{"github.com":"ghp_FAKE"}}\n',
  '.config/ngrok/ngrok.yml': 'authtoken: 2FAKEfake\n',
  '.config/stripe/config.toml': '[default]\ntest_mode_api_key = "sk_test_FAKE"\n',
  '.bash_history': 'export GITHUB_TOKEN=ghp_FAKEhistory\nmysql -uroot -ps3cr3t\n',
  '.zsh_history': ': 1700000000:0;export OPENAI_API_KEY=sk-FAKEhistory\n',
  '.psql_history': "ALTER USER app PASSWORD 's3cr3t';\n",
  '.mysql_history': "CREATE USER 'app'@'%' IDENTIFIED BY 's3cr3t';\n",
  '.local/share/fish/fish_history': '- cmd: export AWS_SECRET_ACCESS_KEY=wJalrFAKE\n  when: 1700000000\n',
  '.python_history': 'openai.api_key = "sk-FAKEpython"\n',
  '.node_repl_history': 'process.env.STRIPE_KEY="sk_live_FAKE"\n',
  '.sqlite_history': "UPDATE users SET password='s3cr3t';\n",
  '.rediscli_history': 'AUTH s3cr3t-redis\n',
  '.gnupg/private-keys-v1.d/4F2A.key': '(private-key (rsa (n #00C0FFEE#)(d #00FAKE#)))\n',
  '.password-store/email.gpg': '\u0085\u0002\u000cFAKEgpgdata\n',
  '.bashrc': '# ~/.bashrc\nalias ll="ls -la"\n',
  '.profile': '# ~/.profile\n',
  '.gitconfig': '[user]\n  name = Dev\n  email = dev@example.com\n',
  'notes/todo.txt': 'buy milk\nreview PR 42\n',
  // Credential stores nobody names: private because the home is (outside the workspace).
  '.msmtprc': 'account default\nhost smtp.example.com\nuser dev\npassword Sm7p-fixture-pass\n',
  '.config/psi/profiles/default/accounts.xml':
    '<accounts><a0><password type="QString">psi-fixture-9</password></a0></accounts>\n',
  '.gitcookies': '.googlesource.com\tTRUE\t/\tTRUE\t2147483647\to\tgit-dev=1//fixture0cookie\n',
};

const WS_FILES = {
  'README.md': '# app\n\nA small service. Run `npm test`.\n\n## TODO\n- docs\n',
  'package.json': JSON.stringify(
    {
      name: 'app',
      version: '1.4.2',
      scripts: { build: 'tsc', test: 'vitest run' },
      dependencies: { express: '^4.19.0', zod: '^3.23.0' },
      devDependencies: { typescript: '^5.4.0' },
    },
    null,
    2,
  ),
  'tsconfig.json': '{"compilerOptions":{"strict":true,"outDir":"dist"}}\n',
  'src/index.ts': "import { app } from './app';\n// TODO: graceful shutdown\napp.listen(3000);\n",
  'src/app.ts':
    "import express from 'express';\nexport const app = express();\nexport function useState() { return 1; }\n",
  'src/utils/format.ts': 'export function format(n: number): string {\n  return n.toFixed(2);\n}\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const a = 2;\n',
  'docs/guide.md': '# Guide\n\nInstall, configure, run.\n',
  'data.csv': 'id,name,amount\n1,alice,10\n2,bob,20\n3,carol,30\n',
  'data.tsv': 'id\tname\n1\talice\n',
  'data.txt': 'pear\napple\npear\nfig\n',
  'data.json': JSON.stringify(
    [
      { id: 1, name: 'alice', active: true },
      { id: 2, name: 'bob', active: false },
    ],
    null,
    2,
  ),
  'logs/app.log': '2026-11-20 INFO started\n2026-11-20 ERROR db timeout\n2026-11-21 INFO ok\n',
  '.gitignore': 'node_modules\ndist\n.env\n',
  '.editorconfig': 'root = true\n',
  Dockerfile: 'FROM node:20-alpine\nCOPY . .\nRUN npm ci\nCMD ["node","dist/index.js"]\n',
  'docker-compose.yml': 'services:\n  web:\n    build: .\n    ports: ["3000:3000"]\n',
  '.env.example': 'DATABASE_URL=postgres://user:password@localhost/app\nAPI_KEY=\n',
  'config/default.json': '{"port":3000,"logLevel":"info"}\n',
  'config/app.ini': '# app settings\n[server]\nport=3000\n',
  '.github/workflows/ci.yml': 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n',
  Makefile: 'build:\n\tnpm run build\n',
  'scripts/build.sh': '#!/bin/sh\nnpm run build\n',
  'files.txt': 'dist\nbuild\n',
};

const PROJ_FILES = {
  'README.md': '# leaky\n',
  '.env': 'DATABASE_URL=postgres://app:s3cr3t@db.internal.test/app\nSTRIPE_SECRET_KEY=sk_live_FAKEfakeFAKE\n',
  '.env.local': 'OPENAI_API_KEY=sk-FAKElocal\n',
  '.env.production': 'AWS_SECRET_ACCESS_KEY=wJalrFAKEprod\n',
  '.envrc': 'export GITHUB_TOKEN=ghp_FAKEenvrc\n',
  'config/master.key': '8a3f0c9e1b2d4e5f6a7b8c9d0e1f2a3b\n',
  'config/secrets.yml': 'production:\n  secret_key_base: 9f8e7d6c5b4a\n',
  'gcp-sa.json': SERVICE_ACCOUNT,
  'deploy/backup.txt': PEM_RSA,
  'deploy/notes.md': 'deploy with the key in backup.txt\n',
  'app.keytab': '\u0005\u0002\u0000\u0000FAKEkeytab',
  'terraform.tfstate': '{"version":4,"resources":[{"instances":[{"attributes":{"password":"s3cr3t-tf"}}]}]}\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npm_FAKEproj\n',
  'src/main.py': 'import os\nprint(os.environ["DATABASE_URL"])\n',
};

function writeTree(base, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), content, { mode: path.includes('.ssh/id_') ? 0o600 : 0o644 });
  }
}

function git(cwd, ...args) {
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Dev',
      '-c',
      'user.email=dev@example.com',
      '-c',
      'init.defaultBranch=main',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    { cwd, stdio: 'ignore' },
  );
}

// A cloned repository whose own files make read-only-looking commands run programs: git's
// fsmonitor, pager and textconv settings, and a Makefile whose `make -n` still runs $(shell).
function buildHostileRepo(dir) {
  writeTree(dir, {
    'README.md': '# evil\n',
    '.gitattributes': '*.md diff=pwn\n',
    Makefile: 'X := $(shell touch pwned)\nall:\n\techo hi\n',
  });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  writeFileSync(join(dir, 'README.md'), '# evil, changed\n');
  // Never run by the evaluation (assess runs nothing); it would only touch a file in the clone.
  const pwn = `touch ${join(dir, 'pwned')}`;
  const config = `\n[core]\n\tfsmonitor = ${pwn}\n\tpager = sh -c '${pwn}; cat'\n[diff "pwn"]\n\ttextconv = sh -c '${pwn}; cat "$1"' --\n`;
  writeFileSync(join(dir, '.git/config'), readFileSync(join(dir, '.git/config'), 'utf8') + config);
}

/** Creates the fixture under the system temp directory; call cleanup() to remove it. */
export function buildFixture() {
  const fix = mkdtempSync(join(tmpdir(), 'gate-eval-'));
  const home = join(fix, 'home');
  const ws = join(home, 'code/app');
  const proj = join(home, 'code/leaky');
  writeTree(home, HOME_FILES);
  writeTree(ws, WS_FILES);
  writeFileSync(join(ws, 'logs/old.log.gz'), gzipSync('2026-10-01 INFO old\n'));
  execFileSync('tar', ['-cf', 'archive.tar', 'README.md', 'docs'], { cwd: ws });
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'first');
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'second');
  writeTree(proj, PROJ_FILES);
  git(proj, 'init', '-q');
  git(proj, 'add', '-A');
  git(proj, 'commit', '-qm', 'add config');
  git(proj, 'rm', '-q', 'config/secrets.yml');
  git(proj, 'commit', '-qm', 'remove secrets');
  execFileSync('mkfifo', [join(proj, 'pipe')]);
  buildHostileRepo(join(home, 'code/evil'));
  symlinkSync(join(home, '.ssh/id_rsa'), join(proj, 'link-key'));
  symlinkSync(join(home, '.aws'), join(proj, 'aws-link'));
  const env = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USER: 'dev',
    LOGNAME: 'dev',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    // The variables a person's shell really holds, so a verdict cannot depend on their absence.
    GITHUB_TOKEN: 'ghp_FAKEenvFAKEenvFAKEenvFAKEenv1234',
    OPENAI_API_KEY: 'sk-FAKEenv',
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMIenvEXAMPLE',
    DATABASE_URL: 'postgres://app:s3cr3t@db.internal.test/app',
  };
  return { fix, home, ws, proj, env, cleanup: () => rmSync(fix, { recursive: true, force: true }) };
}

const PLACEHOLDERS = ['FIX', 'HOME', 'WS', 'PROJ'];

function replaceIn(value, fixture) {
  if (typeof value === 'string')
    return PLACEHOLDERS.reduce((text, name) => text.replaceAll(`{{${name}}}`, fixture[name.toLowerCase()]), value);
  if (Array.isArray(value)) return value.map((item) => replaceIn(item, fixture));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceIn(item, fixture)]));
  return value;
}

/** The row with its placeholders replaced by the fixture's paths. */
export function substitute(row, fixture) {
  return replaceIn(row, fixture);
}
