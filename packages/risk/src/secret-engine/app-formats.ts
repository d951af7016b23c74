import { isPlaceholderValue, namesSecret } from './placeholders.js';

/**
 * Credential formats of real applications that neither token scanners nor the `NAME=value` rules
 * see, because the secret stands after a keyword, an option letter or a field position: Redis'
 * `requirepass`, `.pgpass` lines, Wi-Fi `psk=`, `sshpass -p`, `redis-cli -a`, `zip -P`, openssl
 * `pass:`, Oracle `scott/tiger@ORCL`, `{"name": "db_pass", "value": …}` pairs, crypt(3) hashes.
 * Found by a red team in files and command lines that reached the model (issue 17). One list for
 * the output guard (context-rules.ts) and the workspace's content test (content-secret.ts), so a
 * file the guard would withhold from is also hidden and asked.
 */
export interface AppFormat {
  /** The value is the named group `value`; patterns are global. */
  readonly pattern: RegExp;
  readonly what: string;
  /** Extra test of the match (the name beside the value says secret). */
  readonly accept?: (groups: Record<string, string | undefined>) => boolean;
}

export const APP_FORMATS: readonly AppFormat[] = [
  // Redis: `requirepass …`, `masterauth …` (redis.conf), `sentinel auth-pass mymaster …`, ACL `user bob on >pw`.
  {
    pattern: /^[ \t]*(?:requirepass|masterauth|masteruser-password)[ \t]+["']?(?<value>[^\s"'#]+)/gim,
    what: 'a Redis password',
  },
  { pattern: /^[ \t]*sentinel[ \t]+auth-pass[ \t]+\S+[ \t]+["']?(?<value>[^\s"'#]+)/gim, what: 'a Redis password' },
  { pattern: /^[ \t]*user[ \t]+\S+(?:[ \t]+\S+)*?[ \t]+>(?<value>[^\s]{4,})/gim, what: 'a Redis ACL password' },
  // PostgreSQL's password file, whatever its name: `host:port:database:user:password` lines.
  // Host, database and user are plain words (no `/`, `=`: URLs, paths and `grep -n` prefixes are not lines of it).
  {
    pattern: /^(?![#\s])[\w.*-]+:(?:\d{1,5}|\*):[\w.*$-]+:[\w.*@$-]+:(?<value>\S+)$/gm,
    what: 'a password in a .pgpass line',
  },
  // Wi-Fi: NetworkManager keyfiles `psk=…`, `wep-key0=…`, wpa_supplicant `psk="…"`, hostapd `wpa_passphrase=…`.
  {
    pattern:
      /^[ \t]*(?:psk|wep-key\d|wpa_passphrase|sae_password|leap-password|password-raw)[ \t]*=[ \t]*["']?(?<value>[^\s"']{4,})/gim,
    what: 'a Wi-Fi key',
  },
  // `password "…"` after any words (fetchmailrc `poll … user "bob" password "…"`, lftp bookmarks): quoted, so prose passes.
  {
    pattern: /(?<![\w-])(?:password|passwd|pass|passphrase)[ \t]+(?<q>["'])(?<value>[^"'\s]{4,})\k<q>/gi,
    what: 'a saved password',
    // A word in quotes after "password" in prose ("type your password "below"") is no credential.
    accept: (groups) => /[\d\W_]/.test(groups.value ?? '') || (groups.value ?? '').length >= 12,
  },
  // Command lines of clients that take a password as an option letter.
  {
    pattern: /(?<![\w-])sshpass\b[^\n]*?[ \t]-p[ \t]*["']?(?<value>[^\s"']{3,})/g,
    what: 'a password in a command line',
  },
  {
    pattern: /(?<![\w-])(?:redis-cli|keydb-cli|valkey-cli)\b[^\n]*?[ \t](?:-a|--pass)[ \t]+["']?(?<value>[^\s"']{3,})/g,
    what: 'a password in a command line',
  },
  {
    pattern: /(?<![\w-])(?:zip|unzip|7z|7za|rar|unrar)\b[^\n]*?[ \t](?:-P[ \t]*|-p)["']?(?<value>[^\s"'-][^\s"']{2,})/g,
    what: 'an archive password in a command line',
  },
  {
    pattern: /(?<![\w-])-(?:pass|passin|passout|password|k)[ \t]+["']?(?:pass:)(?<value>[^\s"']{3,})/g,
    what: 'a password in an openssl command line',
  },
  {
    pattern: /(?<![\w-])(?:sqlcmd|bcp|osql|isql)\b[^\n]*?[ \t]-P[ \t]*["']?(?<value>[^\s"'-][^\s"']{2,})/g,
    what: 'a password in a command line',
  },
  {
    pattern:
      /(?<![\w-])(?:ldapsearch|ldapmodify|ldapadd|ldapdelete|ldappasswd|ldapwhoami)\b[^\n]*?[ \t]-w[ \t]*["']?(?<value>[^\s"'-][^\s"']{2,})/g,
    what: 'a password in a command line',
  },
  {
    pattern: /(?<![\w-])smbclient\b[^\n]*?(?:-U|--user)[ \t=]*["']?[^\s%"']+%(?<value>[^\s"']{3,})/g,
    what: 'a password in a command line',
  },
  {
    pattern: /(?<![\w-])lftp\b[^\n]*?[ \t]-u[ \t]*["']?[^\s,"']+,(?<value>[^\s"']{3,})/g,
    what: 'a password in a command line',
  },
  {
    pattern: /(?<![\w-])htpasswd\b[^\n]*?[ \t]-\w*b\w*[ \t]+\S+[ \t]+\S+[ \t]+["']?(?<value>[^\s"']{3,})/g,
    what: 'a password in a command line',
  },
  // Oracle: `sqlplus scott/tiger@ORCL`, `userid=scott/tiger`.
  {
    pattern:
      /(?<![\w-])(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl)\b[^\n]*?[ \t][\w$#]+\/(?<value>[^\s/@"']{3,})(?:@|\s|$)/gm,
    what: 'an Oracle password',
  },
  { pattern: /\buserid[ \t]*=[ \t]*["']?[\w$#]+\/(?<value>[^\s/@"']{3,})/gi, what: 'an Oracle password' },
  // `{"name": "DB_PASS", "value": "…"}`: ECS task definitions, Kubernetes env lists, SSM exports.
  {
    pattern:
      /"(?:name|Name|key|Key|ParameterKey)"[ \t]*:[ \t]*"(?<name>[^"\n]{1,100})"[ \t]*,[ \t\r\n]*"(?:value|Value|ParameterValue)"[ \t]*:[ \t]*"(?<value>[^"\n]{3,})"/g,
    what: 'the value of a secret-named entry',
    accept: (groups) => namesSecret(groups.name ?? ''),
  },
  // crypt(3) password hashes (shadow files, htpasswd): md5, bcrypt, sha256, sha512, yescrypt, argon2.
  {
    pattern: /(?<value>\$(?:1|2[abxy]|5|6|y|gy|7|argon2(?:id|i|d))\$[^\s:$]*\$[./A-Za-z0-9$=,+]{16,})/g,
    what: 'a password hash',
  },
];

const HINT =
  /requirepass|masterauth|masteruser|auth-pass|^[ \t]*user[ \t]|:(?:\d{1,5}|\*):|psk|wep-key|wpa_passphrase|sae_password|leap-password|password-raw|pass|sshpass|-cli\b|zip|7z|rar\b|sqlcmd|bcp|osql|isql|ldap|smbclient|lftp|htpasswd|sqlplus|rman|expdp|impdp|\bexp\b|\bimp\b|sqlldr|dgmgrl|userid|"(?:name|key|parameterkey)"|\$(?:1|2[abxy]|5|6|y|gy|7|argon2)/im;

/** Every application-format finding in `text`: the value's span and what it is. */
export function findAppFormats(text: string): { start: number; end: number; what: string }[] {
  const found: { start: number; end: number; what: string }[] = [];
  // Every format needs one of these words or marks: most text has none, and is passed at once.
  if (!HINT.test(text)) return found;
  for (const format of APP_FORMATS) {
    format.pattern.lastIndex = 0;
    for (const match of text.matchAll(format.pattern)) {
      const groups = match.groups ?? {};
      const value = groups.value;
      if (value === undefined || isPlaceholderValue(value)) continue;
      if (format.accept !== undefined && !format.accept(groups)) continue;
      const start = match.index + match[0].lastIndexOf(value);
      found.push({ start, end: start + value.length, what: format.what });
    }
  }
  return found;
}
