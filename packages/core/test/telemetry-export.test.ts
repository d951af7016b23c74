import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AuditLog, createDecisionExporter, createGatedExecutor, type ResolvedTelemetry } from '../src/index.js';

/** A real OTLP/HTTP receiver on loopback: every request's path, content type and body. */
interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

const servers: { close(): void }[] = [];
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function receiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      const json = (request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, received };
}

function settings(base: string, protocol: ResolvedTelemetry['protocol']): ResolvedTelemetry {
  return {
    logsUrl: `${base}/v1/logs`,
    tracesUrl: `${base}/v1/traces`,
    headers: { 'x-team': 'ops' },
    protocol,
    source: 'test',
  };
}

/** Runs calls through a real gate whose audit log forwards to the exporter. */
async function runCalls(telemetry: ResolvedTelemetry) {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-otel-'));
  directories.push(directory);
  const exporter = createDecisionExporter(telemetry, { version: '9.9.9' });
  const auditPath = join(directory, 'audit.jsonl');
  const executor = createGatedExecutor({
    tools: [createExecuteCommandTool()],
    policy: { mode: 'smart', rules: [] },
    assess: { cwd: directory },
    audit: new AuditLog(auditPath, { forward: (entry) => exporter.record(entry) }),
    managedPolicyPath: join(directory, 'no-managed-policy.json'),
  });
  // Needs asking and there is no one to ask: refused. Its text carries a password.
  const refused = await executor.run({
    id: 'call-1',
    name: 'execute_command',
    arguments: { command: 'PGPASSWORD=Sup3rSecretValue9 psql -h 127.0.0.1 -c "drop table t"' },
  });
  // Whitelisted: runs.
  const ran = await executor.run({ id: 'call-2', name: 'execute_command', arguments: { command: 'echo hello' } });
  // A token in a URL, refused the same way.
  await executor.run({
    id: 'call-3',
    name: 'execute_command',
    arguments: {
      command: 'curl -X POST https://api.example.com/hook?access_token=ghp_R1sKgAtE0000TokenValue00000000000000',
    },
  });
  return { exporter, refused, ran, audit: readFileSync(auditPath, 'utf8') };
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

function plain(value: AnyValue): unknown {
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  return value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? undefined : Number(value.intValue));
}

function attributes(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));
}

describe('OpenTelemetry export of gate decisions', () => {
  it('sends each decision as an OTLP/JSON log record and span, with effects, verdict and outcome, and no secret', async () => {
    const { url, received } = await receiver();
    const { exporter, refused, ran, audit } = await runCalls(settings(url, 'http/json'));
    expect(refused.state).toBe('denied');
    expect(ran.state).toBe('succeeded');
    expect(await exporter.shutdown(5_000)).toBe(true);

    const logs = received.filter((request) => request.path === '/v1/logs');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]!.contentType).toContain('application/json');
    const records = logs.flatMap((request) => {
      const body = JSON.parse(request.body.toString('utf8')) as {
        resourceLogs: {
          resource: { attributes: KeyValue[] };
          scopeLogs: { logRecords: { attributes: KeyValue[]; body: AnyValue; eventName?: string }[] }[];
        }[];
      };
      return body.resourceLogs.flatMap((resourceLog) => {
        expect(attributes(resourceLog.resource.attributes)).toMatchObject({
          'service.name': 'riskgate',
          'service.version': '9.9.9',
        });
        return resourceLog.scopeLogs.flatMap((scope) => scope.logRecords);
      });
    });
    const byCall = Object.fromEntries(
      records.map((record) => [attributes(record.attributes)['riskgate.tool.call_id'], attributes(record.attributes)]),
    );
    // One record per call: the write-ahead "started" line is not sent.
    expect(records).toHaveLength(3);
    expect(byCall['call-1']).toMatchObject({
      'riskgate.tool.name': 'execute_command',
      'riskgate.decision.action': 'confirm',
      'riskgate.outcome': 'refused',
      'riskgate.decided_by': 'gate',
      'riskgate.error.code': 'confirmation-unavailable',
    });
    expect(byCall['call-1']!['riskgate.effects']).toEqual(expect.arrayContaining([expect.stringMatching(/runs psql/)]));
    expect(byCall['call-2']).toMatchObject({
      'riskgate.decision.action': 'execute',
      'riskgate.decision.source': 'whitelist',
      'riskgate.outcome': 'ran',
      'riskgate.operation': 'echo hello',
    });
    expect(typeof byCall['call-2']!['riskgate.duration_ms']).toBe('number');

    const spans = received.filter((request) => request.path === '/v1/traces');
    const spanNames = spans.flatMap((request) =>
      (
        JSON.parse(request.body.toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
        }
      ).resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
      ),
    );
    expect(spanNames).toEqual(['execute_command', 'execute_command', 'execute_command']);

    // Redacted exactly as the audit log is: neither secret reaches the collector, nor the file.
    const everything = received.map((request) => request.body.toString('utf8')).join('\n');
    for (const secret of ['Sup3rSecretValue9', 'ghp_R1sKgAtE0000TokenValue00000000000000']) {
      expect(everything).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
    expect(everything).toContain('PGPASSWORD=');
  });

  it('sends OTLP/protobuf by default, with the same strings and without the secrets', async () => {
    const { url, received } = await receiver();
    const { exporter } = await runCalls(settings(url, 'http/protobuf'));
    expect(await exporter.shutdown(5_000)).toBe(true);
    const logs = received.filter((request) => request.path === '/v1/logs');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]!.contentType).toBe('application/x-protobuf');
    // Protobuf keeps strings as their UTF-8 bytes: what is there (and what is not) can be read off.
    const bytes = Buffer.concat(received.map((request) => request.body)).toString('latin1');
    expect(bytes).toContain('riskgate.effects');
    expect(bytes).toContain('confirmation-unavailable');
    expect(bytes).not.toContain('Sup3rSecretValue9');
    expect(bytes).not.toContain('ghp_R1sKgAtE0000TokenValue');
  });

  it('gives up within its bound when the collector refuses connections, and the calls still run', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { exporter, ran } = await runCalls(settings(`http://127.0.0.1:${port}`, 'http/protobuf'));
    expect(ran.state).toBe('succeeded');
    const started = performance.now();
    await exporter.shutdown(3_000);
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('gives up within its bound when the collector accepts and never answers', async () => {
    const sockets: Socket[] = [];
    const hanging: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () => {
        for (const socket of sockets) socket.destroy();
        hanging.close();
      },
    });
    const port = (hanging.address() as { port: number }).port;
    const { exporter, ran } = await runCalls(settings(`http://127.0.0.1:${port}`, 'http/json'));
    expect(ran.state).toBe('succeeded');
    const started = performance.now();
    expect(await exporter.shutdown(1_500)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_500);
    // It did try: the collector got the connection.
    expect(sockets.length).toBeGreaterThan(0);
  });
});
