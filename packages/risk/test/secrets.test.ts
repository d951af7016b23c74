import { describe, expect, it } from 'vitest';
import { findSecrets, redactSecrets, redactValue } from '../src/index.js';

describe('secrets', () => {
  it.each([
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', 'a private key'],
    ['key AKIAIOSFODNN7EXAMPLE here', 'an AWS access key'],
    ['ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'a GitHub token'],
    ['sk-proj-abcdefghijklmnopqrstuvwx', 'an API secret key'],
    [
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'a JSON Web Token',
    ],
  ])('finds and redacts %s', (text, what) => {
    expect(findSecrets(text)).toContain(what);
    expect(redactSecrets(text)).toContain(`[redacted: ${what}]`);
    expect(findSecrets(redactSecrets(text))).toEqual([]);
  });

  it('redacts passwords in URLs and secret-named fields, deep', () => {
    expect(redactSecrets('postgres://app:hunter2@db:5432/x')).toBe('postgres://app:***@db:5432/x');
    expect(
      redactValue({
        url: 'https://x',
        headers: { Authorization: 'Bearer abc', Accept: 'json' },
        list: [{ password: 'p' }],
      }),
    ).toEqual({
      url: 'https://x',
      headers: { Authorization: '***', Accept: 'json' },
      list: [{ password: '***' }],
    });
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets("SELECT * FROM orders WHERE status = 'sk-short'")).toBe(
      "SELECT * FROM orders WHERE status = 'sk-short'",
    );
  });

  // A password has no format: the audit log and the OpenTelemetry export know it by its variable's name.
  it.each([
    ['PGPASSWORD=hunter2 psql -h db', 'PGPASSWORD=*** psql -h db'],
    ["PGPASSWORD='two words' psql", 'PGPASSWORD=*** psql'],
    ['PGPASSWORD="x9f!Kq2#pLm" psql', 'PGPASSWORD=*** psql'],
    ['export MYSQL_PWD=Zq8vT3xW9 && mysql', 'export MYSQL_PWD=*** && mysql'],
    ['env -i AWS_SECRET_ACCESS_KEY=abc aws s3 ls', 'env -i AWS_SECRET_ACCESS_KEY=*** aws s3 ls'],
    ['a=1;GITHUB_TOKEN=abc gh pr list', 'a=1;GITHUB_TOKEN=*** gh pr list'],
    ['sh -c "API_KEY=abc ./run"', 'sh -c "API_KEY=*** ./run"'],
    ['(SSHPASS=abc sshpass -e ssh host)', '(SSHPASS=*** sshpass -e ssh host)'],
  ])('redacts the value of a secret-named assignment: %s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it.each([
    'PATH=/usr/bin ls',
    'LANG=C sort x',
    'PWD=/tmp ls',
    'grep -c x=1 file',
    'SELECT * FROM t WHERE token_count=3',
  ])('leaves an assignment that names no secret alone: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
