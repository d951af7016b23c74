import { describe, expect, it } from 'vitest';
import { contentHoldsSecret } from '../src/index.js';

/** The one content test: credential stores in every syntax are secret; code, prose and examples are not. */
describe('content that holds a secret', () => {
  it.each([
    ['dotenv', 'DB_PASSWORD=s3cr3t-Pg1\n'],
    ['Dockerfile ENV without =', 'FROM node:20\nENV STRIPE_API_KEY sk9-Docker-v4lue\n'],
    ['plist', '<dict>\n<key>Password</key>\n<string>Pl1st-pw-77</string>\n</dict>\n'],
    [
      'a private key wrapped in base64',
      `tls.key: ${Buffer.from('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x9Zq3Lp0abcdefghijklmnopqrstuvwxyz0123456789ABCDEF\n-----END RSA PRIVATE KEY-----\n').toString('base64')}\n`,
    ],
    ['a CSV with a password column', 'id,email,password\n1,bob@example.com,Tr0ub4dor&3\n'],
    ['export', 'export API_TOKEN=tok_9f8e7d6c5b\n'],
    ['YAML', 'db:\n  password: hunter22\n'],
    ['YAML list item', 'environment:\n  - POSTGRES_PASSWORD=pg-9x7c\n'],
    ['Makefile :=', 'API_SECRET := a8f7e6d5c4\n'],
    ['properties', 'spring.datasource.password=Spr1ng!\n'],
    ['TOML', '[registry]\ntoken = "cio7d8e9f0a1b2"\n'],
    ['JSON', '{"user":"app","password":"J50n-pa55"}\n'],
    ['PHP array', "return ['password' => 'lara-v3l'];\n"],
    ['PHP define', "define( 'DB_PASSWORD', 'wp-p4ss' );\n"],
    ['Python', "SECRET_KEY = 'django-insecure-8h3k2'\n"],
    ['XML element', '<server><password>mvn-p4ss</password></server>\n'],
    ['XML element with attributes', '<Pass encoding="base64">c2VjcmV0MTIz</Pass>\n'],
    ['XML attribute pair', '<add key="ClearTextPassword" value="nuG3t!" />\n'],
    ['connection string', '"Default": "Server=db;User Id=sa;Password=Adm1n!;"\n'],
    ['netrc on one line', 'machine api.heroku.com login dev password 0123abcd-tok\n'],
    ['netrc over lines', 'machine example.com\n  login dev\n  password n3trc-pw\n'],
    ['msmtp', 'account default\nhost smtp.example.com\npassword Sm7p-s3cret\n'],
    ['URL user info', 'remote = https://dev:ghs9x8c7v6@git.example.com/repo\n'],
    ['curl -u', '--user ci:curl-9p4ss\n'],
    ['curlrc user', 'user = "dev:c7rlrc!"\n'],
    ['inline NAME=value', 'web1 ansible_host=10.0.0.5 ansible_become_pass=b3c0me!\n'],
    ['cookie jar', '.googlesource.com\tTRUE\t/\tTRUE\t2147483647\to\tgit-dev=1//0abcdef123\n'],
    ['Jenkins secret', '<password>{AQAAABAAAAAQ1/JHKggxIlBcuVqegoa2AdyVaNvjWIFk430/vI4jEBM=}</password>\n'],
    ['a token format', 'note: ghp_7Rk2Qw9Zp4Lm8Xv3Nc6Tb1Hy5Jd0Fs2Ga9Ke4\n'],
    [
      'a private key',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n',
    ],
  ])('%s', (_syntax, text) => {
    expect(contentHoldsSecret(text)).toBeDefined();
  });
});

describe('content that does not', () => {
  it.each([
    ['Dockerfile ENV of a setting', 'FROM node:20\nENV NODE_ENV production\nENV API_TOKEN ${API_TOKEN}\n'],
    [
      'plist of settings',
      '<dict>\n<key>PasswordLength</key>\n<integer>12</integer>\n<key>Password</key>\n<string>changeme</string>\n</dict>\n',
    ],
    ['a CSV of counts', 'id,name,token_count\n1,bob,42\n'],
    ['a lockfile of versions', '      pg-connection-string: 2.14.1\n"pg-connection-string": "^2.9.1"\n'],
    ['an example env', 'DATABASE_URL=postgres://user:password@localhost:5432/app\nSECRET_KEY=changeme\nAPI_TOKEN=\n'],
    ['placeholders', 'API_KEY=your-api-key-here\nTOKEN=<token>\nPASSWORD=xxxxxxxx\nSECRET=${SECRET}\n'],
    ['a reference to the environment', "password = os.environ['DB_PASSWORD']\ntoken = process.env.TOKEN\n"],
    ['code that passes a password along', 'def login(password):\n    token = sign(password)\n    return token\n'],
    ['a type', 'interface Login {\n  password: string\n  token: string;\n}\n'],
    ['a schema', 'password: z.string().min(8),\n'],
    ['a config reference', 'password: config.password\n'],
    ['a form field', '<input type="password" name="password">\n'],
    ['prose about passwords', 'The password hashes live in /etc/shadow.\nA secret read is asked.\n'],
    ['a URL template', 'expected mysql://user[:password]@host[:port]/database\n'],
    ['test keys made of words', "new OpenAI({ apiKey: 'test-key' })\nconst config = { apiKey: 'needs-trust' };\n"],
    [
      'identifiers',
      'progressToken: ProgressTokenSchema\nTOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange"\n',
    ],
    ['a flag', 'exports.PLUGIN_AUTH = 524288;\n'],
    ['an elided key', 'export OPENAI_API_KEY=sk-…  RISKGATE_MODEL=gpt-4.1-mini\n'],
    ['a format field', 'password = "{password}"\n'],
    ['a public key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl dev@laptop\n'],
    ['a key header in prose', 'Paste the block that starts with `-----BEGIN PRIVATE KEY-----` into the box.\n'],
    ['/etc/group', 'ssl-cert:x:112:postgres\n'],
  ])('%s', (_what, text) => {
    expect(contentHoldsSecret(text)).toBeUndefined();
  });
});
