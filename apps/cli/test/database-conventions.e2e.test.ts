import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, startScriptedModelServer } from '@riskgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * `riskgate sql -p` with no --db: the database the conventions name (DATABASE_URL, PG*
 * variables, ~/.my.cnf), said on stderr with its source, and the password nowhere riskgate
 * writes or sends: not the model's requests, the answer, stderr, the transcript or the audit log.
 */
let directory: string;
let server: ScriptedModelServer | undefined;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'riskgate-e2e-conventions-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Every file under a directory, as text. */
function everything(path: string): string {
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

async function ask(env: Record<string, string>, query: string) {
  server = await startScriptedModelServer([
    { toolCalls: [{ name: 'execute_sql', arguments: { sql: query } }] },
    { text: 'Done.' },
  ]);
  const home = mkdtempSync(join(directory, 'home-'));
  if (env.MY_CNF !== undefined) writeFileSync(join(home, '.my.cnf'), env.MY_CNF, { mode: 0o600 });
  const { MY_CNF: _, ...rest } = env;
  const result = await runCli(['sql', '-p', 'Which database is this?'], {
    env: {
      HOME: home,
      OPENAI_BASE_URL: server.baseURL,
      RISKGATE_MODEL: 'scripted-model',
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      XDG_CACHE_HOME: join(home, 'cache'),
      DATABASE_URL: '',
      ...rest,
    },
  });
  const toolResult = JSON.stringify(server.requests[1]?.body.messages ?? []);
  const written = everything(home);
  return { ...result, toolResult, requests: JSON.stringify(server.requests), written };
}

describe('riskgate sql without --db', () => {
  it.each<[string, Record<string, string>, string, RegExp, string]>([
    [
      'only DATABASE_URL',
      { DATABASE_URL: 'postgres://postgres:Url-Pass-71@127.0.0.1:5432/template1' },
      'SELECT current_database() AS db',
      /SQL on postgres:\/\/postgres@127\.0\.0\.1:5432\/template1 \(from DATABASE_URL\)/,
      'template1',
    ],
    [
      'only PG* variables',
      { PGHOST: '127.0.0.1', PGUSER: 'postgres', PGDATABASE: 'template1', PGPASSWORD: 'Env-Pass-72' },
      'SELECT current_database() AS db',
      /SQL on postgres:\/\/postgres@127\.0\.0\.1:5432\/template1 \(from PGHOST, PGDATABASE, PGUSER, PGPASSWORD\)/,
      'template1',
    ],
    [
      'only ~/.my.cnf',
      { MY_CNF: '[client]\nhost=127.0.0.1\nuser=root\ndatabase=test\n', USER: 'nobody-here' },
      'SELECT DATABASE() AS db',
      /SQL on mysql:\/\/root@127\.0\.0\.1:3306\/test \(from ~\/\.my\.cnf\)/,
      'test',
    ],
  ])(
    '%s: connects, says where from, and keeps the password to itself',
    async (_name, env, query, said, database) => {
      const result = await ask(env, query);
      expect(result.stderr).toMatch(said);
      expect(result.toolResult).toContain(database);
      expect(result.code).toBe(0);
      for (const secret of ['Url-Pass-71', 'Env-Pass-72']) {
        expect(result.requests).not.toContain(secret);
        expect(result.stdout + result.stderr).not.toContain(secret);
        // The transcript and the audit log (under XDG_STATE_HOME in the temporary home).
        expect(result.written).not.toContain(secret);
      }
    },
    60_000,
  );

  it('a DATABASE_URL riskgate cannot open is a clear error, never the demo in its place', async () => {
    const result = await ask({ DATABASE_URL: 'redis://:Redis-Pass-73@cache:6379' }, 'SELECT 1');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/DATABASE_URL is a redis:\/\/ URL/);
    expect(result.stderr).not.toContain('Redis-Pass-73');
    expect(result.requests).toBe('[]');
  }, 60_000);

  it('a wrong password named in DATABASE_URL stays out of the error', async () => {
    const result = await ask({ DATABASE_URL: 'mysql://root:Wrong-Pass-74@127.0.0.1:3306/test' }, 'SELECT 1');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Access denied/);
    expect(result.stderr + result.written).not.toContain('Wrong-Pass-74');
  }, 60_000);
});
