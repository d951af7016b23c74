// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template placeholders are the samples, not templates
import randexp from 'randexp';
import { GITLEAKS_RULES } from '../src/secret-engine/gitleaks-rules.js';
import { translateGoRegex } from '../src/secret-engine/go-regex.js';
import { shannonEntropy } from '../src/secret-engine/token-rules.js';

/**
 * The secret sample table of issue 17, made from a maintained scanner's documented formats, not
 * from riskgate's own patterns: every gitleaks rule's secret is generated from the rule's own
 * regex with a seeded generator (as gitleaks' own tests do with `secrets.NewSecret`), kept only
 * when the rule itself (its regex and entropy floor) accepts it, then written in the syntaxes of
 * SYNTAXES. Formats a rule knows only by a keyword beside the value (`adafruit … = "…"`) are written
 * with a name holding that keyword; self-identifying ones (`hvs.…`, `dapi…`) under neutral names
 * and bare in log lines too. Context classes the issue lists (URLs with passwords, `curl -u`,
 * netrc, Kubernetes Secrets, docker auths, plists, private keys, base64-wrapped tokens) are added
 * with seeded random values.
 */

export interface SecretSample {
  /** The gitleaks rule id, or the context class. */
  readonly format: string;
  readonly syntax: string;
  /** The text written into a file. */
  readonly text: string;
  /** What must not reach the model. */
  readonly secret: string;
}

// randexp is CommonJS: its class is the module itself at run time, `default` in its types.
type RandExpClass = typeof import('randexp').default;
const RandExp: RandExpClass =
  (randexp as unknown as { default?: RandExpClass }).default ?? (randexp as unknown as RandExpClass);
type RandExp = InstanceType<RandExpClass>;

/** mulberry32: small, seeded, good enough to spread samples. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The source of capture group `index` (1-based) of a JavaScript regex source. */
function groupSource(source: string, index: number): string | undefined {
  let count = 0;
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      at++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    if (char !== '(') continue;
    const capturing =
      source[at + 1] !== '?' || (source[at + 2] === '<' && source[at + 3] !== '=' && source[at + 3] !== '!');
    if (!capturing || ++count !== index) continue;
    let depth = 0;
    let classOpen = false;
    for (let end = at; end < source.length; end++) {
      const inner = source[end]!;
      if (inner === '\\') {
        end++;
        continue;
      }
      if (classOpen) {
        if (inner === ']') classOpen = false;
        continue;
      }
      if (inner === '[') classOpen = true;
      else if (inner === '(') depth++;
      else if (inner === ')' && --depth === 0) return source.slice(at, end + 1);
    }
  }
  return undefined;
}

/** Rules whose form is a whole context (a curl line, a YAML document, a PEM block): the context classes below cover them. */
const WHOLE_CONTEXT_RULES = new Set([
  'generic-api-key',
  'curl-auth-header',
  'curl-auth-user',
  'kubernetes-secret-yaml',
  'private-key',
  'jwt-base64',
]);
const SEMI_GENERIC = /^\(\?i\)\[\\w\.-\]\{0,50\}\?\(\?:|\[\\w\.-\]\{0,50\}\?\(\?i:/;

interface Format {
  readonly id: string;
  /** Whether the rule needs its keyword beside the value. */
  readonly named: boolean;
  readonly keyword: string;
  readonly secrets: readonly string[];
}

function generator(pattern: RegExp, random: () => number): RandExp {
  const generate = new RandExp(pattern);
  generate.max = 4;
  generate.randInt = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  return generate;
}

/** Up to `count` secrets per rule that the rule itself finds (regex and entropy), in the rule's own context. */
export function gitleaksFormats(count: number, seed = 17): Format[] {
  const random = seededRandom(seed);
  const formats: Format[] = [];
  for (const rule of GITLEAKS_RULES.rules) {
    if (WHOLE_CONTEXT_RULES.has(rule.id)) continue;
    const source = translateGoRegex(rule.regex);
    const keyword = rule.keywords.find((word) => /^[a-z][a-z0-9]+$/.test(word)) ?? '';
    const group = rule.secretGroup ?? 1;
    const secretSource = groupSource(source, group) ?? source;
    const whole = new RegExp(source, 'd');
    let make: RandExp;
    try {
      make = generator(new RegExp(secretSource.replace(/\\b|\(\?<?[=!][^)]*\)/g, '')), random);
    } catch {
      continue;
    }
    const secrets = new Set<string>();
    // gitleaks runs a rule only on text holding one of its keywords: a format whose secret holds
    // none (Airtable's `pat….…`, Facebook's `digits|…`) is known to it only beside its keyword.
    let named = SEMI_GENERIC.test(rule.regex);
    for (let attempt = 0; attempt < count * 20 && secrets.size < count; attempt++) {
      const secret = make.gen().replace(/^[\s'"`]+|[\s'"`]+$/g, '');
      if (secret.length < 8 || /[\s\\]/.test(secret)) continue;
      if (
        secrets.size === 0 &&
        rule.keywords.length > 0 &&
        !rule.keywords.some((word) => secret.toLowerCase().includes(word))
      )
        named = true;
      if (named && keyword === '') break;
      const context = named ? `${keyword}_api_key = "${secret}"\n` : `log ${secret} end\n`;
      const match = whole.exec(context);
      const found =
        match === null ? undefined : (match.slice(1).find((value) => value !== undefined && value !== '') ?? match[0]);
      if (found !== secret) continue;
      if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue;
      secrets.add(secret);
    }
    if (secrets.size > 0) formats.push({ id: rule.id, named, keyword, secrets: [...secrets] });
  }
  return formats;
}

type Syntax = readonly [name: string, write: (name: string, value: string) => string];

/** Where a secret stands in real files and output; `name` is the variable's or key's name. */
export const SYNTAXES: readonly Syntax[] = [
  ['env', (n, v) => `${n.toUpperCase()}=${v}`],
  ['shell-export', (n, v) => `export ${n.toUpperCase()}="${v}"`],
  ['yaml', (n, v) => `  ${n}: ${v}`],
  ['yaml-quoted', (n, v) => `  ${n}: '${v}'`],
  ['json', (n, v) => `{"${n}": "${v}", "region": "eu-west-1"}`],
  ['toml', (n, v) => `${n} = "${v}"`],
  ['go-short', (n, v) => `\t${camel(n)} := "${v}"`],
  ['go-var', (n, v) => `var ${camel(n)} string = "${v}"`],
  ['makefile', (n, v) => `${n.toUpperCase()} ?= ${v}`],
  ['php-variable', (n, v) => `$${n} = '${v}';`],
  ['php-concat', (n, v) => `$${n} .= '${v}';`],
  ['php-array', (n, v) => `    '${n}' => '${v}',`],
  ['php-define', (n, v) => `define('${n.toUpperCase()}', '${v}');`],
  ['java-property', (n, v) => `System.setProperty("${n.toUpperCase()}", "${v}");`],
  ['json-in-string', (n, v) => `body = "{\\"${n}\\": \\"${v}\\"}"`],
  ['xml-element', (n, v) => `<${camel(n)}>${v}</${camel(n)}>`],
  ['dotnet-appsettings', (n, v) => `<add key="${camel(n)}" value="${v}" />`],
  ['cli-flag', (n, v) => `deploy --${n.replace(/_/g, '-')}=${v} --verbose`],
  ['dockerfile-env', (n, v) => `ENV ${n.toUpperCase()} ${v}`],
  ['python-kwarg', (n, v) => `client = Client(${n}="${v}")`],
  ['js-const', (n, v) => `const ${camel(n)} = "${v}";`],
  ['ruby-hash', (n, v) => `  :${n} => "${v}",`],
  ['compose-list', (n, v) => `      - ${n.toUpperCase()}=${v}`],
  ['ini', (n, v) => `${n} = ${v}`],
  ['url-query', (n, v) => `GET https://api.example.com/v1/items?${n}=${v}&page=2`],
];

/** Only for self-identifying formats: the value alone, without a name. */
export const BARE_SYNTAXES: readonly Syntax[] = [
  ['log-line', (_n, v) => `2024-05-01T12:00:00Z INFO upload started with ${v} for build 4411`],
  ['bearer-header', (_n, v) => `Authorization: Bearer ${v}`],
  ['markdown', (_n, v) => `- staging key: \`${v}\` (rotate monthly)`],
];

function camel(name: string): string {
  return name.replace(/[_-]([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function randomText(
  random: () => number,
  length: number,
  alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789',
): string {
  let text = '';
  for (let index = 0; index < length; index++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

/** The context classes issue 17 lists: a secret known by where it stands. */
function contextSamples(random: () => number): SecretSample[] {
  const samples: SecretSample[] = [];
  const add = (format: string, syntax: string, text: string, secret: string) =>
    samples.push({ format, syntax, text, secret });
  const schemes = [
    'postgres',
    'postgresql',
    'mysql',
    'mongodb+srv',
    'redis',
    'rediss',
    'amqp',
    'https',
    'ftp',
    'smtp',
    'ldap',
    'mssql',
  ];
  for (const scheme of schemes) {
    const password = `${randomText(random, 10)}-${randomText(random, 6)}`;
    add(
      'url-userinfo',
      `${scheme}-url`,
      `DATABASE=${scheme}://app_user:${password}@db.internal.example:5432/app`,
      password,
    );
    add(
      'url-userinfo',
      `${scheme}-url-in-log`,
      `connecting to ${scheme}://admin:${password}@10.0.0.5/prod ... ok`,
      password,
    );
  }
  for (let index = 0; index < 6; index++) {
    const password = randomText(random, 14);
    add('curl-user', 'curl-u', `curl -sS -u deploy:${password} https://ci.example.com/api/json`, password);
    add('netrc', 'netrc-one-line', `machine api.example.com login deploy password ${password}`, password);
    add('netrc', 'netrc-lines', `machine git.example.com\n  login ci-bot\n  password ${password}\n`, password);
    add('php-define', 'wp-config', `define( 'DB_PASSWORD', '${password}' );`, password);
    add(
      'xml-password',
      'xml-element',
      `<server>\n  <id>nexus</id>\n  <password>${password}</password>\n</server>`,
      password,
    );
    add('plist-password', 'plist', `<dict>\n\t<key>Password</key>\n\t<string>${password}</string>\n</dict>`, password);
    add('xml-password', 'xml-attribute', `<datasource user="app" password="${password}" url="jdbc:x" />`, password);
    add(
      'msmtprc',
      'keyword-line',
      `account default\nhost smtp.example.com\nuser me@example.com\npassword ${password}\n`,
      password,
    );
    const basic = Buffer.from(`deploy:${password}`).toString('base64');
    add(
      'docker-auths',
      'docker-config',
      `{\n  "auths": {\n    "registry.example.com": {\n      "auth": "${basic}"\n    }\n  }\n}`,
      basic,
    );
    add('authorization-basic', 'http-header', `> Authorization: Basic ${basic}`, basic);
    const data = Buffer.from(randomText(random, 18)).toString('base64');
    add(
      'kubernetes-secret',
      'k8s-yaml',
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  db-url: ${data}\n`,
      data,
    );
    add(
      'kubernetes-secret',
      'k8s-json',
      `{"apiVersion": "v1", "kind": "Secret", "data": {"tls.key": "${data}"}}`,
      data,
    );
  }
  for (const kind of ['RSA ', 'EC ', 'OPENSSH ', 'DSA ', 'ENCRYPTED ', '']) {
    const body = Array.from({ length: 6 }, () =>
      randomText(random, 64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
    ).join('\n');
    const pem = `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`;
    const middle = body.split('\n')[2]!;
    add('private-key', `pem-${kind.trim().toLowerCase() || 'pkcs8'}`, `${pem}\n`, middle);
    const wrapped = Buffer.from(`${pem}\n`)
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    add('private-key', 'base64-wrapped-pem', `key_data:\n${wrapped}\n`, wrapped.split('\n')[3]!);
  }
  for (let index = 0; index < 6; index++) {
    const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(`{"sub":"${randomText(random, 12)}","iat":1700000000}`).toString('base64url')}.${randomText(random, 43)}`;
    const wrapped = Buffer.from(jwt).toString('base64');
    add('jwt', 'base64-wrapped-jwt', `session_blob ${wrapped}`, wrapped);
  }
  return samples;
}

/** The whole table: gitleaks formats in SYNTAXES (and BARE_SYNTAXES when self-identifying), then the context classes. */
export function secretSamples(perFormat = 8, seed = 17): SecretSample[] {
  const random = seededRandom(seed + 1);
  const samples: SecretSample[] = [];
  let turn = 0;
  for (const format of gitleaksFormats(perFormat, seed)) {
    const syntaxes = format.named ? SYNTAXES : [...SYNTAXES, ...BARE_SYNTAXES];
    for (const secret of format.secrets) {
      const [syntax, write] = syntaxes[turn++ % syntaxes.length]!;
      // Self-identifying formats stand under a neutral name: only their form can give them away.
      const name = format.named ? `${format.keyword}_api_key` : 'upload_value';
      samples.push({ format: format.id, syntax, text: write(name, secret), secret });
    }
  }
  return [...samples, ...contextSamples(random)];
}

/**
 * Lookalikes that must pass unchanged: identifiers that name a secret, placeholders, settings,
 * code that fetches a secret, hashes and ids that are not secrets, public keys and certificates,
 * prose. With gitleaks' own false-positive examples (fixtures-gitleaks-false-positives.json) they
 * make the over-blocking table. UUIDs pass unless a secret's name stands before them: a UUID
 * under `api_key` is a credential (many services issue UUID keys).
 */
export const LOOKALIKES: readonly (readonly [kind: string, text: string])[] = [
  ['identifier', "credentialsId: 'jenkins-deploy-creds'"],
  ['identifier', 'kms_key_id = "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"'],
  ['identifier', 'public_key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl'],
  ['identifier', 'secret_name: prod/db/credentials'],
  ['identifier', 'token_count: 1234'],
  ['identifier', 'password_min_length: 12'],
  ['identifier', 'PASSWORD_RESET_TIMEOUT=3600'],
  ['identifier', 'api_key_header: X-Api-Key'],
  ['identifier', 'AUTH_TOKEN_TTL=900'],
  ['identifier', 'secretKeyRef:\n  name: db-credentials\n  key: password'],
  ['identifier', '"tokenEndpoint": "https://login.example.com/oauth2/token"'],
  ['identifier', 'SECRET_MANAGER_PROJECT=acme-prod'],
  ['identifier', 'session_cookie_name = "sid"'],
  ['identifier', 'keyPressed = event.keyCode'],
  ['identifier', 'sort_key: created_at'],
  ['identifier', 'partitionKey = "customerId"'],
  ['identifier', 'idempotency_key: order-2024-0001'],
  ['identifier', 'TOKEN_URL=https://auth.example.com/oauth/token'],
  ['identifier', 'password_file: /run/secrets/db_password'],
  ['identifier', 'SSL_KEY_PATH=/etc/ssl/private/server.key'],
  ['identifier', 'GOOGLE_APPLICATION_CREDENTIALS_PATH=./service-account.json'],
  ['identifier', 'secretsProvider: vault'],
  ['identifier', 'tokenizer: "bert-base-uncased"'],
  ['identifier', 'csrf_token: "Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7"'],
  ['identifier', 'NEXT_PUBLIC_SUPABASE_ANON_KEY_NAME=anon'],
  ['identifier', 'STRIPE_PUBLISHABLE_KEY=pk_live_51HqLyjWDarjtT1zdp7dcXl9KjHqfJ3oK2Uu8r4'],
  ['placeholder', 'DB_PASSWORD=${DB_PASSWORD}'],
  ['placeholder', 'password: "${POSTGRES_PASSWORD:-postgres}"'],
  ['placeholder', 'API_KEY=<your-api-key>'],
  ['placeholder', 'token: "{{ .Values.token }}"'],
  ['placeholder', 'GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}'],
  ['placeholder', 'export OPENAI_API_KEY=your_api_key_here'],
  ['placeholder', 'password = changeme'],
  ['placeholder', 'SECRET_KEY=xxxxxxxxxxxxxxxxxxxxxxxx'],
  ['placeholder', 'token=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['placeholder', 'STRIPE_SECRET_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['placeholder', 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE'],
  ['placeholder', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['placeholder', 'password: "********"'],
  ['placeholder', 'API_TOKEN=%API_TOKEN%'],
  ['placeholder', 'db_password = @DB_PASSWORD@'],
  ['placeholder', 'postgres://user:password@localhost:5432/mydb'],
  ['placeholder', 'DATABASE_URL=postgres://postgres:${PGPASSWORD}@db:5432/app'],
  ['placeholder', 'Authorization: Bearer <token>'],
  ['placeholder', 'Authorization: Bearer $TOKEN'],
  ['placeholder', 'curl -u "$USER:$PASS" https://example.com'],
  ['placeholder', '<password></password>'],
  ['placeholder', 'password: ""'],
  ['placeholder', 'SECRET=[REDACTED]'],
  ['placeholder', 'secret: "${VAULT_PREFIX}/${ENV}/password"'],
  ['setting', 'PasswordAuthentication no'],
  ['setting', 'require_password: true'],
  ['setting', 'token_auth_enabled = false'],
  ['setting', 'password_hash_algorithm: bcrypt'],
  ['setting', 'AUTH_MODE=oauth'],
  ['setting', 'session_timeout: 30m'],
  ['code', 'password = os.getenv("DB_PASSWORD")'],
  ['code', 'const token = process.env.GITHUB_TOKEN;'],
  ['code', 'apiKey: config.stripe.apiKey,'],
  ['code', 'secret := viper.GetString("jwt.secret")'],
  ['code', 'if (password == confirmPassword) {'],
  ['code', 'token = request.headers.get("Authorization")'],
  ['code', 'self.password = password'],
  ['code', 'password = getpass.getpass()'],
  ['code', '$password = $_POST["password"];'],
  ['code', 'private final String secretKey;'],
  ['code', '<input type="password" name="password" id="password">'],
  ['code', 'def check_token(token: str) -> bool:'],
  ['code', 'const token = match.groups?.token;'],
  ['code', 'const password = user?.password ?? "";'],
  ['code', 'token = response?.data?.token'],
  ['code', 'const secret = options!.secret;'],
  ['code', 'const apiKey = this.settings?.["apiKey"];'],
  ['code', 'tokens start with `ghp_`, `gho_` or `spu-`'],
  ['code', 'prefix: `sk_live_`'],
  ['hash', 'commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a'],
  ['hash', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt'],
  [
    'hash',
    '"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="',
  ],
  ['hash', 'image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31'],
  ['hash', 'md5sum: d41d8cd98f00b204e9800998ecf8427e'],
  ['hash', 'checksum = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"'],
  [
    'hash',
    'resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#679591c564c3bffaae8454cf0b3df370c3d6911c"',
  ],
  ['hash', 'ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"'],
  ['hash', 'git-tree-sha1 = "a44df3dd3a21c7d0dbdd5ba98b4a1e4f2f4d5b28"'],
  ['uuid', 'request_id=550e8400-e29b-41d4-a716-446655440000'],
  ['uuid', '{"id": "123e4567-e89b-12d3-a456-426614174000", "name": "order"}'],
  ['uuid', 'trace 7d444840-9dc0-11d1-b245-5ffdce74fad2 ok'],
  ['maven', '[INFO] org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile)'],
  ['maven', 'implementation "io.jsonwebtoken:jjwt-api:0.11.5"'],
  ['maven', '<artifactId>spring-security-oauth2-authorization-server</artifactId>'],
  ['url', 'git@github.com:acme/api.git'],
  ['url', 'postgres://app@db.internal:5432/app'],
  ['url', 'https://example.com/reset-password?step=2'],
  ['url', 'https://api.example.com/v1/tokens/list'],
  ['url', 'redis://localhost:6379/0'],
  ['public', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host'],
  [
    'public',
    '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUY2FmZWJhYmVjYWZlYmFiZWNhZmViYWJlMAoGCCqGSM49BAMC\n-----END CERTIFICATE-----',
  ],
  [
    'public',
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq2yWmN3yWmN3yWmN3yWmN3yWmN3y\n-----END PUBLIC KEY-----',
  ],
  ['public', 'pk_test_TYooMQauvdEDq54NiTphI7jx'],
  ['prose', 'Enter your password to continue.'],
  ['prose', 'password: Forgot your password?'],
  ['prose', 'The token expired; please sign in again.'],
  ['prose', 'Password incorrect'],
  ['prose', 'error: authentication failed for user "deploy"'],
  ['prose', '# Set API_KEY in your environment before running the tests.'],
  ['base64', 'data: aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBzb21lIGJhc2U2NCB0ZXh0IGluIGEgbG9n'],
  [
    'base64',
    'logo.png: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  ],
  ['log', '2024-05-01T12:00:00Z INFO GET /api/v1/orders?page=2&limit=50 200 12ms'],
  ['log', '2024-05-01T12:00:01Z WARN token refresh scheduled in 300s'],
  ['log', 'npm notice 📦  left-pad@1.3.0'],
  ['log', 'Successfully built 3f2a1b9c8d7e'],
  ['config', 'host = db.internal\nport = 5432\nuser = app\nsslmode = require'],
  ['config', '[core]\n\trepositoryformatversion = 0\n\tfilemode = true'],
  ['config', 'LS_COLORS=rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35'],
  ['config', 'spring.datasource.url=jdbc:postgresql://db:5432/app'],
];
