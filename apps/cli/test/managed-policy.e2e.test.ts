import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './run-cli.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const rmVictim: ScriptedReply = {
  toolCalls: [{ name: 'execute_command', arguments: { command: 'rm -rf victim', risk_level: 'low' } }],
};

/**
 * The person trusts a checkout whose .riskgate/ says yolo and allows rm; their own config allows
 * rm too. The organisation's policy (named by RISKGATE_MANAGED_POLICY: /etc is not the tests' to
 * write) denies it.
 */
async function setup(replies: ScriptedReply[], policy: unknown = { rules: { deny: ['execute_command(rm *)'] } }) {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-policy-e2e-')));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const server: ScriptedModelServer = await startScriptedModelServer(replies);
  cleanups.push(() => server.close());
  const checkout = join(directory, 'checkout');
  mkdirSync(join(checkout, '.riskgate'), { recursive: true });
  writeFileSync(
    join(checkout, '.riskgate', 'config.json'),
    JSON.stringify({ mode: 'yolo', rules: { allow: ['execute_command(rm *)'] } }),
  );
  const victim = join(checkout, 'victim');
  mkdirSync(victim);
  writeFileSync(join(victim, 'precious.txt'), 'keep me');
  mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
  writeFileSync(
    join(directory, 'config', 'riskgate', 'config.json'),
    JSON.stringify({ rules: { allow: ['execute_command(rm *)'] }, trustedProjects: [checkout] }),
  );
  const policyPath = join(directory, 'managed-policy.json');
  writeFileSync(policyPath, typeof policy === 'string' ? policy : JSON.stringify(policy));
  const env: Record<string, string> = {
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'sk-test',
    RISKGATE_MODEL: 'scripted-model',
    RISKGATE_MODE: 'yolo',
    RISKGATE_MANAGED_POLICY: policyPath,
    RISKGATE_TELEMETRY: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    XDG_CONFIG_HOME: join(directory, 'config'),
    XDG_STATE_HOME: join(directory, 'state'),
    XDG_CACHE_HOME: join(directory, 'cache'),
  };
  return { server, checkout, victim, env, policyPath };
}

/** A real OTLP/HTTP (JSON) receiver on loopback: the log records it was sent, decoded. */
async function otlpReceiver() {
  const records: Record<string, unknown>[] = [];
  const bodies: string[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      if (request.url === '/v1/logs') {
        type Value = { stringValue?: string; boolValue?: boolean; arrayValue?: { values?: Value[] } };
        const plain = (value: Value): unknown =>
          value.arrayValue !== undefined
            ? (value.arrayValue.values ?? []).map(plain)
            : (value.stringValue ?? value.boolValue);
        const decoded = JSON.parse(body) as {
          resourceLogs: { scopeLogs: { logRecords: { attributes: { key: string; value: Value }[] }[] }[] }[];
        };
        for (const resource of decoded.resourceLogs)
          for (const scope of resource.scopeLogs)
            for (const record of scope.logRecords)
              records.push(Object.fromEntries(record.attributes.map(({ key, value }) => [key, plain(value)])));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, records, bodies };
}

describe('a managed policy through the real CLI', () => {
  it('refuses rm in headless mode against --yolo, RISKGATE_MODE=yolo, a user allow rule and a trusted yolo project', async () => {
    const { server, checkout, victim, env } = await setup([rmVictim, { text: 'I could not delete it.' }]);
    const result = await runCli(['--yolo', '-p', 'delete the victim folder'], { env, cwd: checkout });
    expect(existsSync(join(victim, 'precious.txt'))).toBe(true);
    expect(result.stderr).toContain("your organisation's policy denies execute_command(rm *)");
    // What the model was told: a refusal that does not invite another way.
    const toolResult = JSON.stringify(server.requests[1]?.body.messages.at(-1));
    expect(toolResult).toMatch(/refused by policy, not by a rule the person can change: do not try it another way/);
  });

  it('exports the refusal to an OTLP collector, flushed before the process exits', async () => {
    const receiver = await otlpReceiver();
    const { checkout, victim, env } = await setup([rmVictim, { text: 'done' }]);
    const result = await runCli(['-p', 'delete the victim folder'], {
      env: {
        ...env,
        RISKGATE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
      cwd: checkout,
    });
    expect(result.code).not.toBe(-1);
    expect(existsSync(victim)).toBe(true);
    expect(receiver.records).toContainEqual(
      expect.objectContaining({
        'riskgate.tool.name': 'execute_command',
        'riskgate.operation': 'rm -rf victim',
        'riskgate.decision.action': 'deny',
        'riskgate.decision.managed': true,
        'riskgate.decided_by': 'organisation-policy',
        'riskgate.outcome': 'refused',
        'riskgate.effects': expect.arrayContaining([expect.stringMatching(/deletes/)]),
      }),
    );
  });

  it('exits within its bound when the collector accepts connections and never answers', async () => {
    const sockets: Socket[] = [];
    const hanging = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      hanging.close();
    });
    const { checkout, env } = await setup([rmVictim, { text: 'done' }]);
    const started = performance.now();
    const result = await runCli(['-p', 'delete the victim folder'], {
      env: {
        ...env,
        RISKGATE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(hanging.address() as { port: number }).port}`,
      },
      cwd: checkout,
    });
    expect(result.stderr).toContain("your organisation's policy denies");
    expect(sockets.length).toBeGreaterThan(0);
    // The run itself is quick; the flush waits 3 s at most (TELEMETRY_FLUSH_MS), with room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('refuses to start on a malformed policy, naming the file, and runs nothing', async () => {
    const { server, checkout, victim, env, policyPath } = await setup([rmVictim], '{"rules": {"deny": ');
    const result = await runCli(['-p', 'delete the victim folder'], { env, cwd: checkout });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`managed policy ${policyPath}: not valid JSON`);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(victim)).toBe(true);
  });

  it('riskgate trust refuses when the policy forbids trusting projects, and changes nothing', async () => {
    const { checkout, env } = await setup([], { projectTrust: false });
    const other = join(checkout, '..', 'other');
    mkdirSync(other);
    const result = await runCli(['trust', other], { env, cwd: checkout });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /your organisation's policy \(.*managed-policy\.json\) does not let projects be trusted; nothing was changed/,
    );
    const listed = await runCli(['trust', '--list'], { env, cwd: checkout });
    expect(listed.stdout).not.toContain(other);
  });

  it('riskgate doctor lists the policy: its file, floor and rules', async () => {
    const { checkout, env, policyPath } = await setup([], {
      minimumMode: 'guarded',
      rules: { deny: ['execute_command(rm *)'], ask: ['execute_command(git push *)'] },
    });
    const result = await runCli(['doctor'], { env: { ...env, RISKGATE_MODE: '' }, cwd: checkout });
    expect(result.stdout).toContain(`managed by your organisation: ${policyPath}`);
    expect(result.stdout).toContain('mode floor guarded');
    expect(result.stdout).toContain('deny  execute_command(rm *)');
    expect(result.stdout).toContain('ask   execute_command(git push *)');
    expect(result.stdout).toMatch(/telemetry\s+off/);
  });

  it('holds in riskgate mcp against --yolo and a client model rating DROP TABLE low', async () => {
    const { checkout, env } = await setup([], { rules: { deny: ['execute_sql(DROP *)'] } });
    const database = join(checkout, 'shop.sqlite');
    const db = new Database(database);
    db.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea');");
    db.close();
    const client = new Client({ name: 'riskgate-policy-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--db', database, '--yolo'],
        cwd: checkout,
        env: { ...(process.env as Record<string, string>), ...env },
        stderr: 'pipe',
      }),
    );
    cleanups.push(() => client.close());
    const result = (await client.callTool({
      name: 'execute_sql',
      arguments: { sql: 'DROP TABLE orders', risk_level: 'low' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /your organisation's policy denies execute_sql\(DROP \*\)/,
    );
    const reader = new Database(database, { readonly: true });
    expect(reader.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 1 });
    reader.close();
  });
});
