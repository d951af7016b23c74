import { findAppFormats } from './app-formats.js';
import { AMBIGUOUS_ALONE, isPlaceholderValue, looksRandom, namesSecret, normaliseName } from './placeholders.js';
import { findInTables } from './tables.js';
import type { SecretFinding } from './types.js';

/**
 * riskgate's own rules for what token scanners leave out: a secret known by where it stands, not
 * by its form. A password is any string; it is a secret because it is the value of `DB_PASSWORD`,
 * the part after `user:` in a URL, the text of `<password>`. Each rule reports exactly the value's
 * characters, so redaction keeps the name, quotes and delimiters around it.
 */

type Found = (start: number, end: number, what: string, rule: string) => void;

/** A name: `DB_PASSWORD`, `spring.datasource.password`, `$db_pass`, `apiKey`, `x-api-key`. */
const NAME = String.raw`[A-Za-z_$@][\w.$-]*`;
/** Separators of every syntax: `=`, `:`, `:=`, `?=`, `.=`, `+=`, `||=`, `=>` (not `==`, a comparison, nor `->`, a dereference). */
const OPERATOR = String.raw`:=|\?=|\.=|\+=|\|\|=|=>|=(?!=)|:(?![:/\\])`;

/**
 * `NAME <op> value`, the name maybe quoted or indexed (`"password": `, `ENV["API_TOKEN"] =`,
 * `'db_pass' =>`), maybe typed (Go `var token string = "…"`), the value maybe quoted, also with
 * escaped quotes (JSON inside a string: `"{\"password\": \"…\"}"`). Nothing before the name is
 * required, so `path:12:DB_PASSWORD=…` (grep -rn, rg, git grep) is found like `DB_PASSWORD=…`.
 */
const ASSIGNMENT = new RegExp(
  String.raw`(?<![\w$@.-])(?<!\$\{)(?<name>${NAME})(?:\\?["'\x60]?\]?)(?:[ \t]+(?:string|String|str|const|final|char\s*\*?|\[\]byte))?[ \t]*(?<op>${OPERATOR})[ \t]*(?<open>\\?["'\x60]|)`,
  'g',
);

/** Where an unquoted value ends: whitespace, quotes, and the delimiters of the syntaxes above. */
const UNQUOTED_END = /[\s"'\x60,;&<>(){}[\]]/;

/** The end of a quoted value opened by `open` at `from`, on the same line; -1 when it does not close. */
function quotedEnd(text: string, from: number, open: string): number {
  for (let index = from; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\n') return -1;
    if (open.length === 2) {
      // An escaped quote (`\"`) closes a value opened by one.
      if (char === '\\' && text[index + 1] === open[1]) return index;
      continue;
    }
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === open) return index;
  }
  return -1;
}

function valueEnd(text: string, from: number, open: string): number {
  if (open !== '') return quotedEnd(text, from, open);
  let index = from;
  while (index < text.length && !UNQUOTED_END.test(text[index]!)) index++;
  return index;
}

/** Whether `value` under `name` is a secret: the name says so, the value is no placeholder. */
function secretValue(name: string, value: string): boolean {
  if (!namesSecret(name) || isPlaceholderValue(value)) return false;
  // `"key": "user.name"`: a name that is only an ambiguous word needs a value that looks machine-made.
  if (AMBIGUOUS_ALONE.has(normaliseName(name))) return looksRandom(value);
  return true;
}

/**
 * Code and prose where a value goes: a call (`password = os.getenv("X")`, unquoted and followed by
 * `(`), a dotted reference (`token = request.headers.get`), a shell command substitution
 * (`KEY=\`etcdctl get /x\``), a YAML sentence (`password: Forgot your password?`).
 */
function fetchesSecret(text: string, name: string, open: string, value: string, end: number, op: string): boolean {
  if (open === '`') return /\s/.test(value);
  if (open !== '') return false;
  if (
    text[end] === '(' ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) ||
    safeNavigation(name, value, text[end])
  )
    return true;
  const lineEnd = text.indexOf('\n', end);
  const after = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
  // A word of code: `tokens = language === 'sql'`, `const session = useRef<…>`, `tokens: readonly Token[]`.
  if (
    /^[A-Za-z_$][A-Za-z_$]*$/.test(value) &&
    (CODE_WORDS.has(value) || /^\s*(?:[<(.[?,;})\]]|===?|!==?|&&|\|\||\?\?)/.test(after))
  )
    return true;
  if (op !== ':') return false;
  // `password: Forgot your password?`, `tokens: command names, operators`: a sentence, not a value.
  const rest = `${value}${after}`.trim();
  return (
    rest !== value && (isPlaceholderValue(rest) || (/^[A-Za-z]+$/.test(value) && /^\s+[A-Za-z]+[\s,.]/.test(after)))
  );
}

/**
 * TypeScript and JavaScript reading a field with optional chaining or a non-null assertion
 * (`const token = match.groups?.token`, `obj!.secret`, `this.settings?.["apiKey"]`), under a name
 * written as code is (not an environment file's `DB_PASSWORD=`) and with words for links, not the
 * mixed letters and digits of a password that happens to hold `?.`.
 */
function safeNavigation(name: string, value: string, next: string | undefined): boolean {
  if (!/[a-z]/.test(name) || !/\?\.|!\./.test(value)) return false;
  const chain = next === '[' ? value.replace(/\?\.$/, '') : value;
  const links = chain.split(/\?\.|!\.|\./);
  return links.length > 1 && links.every((link) => /^[A-Za-z_$][A-Za-z_$]*\d{0,2}$/.test(link));
}

/** Words that stand where a value would in typed code: `token: string`, `password: readonly …`. */
const CODE_WORDS: ReadonlySet<string> = new Set([
  'string',
  'number',
  'boolean',
  'any',
  'unknown',
  'never',
  'void',
  'object',
  'readonly',
  'typeof',
  'keyof',
  'new',
  'await',
  'async',
  'function',
  'this',
  'self',
  'str',
  'int',
  'bytes',
  'bool',
  'Optional',
  'String',
  'Promise',
]);

function assignments(text: string, found: Found): void {
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
    const { name = '', open = '' } = match.groups ?? {};
    const start = match.index + match[0].length;
    const end = valueEnd(text, start, open);
    const value = end < 0 ? '' : text.slice(start, end);
    if (
      end > start &&
      !fetchesSecret(text, name, open, value, end, match.groups?.op ?? '') &&
      secretValue(name, value)
    ) {
      found(start, end, `the value of ${name.replace(/^[$@]+/, '')}`, 'assignment');
      ASSIGNMENT.lastIndex = end;
    } else {
      // Only the name is used up: in `app.env:3:DB_PASSWORD=x` the next name starts inside what
      // looked like the value of `app.env`.
      ASSIGNMENT.lastIndex = match.index + Math.max(1, name.length);
    }
  }
}

/**
 * A secret as the second argument of a call naming it: PHP `define('DB_PASSWORD', '…')`, Java
 * `System.setProperty("X_TOKEN", "…")`, `os.environ.setdefault("SECRET_KEY", "…")`, `setenv`.
 */
const CALL_ARGUMENT = /\(\s*(?<q>["'])(?<name>[\w.-]{1,80})\k<q>\s*,\s*(?<open>["'])/g;

function callArguments(text: string, found: Found): void {
  for (const match of text.matchAll(CALL_ARGUMENT)) {
    const { name = '', open = '' } = match.groups ?? {};
    const start = match.index + match[0].length;
    const end = quotedEnd(text, start, open);
    if (end > start && secretValue(name, text.slice(start, end)))
      found(start, end, `the value of ${name}`, 'call-argument');
  }
}

/** `scheme://user:password@host`: the password (a connection string, a git remote, a proxy). */
const URL_USERINFO = /\b[A-Za-z][\w+.-]*:\/\/[^\s/:@'"<>]*:(?<password>[^\s/@'"<>[\]]+)@/g;
/** `curl -u user:password`, `--user`, `--proxy-user`, `-U`; `mysql -pSECRET`, `--password=…`. */
const USER_OPTION =
  /(?<![\w-])(?:-u|-U|--user|--proxy-user)(?:[ \t]+|=)?(?<q>["']?)[^\s"':<>]*:(?<password>[^\s"'<>]+)\k<q>/g;
/** Secret-named options: `--password=…`, `--api-token …`, `-pSECRET` (mysql). */
const SECRET_OPTION = /(?<![\w-])(?<name>--[A-Za-z][\w-]*)(?:=|[ \t]+)(?<q>["']?)(?<value>[^\s"'-][^\s"']*)\k<q>/g;
/** ODBC/ADO connection strings: `Server=db;Uid=sa;Pwd=…;` (`PWD` alone is the working directory elsewhere). */
const CONNECTION_PWD =
  /(?:^|;)[ \t]*(?:Uid|User ?Id|User|Server|Data Source|Driver|Database|Dsn)[ \t]*=[^;\n]*;(?:[^;\n]*;)*?[ \t]*Pwd[ \t]*=[ \t]*(?<value>[^;\n'"]+)/gi;
const MYSQL_PASSWORD = /(?<![\w-])(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]*?[ \t]-p(?<value>[^\s"']{3,})/g;

function commandLines(text: string, found: Found): void {
  for (const match of text.includes('://') ? text.matchAll(URL_USERINFO) : []) {
    const password = match.groups!.password!;
    if (isPlaceholderValue(password)) continue;
    const start = match.index + match[0].length - 1 - password.length;
    found(start, start + password.length, 'a password in a URL', 'url-userinfo');
  }
  for (const match of text.matchAll(USER_OPTION)) {
    const password = match.groups!.password!;
    if (isPlaceholderValue(password)) continue;
    const start = match.index + match[0].lastIndexOf(password);
    found(start, start + password.length, 'a password in a command line', 'user-option');
  }
  for (const match of text.matchAll(SECRET_OPTION)) {
    const { name = '', value = '' } = match.groups ?? {};
    if (!secretValue(name, value)) continue;
    const start = match.index + match[0].lastIndexOf(value);
    found(start, start + value.length, `the value of ${name}`, 'option');
  }
  for (const match of /pwd/i.test(text) ? text.matchAll(CONNECTION_PWD) : []) {
    const value = match.groups!.value!.trimEnd();
    if (isPlaceholderValue(value)) continue;
    const start = match.index + match[0].length - match.groups!.value!.length;
    found(start, start + value.length, 'a password in a connection string', 'connection-string');
  }
  for (const match of text.matchAll(MYSQL_PASSWORD)) {
    const value = match.groups!.value!;
    if (isPlaceholderValue(value)) continue;
    const start = match.index + match[0].length - value.length;
    found(start, start + value.length, 'a password in a command line', 'option');
  }
}

/** `Authorization: Bearer …`, `Basic …`, `token …`; `Proxy-Authorization`; `Cookie:` / `Set-Cookie:` values. */
const AUTHORIZATION =
  /\b(?:proxy-)?authorization\b["']?[ \t]*[:=][ \t]*["']?(?:(?:basic|bearer|token|digest|negotiate|ntlm|bot|apikey|api-key|sso-key|key|jwt)[ \t]+)?(?<value>[^\s"',;<{$][^\s"',;]{7,})/gi;
const COOKIE = /^[ \t]*(?:[<>] )?(?:set-)?cookie:[ \t]*(?<value>[^\r\n]{8,})/gim;

function headers(text: string, found: Found): void {
  for (const match of text.matchAll(AUTHORIZATION)) {
    const value = match.groups!.value!;
    if (isPlaceholderValue(value)) continue;
    const start = match.index + match[0].length - value.length;
    found(start, start + value.length, 'an Authorization header', 'authorization');
  }
  for (const match of text.matchAll(COOKIE)) {
    const value = match.groups!.value!.trimEnd();
    const start = match.index + match[0].length - match.groups!.value!.length;
    found(start, start + value.length, 'a cookie', 'cookie');
  }
}

/** `<password>…</password>`, `<db:secretKey>…`, plist `<key>Password</key><string>…</string>`, .NET `<add key="ApiKey" value="…"/>`. */
const XML_ELEMENT = /<(?<tag>[A-Za-z_][\w:.-]*)(?:\s[^<>]*)?>(?<value>[^<>\n]{1,2000})<\/\k<tag>>/g;
const PLIST_ENTRY = /<key>(?<name>[^<>]{1,100})<\/key>\s*<(?<tag>string|data)>(?<value>[^<>]{1,4000})<\/\k<tag>>/g;
const KEY_VALUE_ATTRIBUTES =
  /\b(?:key|name)[ \t]*=[ \t]*(?<q>["'])(?<name>[^"'\n]{1,100})\k<q>[ \t]+value[ \t]*=[ \t]*(?<open>["'])/g;

function markup(text: string, found: Found): void {
  if (!text.includes('<')) return;
  for (const match of text.matchAll(XML_ELEMENT)) {
    const { tag = '', value = '' } = match.groups ?? {};
    const name = tag.includes(':') ? tag.slice(tag.lastIndexOf(':') + 1) : tag;
    if (!secretValue(name, value.trim())) continue;
    const start = match.index + match[0].indexOf('>') + 1;
    found(start, start + value.length, `the text of <${tag}>`, 'xml-element');
  }
  for (const match of text.matchAll(PLIST_ENTRY)) {
    const { name = '', value = '' } = match.groups ?? {};
    if (!secretValue(name, value.trim())) continue;
    const start = match.index + match[0].length - `</${match.groups!.tag}>`.length - value.length;
    found(start, start + value.length, `the value of ${name}`, 'plist');
  }
  for (const match of text.matchAll(KEY_VALUE_ATTRIBUTES)) {
    const { name = '', open = '' } = match.groups ?? {};
    const start = match.index + match[0].length;
    const end = quotedEnd(text, start, open);
    if (end > start && secretValue(name, text.slice(start, end)))
      found(start, end, `the value of ${name}`, 'xml-attribute');
  }
}

/**
 * Config files written as `keyword value` lines: netrc (`machine h login u password p`, on one line
 * or several), msmtprc, `.pgpass`-like tools; Dockerfile `ENV API_TOKEN value`. Lowercase keywords
 * only, and on one line alone or after netrc's words, so prose ("Password incorrect") passes.
 */
const NETRC = /(?<![\w-])(?:password|passwd|passphrase|account)[ \t]+(?<value>\S+)/g;
const KEYWORD_LINE =
  /^[ \t]*(?:password|passwd|passphrase|secret|token|auth_token|api_key|apikey)[ \t]+(?<value>[^\s#=:]\S*)[ \t]*$/gm;
const DOCKER_ENV = /^[ \t]*ENV[ \t]+(?<name>[A-Za-z_]\w*)[ \t]+(?<value>[^\s=][^\r\n]*?)[ \t]*$/gm;

function keywordLines(text: string, found: Found): void {
  if (/(?:^|\s)(?:machine|default)[ \t]+\S/m.test(text) && /(?:^|\s)login[ \t]+\S/m.test(text)) {
    for (const match of text.matchAll(NETRC)) {
      const value = match.groups!.value!;
      if (isPlaceholderValue(value)) continue;
      const start = match.index + match[0].length - value.length;
      found(start, start + value.length, 'a password in a netrc', 'netrc');
    }
  }
  for (const match of text.matchAll(KEYWORD_LINE)) {
    const value = match.groups!.value!;
    // "password combination." is prose that wrapped, not a configuration line.
    if (isPlaceholderValue(value) || /[.,;:!?]$/.test(value)) continue;
    const start = match.index + match[0].lastIndexOf(value);
    found(start, start + value.length, 'a password in a configuration file', 'keyword-line');
  }
  for (const match of text.matchAll(DOCKER_ENV)) {
    const { name = '', value = '' } = match.groups ?? {};
    if (!secretValue(name, value)) continue;
    const start = match.index + match[0].lastIndexOf(value);
    found(start, start + value.length, `the value of ${name}`, 'dockerfile-env');
  }
}

/**
 * Kubernetes `kind: Secret`: every value under `data:` / `stringData:` is a secret whatever its
 * key (`username`, `tls.key`, `db-url`); docker's `config.json` `"auth": "…"` (base64 of user:pass).
 */
const K8S_SECRET = /\bkind["']?[ \t]*:[ \t]*["']?Secret\b/;
const YAML_DATA = /^(?<indent>[ \t]*)(?:data|stringData):[ \t]*\r?\n(?<body>(?:\k<indent>[ \t]+[^\r\n]*\r?\n?)+)/gm;
const YAML_ENTRY = /^[ \t]+["']?[\w.-]+["']?:[ \t]*(?:[|>][-+]?[ \t]*)?["']?(?<value>[^\s"'][^\r\n"']*?)["']?[ \t]*$/gm;
const JSON_DATA = /"(?:data|stringData)"[ \t]*:[ \t]*\{(?<body>[^{}]*)\}/g;
const JSON_ENTRY = /"[\w.-]+"[ \t]*:[ \t]*"(?<value>[^"]+)"/g;
const DOCKER_AUTH = /"(?:auth|identitytoken|registrytoken)"[ \t]*:[ \t]*"(?<value>[^"]{4,})"/g;

function structuredSecrets(text: string, found: Found): void {
  if (K8S_SECRET.test(text)) {
    for (const block of text.matchAll(YAML_DATA)) {
      const bodyStart = block.index + block[0].length - block.groups!.body!.length;
      for (const entry of block.groups!.body!.matchAll(YAML_ENTRY)) {
        const value = entry.groups!.value!;
        const start = bodyStart + entry.index + entry[0].lastIndexOf(value);
        found(start, start + value.length, 'a value of a Kubernetes Secret', 'kubernetes-secret');
      }
    }
    for (const block of text.matchAll(JSON_DATA)) {
      const bodyStart = block.index + block[0].indexOf('{') + 1;
      for (const entry of block.groups!.body!.matchAll(JSON_ENTRY)) {
        const value = entry.groups!.value!;
        const start = bodyStart + entry.index + entry[0].length - 1 - value.length;
        found(start, start + value.length, 'a value of a Kubernetes Secret', 'kubernetes-secret');
      }
    }
  }
  for (const match of text.matchAll(DOCKER_AUTH)) {
    const value = match.groups!.value!;
    if (isPlaceholderValue(value)) continue;
    const start = match.index + match[0].length - 1 - value.length;
    found(start, start + value.length, 'a registry credential', 'docker-auth');
  }
}

/** Every context rule's findings in `text`. */
export function findInContext(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const found: Found = (start, end, what, rule) => {
    if (end > start) findings.push({ start, end, what, rule });
  };
  assignments(text, found);
  callArguments(text, found);
  commandLines(text, found);
  headers(text, found);
  markup(text, found);
  keywordLines(text, found);
  structuredSecrets(text, found);
  for (const finding of findAppFormats(text)) found(finding.start, finding.end, finding.what, 'app-format');
  findings.push(...findInTables(text));
  return findings;
}
