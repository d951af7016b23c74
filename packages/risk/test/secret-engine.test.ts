import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findSecretsIn, replaceFindings, textHoldsSecret } from '../src/index.js';
import { GITLEAKS_RULES } from '../src/secret-engine/gitleaks-rules.js';
import { translateGoRegex } from '../src/secret-engine/go-regex.js';
import { compileRule } from '../src/secret-engine/token-rules.js';
import { gitleaksFormats, LOOKALIKES, secretSamples } from './secret-samples.js';

const redacted = (text: string) => replaceFindings(text, findSecretsIn(text), () => '[W]');
/** What `grep -rn` puts before each line. */
const grepped = (text: string) =>
  text
    .split('\n')
    .map((line, index) => `config/app/settings.conf:${index + 1}:${line}`)
    .join('\n');

describe('Go regexes as JavaScript', () => {
  it.each([
    [
      String.raw`\b(p8e-(?i)[a-z0-9]{32})`,
      'p8e-ABCdef0123456789abcdef0123456789',
      'P8E-abcdef0123456789abcdef0123456789',
    ],
    ['(?i)x(?-i:Acc)y', 'XAccY', 'xaccy'],
    [String.raw`\b(pat[[:alnum:]]{3}\.[a-f0-9]{2})\b`, 'patA1b.0f', 'pat-1b.0f'],
    [String.raw`a(?s:.)b\z`, 'a\nb', 'a\nb\n'],
    ['(?P<tok>ab)+', 'abab', 'ba'],
    ['[a-z_-]{3}', 'a-b', 'A-B'],
  ])('%s matches as in Go', (source, matching, notMatching) => {
    const regex = new RegExp(translateGoRegex(source));
    expect(regex.test(matching)).toBe(true);
    expect(regex.test(notMatching)).toBe(false);
  });

  it('compiles every rule of gitleaks and every allowlist regex', () => {
    expect(GITLEAKS_RULES.rules.length).toBeGreaterThan(200);
    for (const rule of GITLEAKS_RULES.rules) expect(() => compileRule(rule), rule.id).not.toThrow();
  });
});

describe('the secret engine', () => {
  // Each rule of gitleaks finds a secret generated from its own regex, in the rule's own context.
  const formats = gitleaksFormats(2, 5);
  it('finds a generated secret of every gitleaks rule it can generate (at least 190 rules)', () => {
    expect(formats.length).toBeGreaterThanOrEqual(190);
    const missed = formats.filter((format) =>
      format.secrets.some((secret) =>
        redacted(format.named ? `${format.keyword}_api_key = "${secret}"` : `log ${secret} end`).includes(secret),
      ),
    );
    expect(missed.map((format) => format.id)).toEqual([]);
  }, 120_000);

  it('keeps at least 97% of 1,000+ samples in 100+ formats and 20+ syntaxes, plain and as grep -rn prints them', () => {
    const samples = secretSamples();
    expect(samples.length).toBeGreaterThanOrEqual(1_000);
    expect(new Set(samples.map((sample) => sample.format)).size).toBeGreaterThanOrEqual(100);
    expect(new Set(samples.map((sample) => sample.syntax)).size).toBeGreaterThanOrEqual(20);
    for (const view of [(text: string) => text, grepped]) {
      const leaked = samples.filter((sample) => redacted(view(sample.text)).includes(sample.secret));
      expect(leaked.length / samples.length).toBeLessThanOrEqual(0.03);
    }
  }, 120_000);

  const falsePositives = (
    JSON.parse(readFileSync(new URL('./fixtures-gitleaks-false-positives.json', import.meta.url), 'utf8')) as {
      samples: { text: string }[];
    }
  ).samples;
  it("passes at least 95% of lookalikes unchanged: gitleaks' own false positives and riskgate's table", () => {
    const texts = [...falsePositives.map((sample) => sample.text), ...LOOKALIKES.map(([, text]) => text)];
    expect(texts.length).toBeGreaterThanOrEqual(400);
    for (const view of [(text: string) => text, grepped]) {
      const blocked = texts.filter((text) => textHoldsSecret(view(text)));
      expect(blocked.length / texts.length).toBeLessThanOrEqual(0.05);
    }
  }, 120_000);

  it.each(LOOKALIKES.map(([kind, text]) => [kind, text]))('passes a %s unchanged: %s', (_kind, text) => {
    expect(findSecretsIn(text)).toEqual([]);
  });

  // Context rules: exactly the value goes; the text around it stays as it was.
  it.each([
    ['DB_PASSWORD=hunter2abc', 'DB_PASSWORD=[W]'],
    ['app.env:3:DB_PASSWORD=hunter2abc', 'app.env:3:DB_PASSWORD=[W]'],
    ['app.env-3-DB_PASSWORD=hunter2abc', 'app.env-3-DB_PASSWORD=[W]'],
    ['API_TOKEN := "s3cr3tValue99"', 'API_TOKEN := "[W]"'],
    // A password that holds `?.` or `!.` is not read as code (an optional chain reads as code only
    // under a name written as code, with word links).
    // A key whose footer was cut off is withheld up to where its base64 ends, not to the end of the
    // text; a header named in prose or code is no key (it took the rest of its file before).
    [
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NX==\n… 20 more lines not shown …\nexit 0\n',
      '[W]\n… 20 more lines not shown …\nexit 0\n',
    ],
    [
      '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\\nMzEf", "id": 7}',
      '{"private_key": "[W]", "id": 7}',
    ],
    [
      '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nnext: 1',
      '[W]\nnext: 1',
    ],
    [
      '-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj MzEfYyjiWA4R4',
      '[W]',
    ],
    [
      '// A header and footer round nothing (`-----BEGIN PRIVATE KEY-----\\nanything`) is an example.\nconst limit = 12;\n',
      '// A header and footer round nothing (`-----BEGIN PRIVATE KEY-----\\nanything`) is an example.\nconst limit = 12;\n',
    ],
    [
      'Paste the key (it starts with -----BEGIN OPENSSH PRIVATE KEY----- and ends with the END line) below.\nThen run the deploy.\n',
      'Paste the key (it starts with -----BEGIN OPENSSH PRIVATE KEY----- and ends with the END line) below.\nThen run the deploy.\n',
    ],
    ['DB_PASSWORD=x7?.Kq9Lm2', 'DB_PASSWORD=[W]'],
    ['api_token=Xk9?.pQ2mL7vN4', 'api_token=[W]'],
    ['password = "aB?.cD9x7Kq2"', 'password = "[W]"'],
    ['secret: Wq3!.zz81Lp0a', 'secret: [W]'],
    ['const token = match.groups?.token;', 'const token = match.groups?.token;'],
    ['const secret = options!.secret;', 'const secret = options!.secret;'],
    ['const apiKey = this.settings?.["apiKey"];', 'const apiKey = this.settings?.["apiKey"];'],
    ['MAKE_SECRET ?= s3cr3tValue99', 'MAKE_SECRET ?= [W]'],
    ["$db_password .= 's3cr3tValue99';", "$db_password .= '[W]';"],
    ["'db_password' => 's3cr3tValue99',", "'db_password' => '[W]',"],
    ['var apiToken string = "s3cr3tValue99"', 'var apiToken string = "[W]"'],
    ['System.setProperty("X_TOKEN", "s3cr3tValue99");', 'System.setProperty("X_TOKEN", "[W]");'],
    ["define('DB_PASSWORD', 's3cr3tValue99');", "define('DB_PASSWORD', '[W]');"],
    ['body = "{\\"password\\": \\"s3cr3tValue99\\"}"', 'body = "{\\"password\\": \\"[W]\\"}"'],
    ['export GITHUB_TOKEN="s3cr3tValue99"', 'export GITHUB_TOKEN="[W]"'],
    ['db:\n  password: s3cr3tValue99\n', 'db:\n  password: [W]\n'],
    ['[db]\npassword = s3cr3tValue99\n', '[db]\npassword = [W]\n'],
    ['postgres://app:s3cr3tValue99@db:5432/x', 'postgres://app:[W]@db:5432/x'],
    ['curl -u admin:s3cr3tValue99 https://x', 'curl -u [W] https://x'],
    ['Authorization: Basic YWRtaW46czNjcjN0VmFsdWU5OQ==', 'Authorization: Basic [W]'],
    ['<password>s3cr3tValue99</password>', '<password>[W]</password>'],
    ['<key>Password</key>\n<string>s3cr3tValue99</string>', '<key>Password</key>\n<string>[W]</string>'],
    ['<datasource password="s3cr3tValue99" />', '<datasource password="[W]" />'],
    ['machine example.com login bob password s3cr3tValue99', 'machine example.com login bob password [W]'],
    [
      'machine example.com\n  login bob\n  password s3cr3tValue99\n',
      'machine example.com\n  login bob\n  password [W]\n',
    ],
    ['kind: Secret\ndata:\n  username: YWRtaW4=\n', 'kind: Secret\ndata:\n  username: [W]\n'],
    ['{"auths": {"r.io": {"auth": "dXNlcjpzM2NyM3RWYWx1ZTk5"}}}', '{"auths": {"r.io": {"auth": "[W]"}}}'],
    ['mysql -uroot -ps3cr3tValue99 app', 'mysql -uroot -p[W] app'],
    ['tool --api-token=s3cr3tValue99 --verbose', 'tool --api-token=[W] --verbose'],
    ['url: "${BASE}/password/reset"', 'url: "${BASE}/password/reset"'],
    ['Driver={ODBC Driver 17};Server=db;Uid=sa;Pwd=Odbc-pw-12;', 'Driver={ODBC Driver 17};Server=db;Uid=sa;Pwd=[W];'],
    ['GITLAB_PAT=glp4t-plain-99', 'GITLAB_PAT=[W]'],
    ['DB_PWD=hunter2abc', 'DB_PWD=[W]'],
    ['ldap_bind_pw: hunter2abc', 'ldap_bind_pw: [W]'],
    // Tables whose header names a secret column: each value of that column, in every layout.
    ['id,user,password\n1,bob,hunter2\n2,amy,"Tr0ub4dor&3"\n', 'id,user,password\n1,bob,[W]\n2,amy,"[W]"\n'],
    ['id;user;Passwort\n1;bob;hunter2\n', 'id;user;Passwort\n1;bob;[W]\n'],
    ['id;user;pwd_plain\n1;bob;hunter2\n', 'id;user;pwd_plain\n1;bob;[W]\n'],
    ['id\tuser\tapi_key\n1\tbob\tk3y-Value-123\n', 'id\tuser\tapi_key\n1\tbob\t[W]\n'],
    [
      ' id | name | token \n----+------+-------\n  1 | bob  | t0k3n-abc\n(1 row)\n',
      ' id | name | token \n----+------+-------\n  1 | bob  | [W]\n(1 row)\n',
    ],
    [
      '+----+----------+\n| id | password |\n+----+----------+\n|  1 | hunter2  |\n+----+----------+\n',
      '+----+----------+\n| id | password |\n+----+----------+\n|  1 | [W]  |\n+----+----------+\n',
    ],
    ['id|user|secret\n1|bob|hunter2\n', 'id|user|secret\n1|bob|[W]\n'],
    [
      'id  user  password\n--  ----  --------\n1   bob   hunter2\n',
      'id  user  password\n--  ----  --------\n1   bob   [W]\n',
    ],
    [
      '│ id │ client_secret │\n├────┼───────────────┤\n│ 1  │ hunter2abc    │\n',
      '│ id │ client_secret │\n├────┼───────────────┤\n│ 1  │ [W]    │\n',
    ],
    [
      'users.csv:1:id,user,password\nusers.csv:2:1,bob,hunter2\n',
      'users.csv:1:id,user,password\nusers.csv:2:1,bob,[W]\n',
    ],
    ['users.csv:id,user,password\nusers.csv:1,bob,hunter2\n', 'users.csv:id,user,password\nusers.csv:1,bob,[W]\n'],
    // Tables that only look so: counts, prose, empty or masked cells, a key column of words.
    ['id,name,token_count\n1,bob,42\n', 'id,name,token_count\n1,bob,42\n'],
    [
      'Enter your password, then press Enter\nThe form, as shown\n',
      'Enter your password, then press Enter\nThe form, as shown\n',
    ],
    [
      '| Option | Description |\n|---|---|\n| token | The API token |\n',
      '| Option | Description |\n|---|---|\n| token | The API token |\n',
    ],
    ['name,key,value\ncolor,primary,blue\n', 'name,key,value\ncolor,primary,blue\n'],
    ['id,user,password\n1,bob,NULL\n2,amy,\n3,x,********\n', 'id,user,password\n1,bob,NULL\n2,amy,\n3,x,********\n'],
  ])('%j becomes %j', (text, expected) => {
    expect(redacted(text)).toBe(expected);
  });

  it('finds a private key and a JWT wrapped in base64', () => {
    const pem = `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB'.repeat(3)}\n-----END OPENSSH PRIVATE KEY-----\n`;
    const wrapped = Buffer.from(pem)
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    expect(redacted(`key:\n${wrapped}`)).toBe('key:\n[W]\n');
    const jwt = Buffer.from(
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ).toString('base64');
    expect(redacted(`blob ${jwt}`)).toBe('blob [W]');
  });
});
