import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Effect, expandBraces, judgeEffects, patternMayReach } from '../src/index.js';

/**
 * Attack tables for the path knowledge base: real files in a temporary home and workspace,
 * judged as a read (and list, write, pattern, tree) the way every tool reports them.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-kb-')));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
const context = { cwd: workspace, home };
const expand = (path: string) => (path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path.startsWith('/') ? path : join(workspace, path));
const judge = (effect: Effect) => judgeEffects([effect], context);
const read = (path: string, extra: Partial<Effect> = {}) => judge({ kind: 'read-path', path: expand(path), ...extra } as Effect);

// Built from parts so that this source file is not itself a secret to a recursive read of the repository.
const AGE = ['AGE', 'SECRET', 'KEY'].join('-');
const PUTTY = ['PuTTY', 'User', 'Key', 'File'].join('-');
const AWS_SECRET = ['aws', 'secret', 'access', 'key'].join('_');
const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW'.repeat(3)}\n-----END OPENSSH PRIVATE KEY-----\n`;
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun'.repeat(3)}\n-----END RSA PRIVATE KEY-----\n`;
const ENCRYPTED_KEY = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRge'.repeat(3)}\n-----END RSA PRIVATE KEY-----\n`;
const PGP_KEY = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${'lQOYBF0000000BCAC9nq8n2pJ1c1xvJ5Z1X2tGQG6bX0q1p8Yk7e'.repeat(3)}\n-----END PGP PRIVATE KEY BLOCK-----\n`;
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ'.repeat(3)}\n-----END CERTIFICATE-----\n`;
const SERVICE_ACCOUNT = JSON.stringify({ type: 'service_account', project_id: 'p', private_key_id: 'abc', private_key: RSA_KEY.replace('RSA ', ''), client_email: 'x@p.iam.gserviceaccount.com' });

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
};

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

describe('attacks: secret files not on the old list (read is secret, high, with a reason)', () => {
  const rows: [string, RegExp][] = [
    // shell and client histories
    ['~/.bash_history', /history/],
    ['~/.zsh_history', /history/],
    ['~/.histfile', /history/],
    ['~/.local/share/fish/fish_history', /history/],
    ['~/.config/fish/fish_history', /history/],
    ['~/.psql_history', /history/],
    ['~/.mysql_history', /history/],
    ['~/.sqlite_history', /history/],
    ['~/.python_history', /history/],
    ['~/.node_repl_history', /history/],
    ['~/.rediscli_history', /history/],
    ['~/.lesshst', /history/],
    ['~/.mongosh/mongosh_repl_history', /history/],
    ['/root/.bash_history', /root/],
    // CLI tokens
    ['~/.config/gh/hosts.yml', /GitHub/],
    ['~/.vault-token', /Vault/],
    ['~/.terraform.d/credentials.tfrc.json', /Terraform/],
    ['~/.terraformrc', /Terraform/],
    ['~/.cargo/credentials.toml', /crates/],
    ['~/.cargo/credentials', /crates/],
    ['~/.gem/credentials', /RubyGems/],
    ['~/.local/share/gem/credentials', /RubyGems|credentials/],
    ['~/.pulumi/credentials.json', /Pulumi/],
    ['~/.databrickscfg', /Databricks/],
    ['~/.s3cfg', /s3cmd/],
    ['~/.boto', /boto/],
    ['/etc/boto.cfg', /boto/],
    ['~/.config/rclone/rclone.conf', /rclone/],
    ['~/.m2/settings.xml', /Maven/],
    ['~/.m2/settings-security.xml', /Maven/],
    ['~/.config/doctl/config.yaml', /DigitalOcean/],
    ['~/.config/hub', /GitHub/],
    ['~/.docker/config.json', /Docker/],
    ['~/.config/containers/auth.json', /registry/],
    ['~/.kube/config', /Kubernetes/],
    ['~/.config/gcloud/application_default_credentials.json', /Google Cloud/],
    ['~/.azure/msal_token_cache.json', /Azure/],
    ['~/.netrc', /netrc/],
    ['~/.git-credentials', /git passwords/],
    ['~/.config/git/credentials', /git passwords/],
    ['~/.pgpass', /PostgreSQL/],
    ['~/.my.cnf', /MySQL/],
    ['~/.composer/auth.json', /Composer/],
    ['~/.config/composer/auth.json', /Composer/],
    ['~/.gradle/gradle.properties', /Gradle/],
    ['~/.ivy2/.credentials', /credentials/],
    ['~/.sbt/.credentials', /credentials/],
    ['~/.config/sops/age/keys.txt', /age/],
    ['~/.config/ngrok/ngrok.yml', /ngrok/],
    ['~/.fly/config.yml', /Fly/],
    ['~/.config/configstore/firebase-tools.json', /Firebase/],
    ['~/.wrangler/config/default.toml', /Cloudflare/],
    ['~/.config/hcloud/cli.toml', /Hetzner/],
    ['~/.circleci/cli.yml', /CircleCI/],
    ['~/.npmrc', /registry token/],
    ['~/.pypirc', /registry password/],
    ['~/.snowsql/config', /Snowflake/],
    ['~/.dbt/profiles.yml', /dbt/],
    ['~/.mc/config.json', /MinIO/],
    ['~/.password-store/email.gpg', /password store/],
    ['~/.gnupg/private-keys-v1.d/x.key', /GnuPG/],
    ['~/.config/riskgate/config.json', /riskgate/],
    ['~/.config/filezilla/sitemanager.xml', /FileZilla/],
    ['~/.vault_pass.txt', /Ansible/],
    ['~/.ssh/id_rsa', /SSH/],
    ['~/.aws/credentials', /AWS/],
    // project files that hold secrets by convention
    ['.envrc', /direnv/],
    ['.env', /environment file/],
    ['.env.local', /environment file/],
    ['.env.production', /environment file/],
    ['config/prod.env', /environment file/],
    ['deploy/terraform.tfstate', /Terraform state/],
    ['deploy/prod.tfvars', /Terraform variables/],
    ['config/master.key', /key/],
    ['certs/server.key', /key/],
    ['certs/tls.pem', /private key/],
    ['certs/store.p12', /key store/],
    ['keys/id_rsa', /SSH key/],
    ['keys/id_ed25519', /SSH key/],
    ['keys/id_ecdsa_sk', /SSH key/],
    ['my-project-service-account.json', /service-account/],
    ['krb5.keytab', /keytab/],
    ['secrets.yaml', /secrets/],
    ['.htpasswd', /password hashes/],
    ['db.kdbx', /key store/],
    ['.git-credentials', /git passwords/],
    ['.pgpass', /PostgreSQL/],
    ['.npmrc', /registry token/],
    ['.docker/config.json', /Docker/],
    ['settings.xml', /repository passwords/],
    // private keys and credentials by content, whatever the name
    ['backup.txt', /private key \(by its content\)/],
    ['notes.md', /private key \(by its content\)/],
    ['late-key.md', /private key \(by its content\)/],
    ['old.txt', /private key \(by its content\)/],
    ['short.txt', /private key \(by its content\)/],
    ['pgp.asc', /private key \(by its content\)/],
    ['putty.txt', /PuTTY/],
    ['gcp-key.json', /service-account|private key/],
    ['wg0.conf', /WireGuard/],
    ['aws.ini', /AWS credentials/],
    // system secrets
    ['/etc/shadow', /password hashes/],
    ['/etc/shadow-', /password hashes/],
    ['/etc/gshadow', /password hashes/],
    ['/etc/gshadow-', /password hashes/],
    ['/etc/security/opasswd', /password hashes/],
    ['/etc/master.passwd', /password hashes/],
    ['/etc/ssh/ssh_host_ed25519_key', /host keys/],
    ['/etc/ssl/private/ssl-cert-snakeoil.key', /TLS private keys|key/],
    ['/etc/krb5.keytab', /keytab/],
    ['/etc/mysql/debian.cnf', /MySQL/],
    ['/etc/NetworkManager/system-connections/home.nmconnection', /Wi-Fi|network passwords/],
    ['/etc/wireguard/wg0.conf', /WireGuard/],
    ['/etc/ppp/chap-secrets', /PPP/],
    ['/etc/ipsec.secrets', /IPsec/],
    ['/etc/kubernetes/admin.conf', /Kubernetes/],
    ['/etc/rancher/k3s/k3s.yaml', /Kubernetes/],
    ['/var/lib/rancher/k3s/server/token', /Kubernetes|k3s/],
    ['/run/secrets/db_password', /container secrets/],
    ['/run/secrets/kubernetes.io/serviceaccount/token', /secrets/],
    ['/var/run/secrets/kubernetes.io/serviceaccount/token', /secrets/],
    ['/run/credentials/app.service/token', /systemd credentials/],
    ['/tmp/krb5cc_1000', /Kerberos tickets/],
    ['/root/.ssh/id_rsa', /root/],
    // a process's environment and memory
    ['/proc/self/environ', /environment/],
    ['/proc/thread-self/environ', /environment/],
    ['/proc/1/environ', /environment/],
    ['/proc/12345/environ', /environment/],
    ['/proc/self/task/1/environ', /environment/],
    ['/proc/1/task/1/environ', /environment/],
    ['/proc/self/mem', /memory/],
    ['/proc/self/cmdline', /arguments/],
    ['/proc/self/root/etc/shadow', /password hashes/],
    ['/proc/1/root/etc/shadow', /password hashes|root/],
    ['/proc/self/cwd/.env', /environment file/],
    // raw memory and disks
    ['/dev/mem', /physical memory/],
    ['/dev/kmem', /memory/],
    ['/dev/port', /memory|ports/],
    ['/proc/kcore', /kernel memory/],
    ['/dev/sda', /raw disk/],
    ['/dev/sda1', /raw disk/],
    ['/dev/hda', /raw disk/],
    ['/dev/vda', /raw disk/],
    ['/dev/xvda1', /raw disk/],
    ['/dev/nvme0n1', /raw disk/],
    ['/dev/nvme0n1p2', /raw disk/],
    ['/dev/mmcblk0', /raw disk/],
    ['/dev/dm-0', /raw disk/],
    ['/dev/mapper/root', /raw disks/],
    ['/dev/disk/by-uuid/1234', /raw disks/],
    ['/dev/loop0', /raw disk/],
    ['/dev/md0', /raw disk/],
    ['/dev/input/event0', /keystrokes/],
    ['/dev/video0', /camera/],
    ['/dev/watchdog', /watchdog/],
    // symlinks with harmless names (the judge follows them)
    ['link-history', /history/],
    ['link-key.txt', /SSH/],
    ['link-to-link', /SSH/],
    ['link-env', /environment file/],
    ['link-mem', /physical memory/],
    ['link-disk', /raw disk/],
    ['link-environ', /environment/],
    ['link-shadow', /password hashes/],
    ['link-secrets', /container secrets/],
    ['link-dir/credentials', /AWS/],
  ];
  it.each(rows)('read %s', (path, reason) => {
    const judgement = read(path);
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.level).toBe('high');
    expect(judgement.knownDanger).toBe(true);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
  it.each(rows.filter(([path]) => path.startsWith('~/') || path.startsWith('/etc') || path.startsWith('/run')))('a write to %s is high', (path) => {
    expect(judge({ kind: 'write-path', path: expand(path) }).level).toBe('high');
  });
});

describe('attacks: special files (reads that never end, block, or arm hardware)', () => {
  const rows: [string, RegExp][] = [
    ['/dev/zero', /never ends|waits/],
    ['/dev/urandom', /never ends|waits/],
    ['/dev/random', /never ends|waits/],
    ['/dev/full', /never ends|waits/],
    ['/dev/tty', /never ends|waits|terminal/],
    ['/dev/tty1', /terminal/],
    ['/dev/ttyS0', /terminal/],
    ['/dev/console', /never ends|waits/],
    ['/dev/ptmx', /never ends|waits/],
    ['/dev/pts/0', /terminal/],
    ['/dev/stdin', /waits|input|open files/],
    ['/dev/fd/0', /input|open files/],
    ['/proc/self/fd/0', /input|open files/],
    ['/dev/kmsg', /kernel log/],
    ['/proc/kmsg', /kernel log/],
    ['pipes/fifo', /named pipe/],
    ['innocent.log', /named pipe/],
    ['link-fifo', /named pipe/],
    ['link-zero', /never ends|waits/],
    ['link-urandom', /never ends|waits/],
  ];
  it.each(rows)('read %s is not whitelisted', (path, reason) => {
    const judgement = read(path);
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.knownDanger).toBe(true);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
});

describe('attacks: patterns that may reach a secret', () => {
  const rows: [string, RegExp][] = [
    ['~/.ss?/id_*', /SSH/],
    ['~/.ssh/id_*', /SSH/],
    ['~/.ssh/*', /SSH/],
    ['~/.[s]sh/id_rsa', /SSH/],
    ['~/.*/credentials', /AWS|credentials/],
    ['~/.a*/*', /AWS/],
    ['~/.*_history', /history/],
    ['~/.*hist*', /history/],
    ['~/.config/*/hosts.yml', /GitHub/],
    ['/proc/*/environ', /environment/],
    ['/proc/[0-9]*/environ', /environment/],
    ['/proc/*/task/*/environ', /environment/],
    ['/etc/shadow*', /password hashes/],
    ['/etc/*shadow*', /password hashes/],
    ['/etc/ssh/*key', /host keys/],
    ['/dev/sd?', /raw disk/],
    ['/dev/nvme*', /raw disk/],
    ['/run/secrets/*', /container secrets/],
    ['.env*', /environment file/],
    ['certs/*.pem', /private key/],
    ['*.txt', /private key/],
    ['keys/*', /SSH key|key/],
    ['*', /private key|AWS|key/],
  ];
  it.each(rows)('read %s', (pattern, reason) => {
    const judgement = read(pattern, { pattern: true });
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
});

describe('attacks: recursive reads of trees that hold secrets', () => {
  const rows: [string, boolean, RegExp][] = [
    ['~', false, /SSH|AWS|history/],
    ['~', true, /private key \(by its content/],
    ['.', false, /environment file|private key/],
    ['.', true, /private key|named pipe|AWS credentials/],
    ['keys', true, /SSH key|private key/],
    ['pipes', false, /named pipe/],
    ['/etc', false, /boto|password hashes|host keys|sudo/],
    ['/run', false, /secrets|credentials/],
    ['/proc', false, /environment|memory/],
    ['/', true, /boto|password hashes|memory|environment/],
  ];
  it.each(rows)('recursive read of %s (skips hidden: %s)', (path, skipsHidden, reason) => {
    const judgement = read(path, { recursive: true, skipsHidden });
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
  it('a list of a secret directory asks', () => {
    for (const path of ['~/.ssh', '~/.aws', '~/.gnupg', '/run/secrets', 'link-dir']) {
      expect(judge({ kind: 'list-path', path: expand(path) }).whitelisted, path).toBe(false);
    }
  });
});

describe('safe: ordinary reads stay whitelisted', () => {
  const rows: string[] = [
    'README.md',
    'docs/tls.md',
    'docs/example.md',
    'package.json',
    'tsconfig.json',
    'src/index.ts',
    'src/keys.ts',
    'src/credentials/index.ts',
    'src/secret-santa.ts',
    '.env.example',
    '.env.sample',
    '.env.template',
    'plain/.npmrc',
    'plain/settings.xml',
    'plain/.docker/config.json',
    'certs/ca.pem',
    'certs/ca.crt',
    'keys/id_rsa.pub',
    '.gitignore',
    '.github/workflows/ci.yml',
    'Cargo.toml',
    'docs/credentials.md',
    'tokenizer.py',
    'link-safe',
    'missing-file.txt',
    '~/notes/todo.txt',
    '~/.ssh-notes.txt',
    '/etc/hosts',
    '/etc/os-release',
    '/etc/passwd',
    '/etc/hostname',
    '/etc/resolv.conf',
    '/etc/group',
    '/proc/cpuinfo',
    '/proc/meminfo',
    '/proc/version',
    '/proc/loadavg',
    '/proc/self/status',
    '/dev/null',
  ];
  it.each(rows)('read %s', (path) => {
    const judgement = read(path);
    expect(judgement.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^only reads/)]));
    expect(judgement.whitelisted).toBe(true);
  });
  it.each(['src', 'docs', 'certs', '.', '~/notes'])('list %s', (path) => {
    expect(judge({ kind: 'list-path', path: expand(path) }).whitelisted).toBe(true);
  });
  it.each(['src/*.ts', 'docs/*', 'docs/*.md', 'plain/*', '~/notes/*', '/etc/host*', '/proc/cpu*'])('pattern %s', (pattern) => {
    expect(read(pattern, { pattern: true }).whitelisted).toBe(true);
  });
  it.each(['src', 'docs'])('recursive read of %s', (path) => {
    expect(read(path, { recursive: true }).whitelisted).toBe(true);
  });
});

describe('patternMayReach: could a bash glob name a path the table lists?', () => {
  const H = '/home/u';
  const rows: [string, string | null][] = [
    ['/home/u/.ss?/id_*', 'SSH'],
    ['/home/u/.ssh/*', 'SSH'],
    ['/home/u/.s*', 'SSH'],
    ['/home/u/.*', 'SSH'],
    ['/home/u/.[a-z]sh/config', 'SSH'],
    ['/home/u/.*/credentials', 'AWS'],
    ['/home/u/.a?s/config', 'AWS'],
    ['/home/u/.config/*/hosts.yml', 'GitHub'],
    ['/home/u/.config/g*', 'Google Cloud'],
    ['/home/u/.local/share/fish/fish_*', 'history'],
    ['/home/u/.local/share/fish/*', 'history'],
    ['/proc/*/environ', 'environment'],
    ['/proc/[0-9]*/environ', 'environment'],
    ['/proc/self/task/*/environ', 'environment'],
    ['/proc/*/root/etc/passwd', 'root'],
    ['/etc/shad*', 'password hashes'],
    ['/etc/*shadow*', 'password hashes'],
    ['/etc/ssh/ssh_host_*', 'host keys'],
    ['/run/secrets/*', 'container secrets'],
    ['/var/run/secrets/*/*/token', 'Kubernetes'],
    ['/dev/sd?', 'raw disk'],
    ['/dev/nvme*', 'raw disk'],
    ['/dev/m?m', 'physical memory'],
    ['/*/shadow', 'password hashes'],
    ['/ro*/.ssh', 'root'],
    // bash's `*` does not match a leading dot: these cannot reach dotfiles
    ['/home/u/*/credentials', null],
    ['/home/u/*', null],
    ['/home/u/notes/*', null],
    ['/etc/host*', null],
    ['/etc/os-*', null],
    ['/proc/cpu*', null],
    ['/proc/self/stat*', null],
    ['/usr/share/doc/*', null],
    ['/dev/null*', null],
  ];
  it.each(rows)('%s → %s', (pattern, what) => {
    const facts = patternMayReach(pattern, { home: H }).filter((fact) => fact.class !== 'machine');
    if (what === null) expect(facts).toEqual([]);
    else expect(facts.map((fact) => fact.what).join('; ')).toMatch(new RegExp(what));
  });

  it('expands brace groups that hold a slash into whole rows', () => {
    expect(expandBraces('~/.{a,b/c}/x')).toEqual(['~/.a/x', '~/.b/c/x']);
    expect(expandBraces('/etc/{shadow,gshadow}{,-}')).toEqual(['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-']);
    expect(expandBraces('.env.!(example|sample)')).toEqual(['.env.!(example|sample)']);
  });
});
