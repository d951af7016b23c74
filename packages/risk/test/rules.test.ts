import { describe, expect, it } from 'vitest';
import { compilePattern, parseRule, type RuleStyle, ruleMatches } from '../src/index.js';

function allowed(ruleText: string, style: RuleStyle, subjects: string[]): boolean {
  const parsed = parseRule(ruleText, 'allow');
  if (!parsed.ok) throw new Error(parsed.error);
  const tool = parsed.rule.tool;
  return ruleMatches(parsed.rule, tool, style, subjects);
}

describe('parseRule', () => {
  it.each([
    ['execute_command(git log *)', 'execute_command', 'git log *'],
    ['  execute_sql( SELECT * )  ', 'execute_sql', 'SELECT *'],
    ['http_request', 'http_request', undefined],
    ['file_operations(read src/(a)/**)', 'file_operations', 'read src/(a)/**'],
  ])('reads %j', (text, tool, pattern) => {
    const parsed = parseRule(text, 'allow');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.rule.tool).toBe(tool);
      expect(parsed.rule.pattern).toBe(pattern);
    }
  });

  it.each([
    ['', /tool name/],
    ['execute command', /tool name/],
    ['execute_sql(SELECT *', /must end with/],
    ['execute_sql()', /pattern is empty/],
    ['(ls)', /not a tool name/],
  ])('rejects %j with a clear error', (text, message) => {
    const parsed = parseRule(text, 'deny');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('text patterns (commands)', () => {
  it.each([
    ['git log *', 'git log', true],
    ['git log *', 'git log --oneline -5', true],
    ['git log *', 'git  log   -p', true],
    ['git log *', 'git logx', false],
    ['git log *', 'git show', false],
    ['git log *', 'Git log', false],
    ['git log *', 'git log --oneline\nrm -rf ~', false],
    ['ls', 'ls -la', false],
    ['ls', 'ls', true],
    ['echo \\*', 'echo *', true],
    ['echo \\*', 'echo hi', false],
  ])('%j against %j → %s', (pattern, subject, expected) => {
    expect(compilePattern(pattern, 'text')(subject)).toBe(expected);
  });

  it('does not let `git log *` cover `git log; rm -rf ~` (two subjects)', () => {
    expect(allowed('execute_command(git log *)', 'text', ['git log', 'rm -rf ~'])).toBe(false);
  });

  it('never allows a call with no subjects by a pattern', () => {
    expect(allowed('execute_command(*)', 'text', [])).toBe(false);
    expect(allowed('execute_command', 'text', [])).toBe(true);
  });
});

describe('sql patterns', () => {
  it.each([
    ['SELECT *', 'select id from orders', true],
    ['SELECT *', 'SELECT   1', true],
    ['SELECT * FROM orders*', 'SELECT id FROM orders WHERE x = 1', true],
    ['SELECT *', 'DELETE FROM orders', false],
    ['SELECT *', 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', false],
  ])('%j against %j → %s', (pattern, subject, expected) => {
    expect(compilePattern(pattern, 'sql')(subject)).toBe(expected);
  });

  it('needs every statement to match', () => {
    expect(allowed('execute_sql(SELECT *)', 'sql', ['SELECT 1', 'DROP TABLE t'])).toBe(false);
  });
});

describe('path patterns (files)', () => {
  it.each([
    ['read src/**', 'read src/a.ts', true],
    ['read src/**', 'read src/deep/er/a.ts', true],
    ['read src/**', 'read src', true],
    ['read src/**', 'read srcx/a.ts', false],
    ['read src/*', 'read src/deep/a.ts', false],
    ['read src/*.ts', 'read src/a.ts', true],
    ['read src/*.ts', 'read src/a.tsx', false],
    ['read **/*.md', 'read docs/x/README.md', true],
    ['read **/*.md', 'read README.md', true],
    ['read src/**', 'write src/a.ts', false],
    ['read src/?.ts', 'read src/a.ts', true],
    // Shell glob semantics (picomatch): no wildcard matches a name starting with a dot.
    ['read src/*', 'read src/.env', false],
    ['read src/**', 'read src/.env', false],
    ['read src/**', 'read src/deep/.env.local', false],
    ['read src/**', 'read src/.git/config', false],
    ['read **', 'read .env', false],
    ['read *', 'read .ssh', false],
    ['read src/?env', 'read src/.env', false],
    ['read src/.env', 'read src/.env', true],
    ['read src/.*', 'read src/.env', true],
    ['read src/*.{ts,md}', 'read src/a.md', true],
    ['read src/*.{ts,md}', 'read src/a.js', false],
    ['read src/[ab].ts', 'read src/b.ts', true],
    ['* src/*.ts', 'write src/a.ts', true],
    ['src/*.ts', 'list src/a.ts', true],
    ['read src/*', 'read src', false],
    ['read /etc/*', 'read /etc/hosts', true],
    ['read /etc/*', 'read /etc/ssh/sshd_config', false],
  ])('%j against %j → %s', (pattern, subject, expected) => {
    expect(compilePattern(pattern, 'path')(subject)).toBe(expected);
  });
});

describe('url patterns (HTTP)', () => {
  it.each([
    ['GET https://api.example.com/*', 'GET https://api.example.com/v1/users?id=3', true],
    ['GET https://api.example.com/*', 'POST https://api.example.com/v1/users', false],
    ['get https://api.example.com/*', 'GET https://api.example.com/', true],
    ['GET https://api.example.com/*', 'GET https://api.example.com.evil.net/', false],
    ['GET https://api.example.com/*', 'GET https://api.example.com@evil.net/', false],
    ['GET https://api.example.com/*', 'GET http://api.example.com/', false],
    ['GET https://*.example.com/*', 'GET https://a.b.example.com/x', true],
    ['GET https://*.example.com/*', 'GET https://evil.com/?.example.com/', false],
    ['GET https://*.example.com/*', 'GET https://evil.com#.example.com/', false],
    ['GET https://*.example.com/*', 'GET https://evil.com:443@x.example.com/', false],
    ['GET https://*.example.com/*', 'GET https://evilexample.com/', false],
    ['* https://api.example.com/*', 'DELETE https://api.example.com/x', true],
    ['GET https://api.example.com', 'GET https://api.example.com/', true],
    ['GET https://api.example.com', 'GET https://api.example.com/admin', false],
  ])('%j against %j → %s', (pattern, subject, expected) => {
    expect(compilePattern(pattern, 'url')(subject)).toBe(expected);
  });
});
