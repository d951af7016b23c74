import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, startScriptedModelServer } from '@riskgate/testing';
import Database from 'better-sqlite3';
import { probeSandbox } from '@riskgate/tools-command';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const home = mkdtempSync(join(tmpdir(), 'riskgate-doctor-'));
const project = join(home, 'project');
let server: ScriptedModelServer;
// passEnvironment and sandbox are the person's settings: written to the user file, which a
// project cannot override before it is trusted.
const userConfig = join(home, 'config', 'riskgate', 'config.json');
beforeAll(async () => {
  mkdirSync(join(project, '.riskgate'), { recursive: true });
  mkdirSync(join(home, 'config', 'riskgate'), { recursive: true });
  server = await startScriptedModelServer([]);
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** A loopback port nothing listens on (one that was just free). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built CLI with a clean environment: no key or model of the machine leaks in. */
function doctor(env: Record<string, string>, args: string[] = []) {
  const clean: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    ...env,
  };
  return runCli(['doctor', ...args], { env: clean, cwd: project });
}

describe('riskgate doctor', () => {
  it('reports the config layers, the sandbox, the model endpoint, the database and what commands do not get', async () => {
    writeFileSync(userConfig, '{"commands":{"passEnvironment":["GITHUB_TOKEN"]}}');
    writeFileSync(join(project, '.riskgate', 'config.json'), '{"mode":"strict"}');
    const result = await doctor({
      RISKGATE_MODEL: 'scripted-model',
      OPENAI_BASE_URL: server.baseURL,
      RISKGATE_DATABASE: 'postgres://postgres@127.0.0.1:5432/postgres',
      GITHUB_TOKEN: 'ghp_passed',
      NPM_TOKEN: 'npm_withheld',
      CELERY_BROKER_URL: 'amqp://celery:c3l3ry-pw-99@rabbit:5672/vhost',
    });
    expect(result.stdout).toContain(
      `project  ${join(project, '.riskgate', 'config.json')} (read; not trusted: it may only tighten the gate ("riskgate trust"))`,
    );
    expect(result.stdout).toContain(`user     ${userConfig} (read)`);
    expect(result.stdout).toMatch(new RegExp(`✓ model +scripted-model at ${server.baseURL.replace(/[.]/g, '\\.')}`));
    expect(result.stdout).toMatch(/reachable \(GET \/models: HTTP 200\)/);
    expect(result.stdout).toMatch(/✓ database +postgres .*127\.0\.0\.1.*: reachable/);
    expect(result.stdout).toMatch(/commands do not get: .*NPM_TOKEN/);
    // By value: an innocent name whose value is a URL with a password.
    expect(result.stdout).toMatch(/commands do not get: .*CELERY_BROKER_URL/);
    expect(result.stdout).not.toMatch(/do not get: .*GITHUB_TOKEN/);
    const sandbox = await probeSandbox();
    expect(result.stdout).toContain(`sandbox     ${sandbox.message}`);
    // Which mechanism bounds sandboxed runs here, and the bounds: what this machine really offers.
    const { cgroupHome } = await import('@riskgate/tools-command');
    const mechanism = { 'cgroup-v2': 'cgroup v2', 'cgroup-v1': 'cgroup v1', rlimits: 'rlimits' }[
      cgroupHome()?.mechanism ?? 'rlimits'
    ];
    if (sandbox.available)
      expect(result.stdout).toMatch(
        new RegExp(
          `bounds: ${mechanism}.*: 256 processes, 1 GiB memory, CPU time = the timeout, 256 MiB per file, 256 MiB /tmp`,
        ),
      );
    expect(result.code).toBe(0);
  });

  it('says what is broken and exits 1: an unreachable model, a database that does not answer', async () => {
    rmSync(join(project, '.riskgate', 'config.json'), { force: true });
    rmSync(userConfig, { force: true });
    const port = await closedPort();
    const result = await doctor({
      RISKGATE_MODEL: 'm',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      RISKGATE_DATABASE: `postgres://postgres@127.0.0.1:${port}/x`,
    });
    expect(result.stdout).toMatch(
      new RegExp(`✗ model +m at http://127\\.0\\.0\\.1:${port}/v1\\n +not reachable \\(ECONNREFUSED\\)`),
    );
    expect(result.stdout).toMatch(/✗ database/);
    expect(result.code).toBe(1);
  });

  it.each<[string, Record<string, string>, string | undefined, RegExp[]]>([
    [
      'a service and PGPASSWORD',
      { PGSERVICE: 'nightly', PGPASSWORD: 'Doctor-Pw-51' },
      '[nightly]\nhost=127.0.0.1\nport=5432\nuser=postgres\ndbname=postgres\n',
      [
        /✓ database +postgres postgres:\/\/postgres@127\.0\.0\.1:5432\/postgres: reachable \(from PGPASSWORD, PGSERVICE\)/,
        /host: 127\.0\.0\.1 \(from service "nightly" in ~\/\.pg_service\.conf\)/,
        /password: set \(from PGPASSWORD\)/,
        /sslmode: prefer \(from default\)/,
      ],
    ],
    [
      'DATABASE_URL with a password',
      { DATABASE_URL: 'mysql://root:Doctor-Pw-51@127.0.0.1:3306/test' },
      undefined,
      [
        /✗ database +mysql:\/\/root@127\.0\.0\.1:3306\/test \(from DATABASE_URL\)/,
        /password: set \(from DATABASE_URL\)/,
        /Access denied/,
      ],
    ],
    [
      'a scheme riskgate does not open',
      { DATABASE_URL: 'redis://cache:6379' },
      undefined,
      [/✗ database +DATABASE_URL is a redis:\/\/ URL/],
    ],
  ])('names where each database setting came from, never the password: %s', async (_name, env, service, expected) => {
    if (service !== undefined) writeFileSync(join(home, '.pg_service.conf'), service);
    try {
      const result = await doctor({ RISKGATE_MODEL: 'm', OPENAI_BASE_URL: server.baseURL, ...env });
      for (const pattern of expected) expect(result.stdout).toMatch(pattern);
      expect(result.stdout).not.toContain('Doctor-Pw-51');
    } finally {
      rmSync(join(home, '.pg_service.conf'), { force: true });
    }
  });

  it('names an invalid config file and the field', async () => {
    writeFileSync(userConfig, '{"commands":{"sandbox":"sometimes"}}');
    const result = await doctor({});
    expect(result.stdout).toMatch(/✗ config +.*config\.json: commands\.sandbox: /);
    expect(result.code).toBe(1);
    rmSync(userConfig);
  });

  it('reports a sandbox the person switched off', async () => {
    writeFileSync(userConfig, '{"commands":{"sandbox":"off"}}');
    const result = await doctor({});
    expect(result.stdout).toMatch(/✓ sandbox +off \(commands\.sandbox is "off"\)/);
    rmSync(userConfig);
  });

  it('rejects a stray argument and an unknown option, naming its own help', async () => {
    for (const args of [['now'], ['--frobnicate'], ['--mode', 'yolo']]) {
      const result = await doctor({}, args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^riskgate doctor: /);
      expect(result.stderr).toContain('Run "riskgate doctor --help" for usage.');
    }
  });

  it('checks what --model, --base-url and --db name, as the assistant would use them', async () => {
    const other = await startScriptedModelServer([]);
    try {
      const database = join(home, 'flagged.sqlite');
      new Database(database).exec('CREATE TABLE t (x)');
      const result = await doctor(
        { RISKGATE_MODEL: 'from-environment', OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` },
        ['--model', 'flag-model', '--base-url', other.baseURL, '--db', database, '--mode', 'strict'],
      );
      expect(result.stdout).toContain(`✓ model       flag-model at ${other.baseURL}`);
      expect(result.stdout).toMatch(/reachable \(GET \/models: HTTP \d+\)/);
      expect(result.stdout).toMatch(/✓ database +sqlite .*flagged\.sqlite.*reachable \(from --db\)/);
      expect(result.stdout).toMatch(/mode strict/);
      expect(result.code).toBe(0);
    } finally {
      await other.close();
    }
  });
});
