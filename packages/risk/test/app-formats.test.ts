import { describe, expect, it } from 'vitest';
import { contentHoldsSecret, findSecretsIn } from '../src/index.js';

// Credential formats of real applications a red team took past the guard and the content test
// (each reached the model through a whitelisted `cat` or a host reader's process list).
const SECRET = 'Hq3mZ8vX1cB6nL4k';
const SAMPLES: readonly [string, string][] = [
  ['redis.conf requirepass', `bind 127.0.0.1\nrequirepass ${SECRET}\n`],
  ['redis.conf requirepass quoted', `requirepass "${SECRET}"`],
  ['redis.conf masterauth', `masterauth ${SECRET}`],
  ['sentinel auth-pass', `sentinel monitor mymaster 10.0.0.1 6379 2\nsentinel auth-pass mymaster ${SECRET}`],
  ['redis ACL user', `user app on ~* +@all >${SECRET}`],
  ['.pgpass line under another name', `db.example.com:5432:app:app:${SECRET}`],
  ['.pgpass with a wildcard port', `*:*:*:postgres:${SECRET}`],
  ['NetworkManager keyfile', `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${SECRET}\n`],
  ['wpa_supplicant', `network={\n  ssid="home"\n  psk="${SECRET}"\n}`],
  ['hostapd', `wpa_passphrase=${SECRET}`],
  ['fetchmailrc', `poll mail.example.com protocol imap user "bob" password "${SECRET}"`],
  ['lftp bookmark style', `set ftp:password '${SECRET}'`],
  ['sshpass in a script', `sshpass -p '${SECRET}' ssh deploy@host`],
  ['sshpass attached', `sshpass -p${SECRET} scp a b:`],
  ['redis-cli in a process list', `root  1234  0.0 redis-cli -h 10.0.0.2 -a ${SECRET} monitor`],
  ['zip -P', `zip -P ${SECRET} backup.zip db.sql`],
  ['7z -p', `7z a -p${SECRET} backup.7z db.sql`],
  ['openssl pass:', `openssl enc -aes-256-cbc -pass pass:${SECRET} -in a -out b`],
  ['sqlcmd -P', `sqlcmd -S db -U sa -P ${SECRET} -Q "select 1"`],
  ['ldapsearch -w', `ldapsearch -x -D cn=admin,dc=example -w ${SECRET} -b dc=example`],
  ['smbclient -U user%pass', `smbclient //srv/share -U bob%${SECRET}`],
  ['lftp -u user,pass', `lftp -u bob,${SECRET} ftp.example.com`],
  ['htpasswd -b', `htpasswd -bc .htpasswd admin ${SECRET}`],
  ['sqlplus', `sqlplus scott/${SECRET}@ORCL`],
  ['Oracle userid', `userid=scott/${SECRET}`],
  ['ECS/Kubernetes name-value pair', `{"name": "DB_PASSWORD", "value": "${SECRET}"}`],
  ['SSM parameter pair', `{"Key": "smtp_pass", "Value": "${SECRET}"}`],
  ['shadow line', `alice:$6$rounds=5000$abcdefgh$${'A1b2C3d4'.repeat(6)}:19000:0:99999:7:::`],
  ['bcrypt htpasswd', `admin:$2y$10$${'abcdEFGH1234'.repeat(4)}`],
];
const LOOKALIKES = [
  'requirepass', // a comment-less keyword alone
  '# requirepass foobared',
  'root:x:0:0:root:/root:/bin/bash',
  'sudo:x:27:alice',
  '2026-11-28 10:15:30 INFO user logged in',
  'psk=',
  'Enter your password "below" please',
  'zip -r backup.zip src',
  'unzip -p archive.zip README.md',
  '7z a -p archive.7z src',
  'uses: actions/checkout@v4',
  '{"name": "theme", "value": "dark"}',
  'sqlplus /nolog',
  'redis-cli -a "$REDIS_PASSWORD" ping',
  'sshpass -p "$SSHPASS" ssh host',
];

describe('application credential formats', () => {
  it.each(SAMPLES)('%s: the guard withholds the value and the content test hides the file', (_name, text) => {
    const findings = findSecretsIn(text);
    const withheld = findings.map((finding) => text.slice(finding.start, finding.end));
    expect(
      withheld.some((value) => value.includes(SECRET) || SECRET.includes(value) || /\$[0-9a-z]+\$/.test(value)),
    ).toBe(true);
    expect(contentHoldsSecret(text)).toBeDefined();
  });
  it.each(LOOKALIKES)('%s passes', (text) => {
    expect(findSecretsIn(text)).toEqual([]);
    expect(contentHoldsSecret(text)).toBeUndefined();
  });
});

// Secret files encoded whole: `xxd -p key > key.hex`, `xxd key > key.dump`, `base64 .env > env.b64`.
describe('encoded secret files', () => {
  const key = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDxV0mK8Zb2n4y7QpXHk0p4h6Zl5ql9o8pI8pUnfL8x9AAAAJhX2x9xV9sf\n-----END OPENSSH PRIVATE KEY-----\n`;
  const env = 'DB_PASSWORD=Zq7mW2xP9kL4\nSTRIPE_KEY=sk_live_51HqZx2eZvKYlo2C8Q9w3r7T6y5u4i3o2p1\n';
  const xxdDump = (text: string) =>
    Buffer.from(text)
      .toString('hex')
      .match(/.{1,32}/g)!
      .map(
        (line, index) =>
          `${(index * 16).toString(16).padStart(8, '0')}: ${line.match(/.{1,4}/g)!.join(' ')}  ................`,
      )
      .join('\n');
  it.each([
    ['hex of a key', Buffer.from(key).toString('hex')],
    [
      'hex of a key, wrapped like xxd -p',
      Buffer.from(key)
        .toString('hex')
        .match(/.{1,60}/g)!
        .join('\n'),
    ],
    ['an xxd dump of a key', xxdDump(key)],
    ['base64 of an env file', Buffer.from(env).toString('base64')],
    [
      'base64 of a key, wrapped',
      Buffer.from(key)
        .toString('base64')
        .match(/.{1,76}/g)!
        .join('\n'),
    ],
  ])('%s is secret', (_name, text) => {
    expect(contentHoldsSecret(text)).toMatch(/encoded$/);
  });
  it.each([
    ['a sha256 list', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt\n'],
    [
      'hex of prose',
      Buffer.from('The quick brown fox jumps over the lazy dog, twice over, and again.').toString('hex'),
    ],
    [
      'base64 of an image',
      Buffer.from(Array.from({ length: 200 }, (_, index) => (index * 37) % 256)).toString('base64'),
    ],
  ])('%s is not', (_name, text) => {
    expect(contentHoldsSecret(text)).toBeUndefined();
  });
});
