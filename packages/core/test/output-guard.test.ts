import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutputGuard, guardToolResult } from '../src/index.js';
import { createHarness, type Harness, toolMessages } from './helpers.js';

const PEM = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDmCSecretKeyMaterial',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');
const OWN_KEY = 'sk-proj-OwnRiskgateKey0123456789abcdefXYZ';

describe('the output guard', () => {
  const guard = createOutputGuard({
    env: {
      OPENAI_API_KEY: OWN_KEY,
      MY_DB_PASSWORD: 'correct-horse-battery',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin:/bin',
    },
    secretValues: ['cfg-key-0123456789'],
  });

  // Each row: output a whitelisted read could return, and the secret in it that must not reach the model.
  it.each([
    ['a PEM private key, renamed backup.txt', `backup:\n${PEM}\nend`, 'SecretKeyMaterial', 'a private key'],
    [
      'an RSA key cut off by the output cap',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretbody',
      'MIIEowIBAAKCAQEAsecretbody',
      'a private key',
    ],
    [
      'a PGP private key block',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGSecretPgp\n-----END PGP PRIVATE KEY BLOCK-----',
      'lQOYBGSecretPgp',
      'a private key',
    ],
    [
      'a PuTTY key',
      'PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIPuttySecret\nPrivate-MAC: 0123abcd',
      'AAAAIPuttySecret',
      'a private key (PuTTY)',
    ],
    ["riskgate's own key, by value", `debug: using key ${OWN_KEY}`, OWN_KEY, 'the value of OPENAI_API_KEY'],
    ["riskgate's own key in another variable's dump", `LLM=${OWN_KEY}`, OWN_KEY, 'the value of OPENAI_API_KEY'],
    ['the configured key (from the config file)', 'x cfg-key-0123456789 y', 'cfg-key-0123456789', "riskgate's API key"],
    [
      "a secret variable's value from riskgate's environment",
      'conn ok as correct-horse-battery',
      'correct-horse-battery',
      'the value of MY_DB_PASSWORD',
    ],
    [
      'a GitHub token in a log',
      'push with ghp_7Rk2Qw9Zp4Lm8Xv3Nc6Tb1Hy5Jd0Fs2Ga9Ke4 failed',
      'ghp_7Rk2Qw9Zp4Lm8Xv3Nc6T',
      'a secret (github-pat)',
    ],
    ['an AWS access key id', 'key AKIAZ7QX3PLMN4RT2VWY', 'AKIAZ7QX3PLMN4RT2VWY', 'a secret (aws-access-token)'],
    ['a GitLab token', 'glpat-Zx9Qw8Er7Ty6Ui5Op4As', 'glpat-Zx9Qw8Er7Ty6Ui5Op4As', 'a secret (gitlab-pat)'],
    [
      'an npm token',
      'npm_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8',
      'npm_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8',
      'a secret (npm-access-token)',
    ],
    [
      'a JWT',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'dozjgNryP4J3jVmNHl0w5N',
      'an Authorization header',
    ],
    [
      'a committed .env',
      'DB_HOST=localhost\nDB_PASSWORD=hunter2!\nSTRIPE_SECRET_KEY=whsec_abcdef\n',
      'hunter2!',
      'the value of DB_PASSWORD',
    ],
    ['an exported secret', 'export GITHUB_TOKEN="tok-in-quotes"', 'tok-in-quotes', 'the value of GITHUB_TOKEN'],
    [
      'docker inspect Env',
      '"Env": ["POSTGRES_PASSWORD=pg-secret-pw", "PATH=/usr/bin"]',
      'pg-secret-pw',
      'the value of POSTGRES_PASSWORD',
    ],
    ['a YAML password', 'database:\n  password: yaml-secret-pw\n', 'yaml-secret-pw', 'the value of password'],
    [
      'a JSON client secret',
      '{"client_secret": "json-secret-value"}',
      'json-secret-value',
      'the value of client_secret',
    ],
    [
      'AWS credentials file',
      '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = 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',
      'wJalrXUtnFEMI',
      'the value of aws_secret_access_key',
    ],
  ])('withholds %s', (_what, output, secret, what) => {
    const result = guard(output);
    expect(result.text).not.toContain(secret);
    expect(result.withheld).toContain(what);
    expect(result.text).toContain(`[withheld: ${what} — shown to the person only]`);
  });

  // Helpfulness: ordinary output passes untouched.
  it.each([
    ['a directory listing', 'total 8\n-rw-r--r-- 1 me me 12 notes.txt\n'],
    ['git log', 'commit 3f2a1b\nAuthor: Me <me@example.com>\n\n    fix the token parser\n'],
    [
      'settings named like secrets',
      'PasswordAuthentication no\nPasswordAuthentication=no\nrequire_password: true\ntoken_count: 1234\n',
    ],
    ['a JSON key field', '[{"key": "user.name", "value": "Me"}]'],
    ['placeholders', 'DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=****\n'],
    ['a public key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host'],
    ['a short secret-named value from the environment (too short to look for)', 'abc abc abc'],
    ['PATH', '/usr/bin:/bin'],
  ])('passes %s unchanged', (_what, output) => {
    expect(guard(output)).toEqual({ text: output, withheld: [] });
  });

  it('lets what the person approved pass unchanged, and shows the person the original', () => {
    expect(guardToolResult(guard, true, PEM)).toEqual({ forModel: PEM });
    const unasked = guardToolResult(guard, false, `a\n${PEM}`);
    expect(unasked.forModel).not.toContain('SecretKeyMaterial');
    expect(unasked.forPerson).toBe(`a\n${PEM}\n[withheld from the model: a private key]`);
  });
});

describe('the output guard in the agent loop (real turn, real command, scripted model)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });
  const cat = (extra: Record<string, unknown> = {}) => ({
    name: 'execute_command',
    arguments: { command: 'cat notes.txt', ...extra },
  });

  // The assessor asks before a read of a file whose content holds a secret (it reads the whole
  // file): a token at the end of a long log is asked about, not left to the guard. What reaches
  // the guard is output no file holds as such: here a token the command assembles.
  const TOKEN = 'ghp_7Rk2Qw9Zp4Lm8Xv3Nc6Tb1Hy5Jd0Fs2Ga9Ke4';
  const LONG_LOG = 'GET /health 200\n'.repeat(20_000);
  it('sends the model a redacted result of a whitelisted command whose output holds a token; the person sees it', async () => {
    const command = `printf 'push failed with ghp_%s\\n' '${TOKEN.slice(4)}'`;
    harness = await createHarness([
      { toolCalls: [cat({ command })] },
      { text: 'The output holds a token, which I did not see.' },
    ]);
    await harness.turn('What did the push say?');
    expect(harness.confirmer.asked).toHaveLength(0);
    expect(toolMessages(harness)[0]).toContain(
      'push failed with [withheld: a secret (github-pat) — shown to the person only]',
    );
    // What went over the wire to the model.
    const sent = JSON.stringify(harness.server.requests[1]!.body.messages);
    expect(sent).not.toContain(TOKEN);
    const result = harness.events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({ forPerson: expect.stringContaining(TOKEN) });
    expect(result).toMatchObject({
      forPerson: expect.stringContaining('[withheld from the model: a secret (github-pat)]'),
    });
  });

  it('asks before a tail of a long log whose token lies past the first 256 KiB (the whole file is judged)', async () => {
    harness = await createHarness(
      [{ toolCalls: [cat({ command: 'tail -n 1 app.log' })] }, { text: 'I was not allowed to read it.' }],
      { answers: [{ type: 'deny' }] },
    );
    writeFileSync(join(harness.directory, 'app.log'), `${LONG_LOG}push failed with ${TOKEN}\n`);
    await harness.turn('What is in app.log?');
    expect(harness.confirmer.asked).toHaveLength(1);
    expect(JSON.stringify(harness.server.requests[1]!.body.messages)).not.toContain(TOKEN);
  });

  it('passes what the person approved unchanged', async () => {
    harness = await createHarness(
      [{ toolCalls: [cat({ command: 'cat app.log', risk_level: 'high' })] }, { text: 'Here it is.' }],
      { answers: [{ type: 'approve' }] },
    );
    writeFileSync(join(harness.directory, 'app.log'), `push failed with ${TOKEN}\n`);
    await harness.turn('Show me app.log, token included');
    expect(harness.confirmer.asked).toHaveLength(1);
    expect(toolMessages(harness)[0]).toContain(TOKEN);
    expect(harness.events.find((event) => event.type === 'tool-result')).not.toHaveProperty('forPerson');
  });
});
