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
});
