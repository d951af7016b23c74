import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeAll, connectMcp, type McpTransportKind, text, waitUntil } from './mcp-client.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-workspace-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);
let index = 0;
let directory: string;
let first: string;
let second: string;

beforeEach(() => {
  directory = join(root, `case-${index++}`);
  first = join(directory, 'first');
  second = join(directory, 'second');
  for (const folder of [first, second]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(first, 'in-first.txt'), 'one\n');
  writeFileSync(join(second, 'in-second.txt'), 'two\n');
});

const uri = (path: string) => pathToFileURL(path).href;
const ls = async (client: Awaited<ReturnType<typeof connectMcp>>['client']) =>
  text(await client.callTool({ name: 'execute_command', arguments: { command: 'ls' } }));

describe('riskgate mcp: the client roots as the workspace', () => {
  it.each([
    'stdio',
    'http',
  ] as const)('runs commands in the first local directory root, and follows roots/list_changed (%s)', async (transport: McpTransportKind) => {
    const session = await connectMcp(['--commands', '--files'], {
      cwd: directory,
      home: directory,
      transport,
      roots: [{ uri: uri(first), name: 'first' }],
    });
    expect(await ls(session.client)).toContain('in-first.txt');
    const read = await session.client.callTool({
      name: 'file_operations',
      arguments: { operation: 'read', path: 'in-first.txt' },
    });
    expect(text(read)).toContain('one');
    session.roots = [{ uri: uri(second), name: 'second' }];
    await session.client.sendRootsListChanged();
    await waitUntil(async () => (await ls(session.client)).includes('in-second.txt'), 'the second root');
    await waitUntil(() => session.stderr().includes(`workspace: ${second} (the client's root)`), 'the notice');
  });

  it.each([
    ['an http:// root', 'https://example.com/repo', /not a file:\/\/ URI/],
    ['a root that does not exist', 'file:///nonexistent/riskgate-root', /no such directory/],
    ['a root that is a file', 'FILE', /not a directory/],
    ['a root on another host', 'file://fileserver/share', /on another host \(fileserver\)/],
    ['a root that is not a URI', 'not a uri', /not a URI/],
  ])('passes over %s with a notice, and takes the next one', async (_name, bad, notice) => {
    const badUri = bad === 'FILE' ? uri(join(first, 'in-first.txt')) : bad;
    const session = await connectMcp(['--commands'], {
      cwd: directory,
      home: directory,
      roots: [{ uri: badUri }, { uri: uri(second) }],
    });
    expect(await ls(session.client)).toContain('in-second.txt');
    expect(session.stderr()).toMatch(notice);
  });

  it('keeps --cwd when the person named it', async () => {
    const session = await connectMcp(['--commands', '--cwd', first], {
      cwd: directory,
      home: directory,
      roots: [{ uri: uri(second) }],
    });
    expect(await ls(session.client)).toContain('in-first.txt');
  });

  it("applies an untrusted root's .riskgate/ only to tighten: its deny holds, its yolo and allow rules do not", async () => {
    mkdirSync(join(second, '.riskgate'));
    writeFileSync(
      join(second, '.riskgate', 'config.json'),
      JSON.stringify({ mode: 'yolo', rules: { allow: ['execute_command(rm *)'], deny: ['execute_command(cat *)'] } }),
    );
    const session = await connectMcp(['--commands'], {
      cwd: directory,
      home: directory,
      roots: [{ uri: uri(second) }],
    });
    const cat = await session.client.callTool({ name: 'execute_command', arguments: { command: 'cat in-second.txt' } });
    expect(text(cat)).toMatch(/denied by rule execute_command\(cat \*\)/);
    const rm = await session.client.callTool({ name: 'execute_command', arguments: { command: 'rm in-second.txt' } });
    expect(rm.isError).toBe(true);
    expect(text(rm)).toMatch(/needs the person's confirmation/);
    expect(existsSync(join(second, 'in-second.txt'))).toBe(true);
    expect(session.stderr()).toMatch(/ignored from .*second.*mode yolo, allow rules \(1\)/);
  });
});

describe('riskgate mcp: progress and cancellation', () => {
  it('reports progress while a command runs, with its output lines so far', async () => {
    const { client } = await connectMcp(['--commands', '--yolo', '--cwd', first], { cwd: directory, home: directory });
    const reports: Progress[] = [];
    const result = (await client.callTool(
      {
        name: 'execute_command',
        arguments: { command: 'for i in 1 2 3; do echo "line $i"; sleep 1; done; echo done' },
      },
      undefined,
      { onprogress: (progress) => reports.push(progress) },
    )) as CallToolResult;
    expect(text(result)).toMatch(/line 1[\s\S]*line 3[\s\S]*done/);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const [at, report] of reports.entries()) {
      expect(report.message).toMatch(/^running for \d+\.\d s; \d+ lines? of output so far$/);
      if (at > 0) expect(report.progress).toBeGreaterThan(reports[at - 1]!.progress);
    }
    expect(reports.at(-1)!.message).toMatch(/[1-4] lines? of output so far/);
  });

  it('says that a call waits for the confirmation', async () => {
    const { client } = await connectMcp(['--commands', '--cwd', first], {
      cwd: directory,
      home: directory,
      answers: [],
    });
    const reports: Progress[] = [];
    // The elicitation handler never answers in time: the client cancels after two reports.
    const controller = new AbortController();
    const call = client.callTool({ name: 'execute_command', arguments: { command: 'rm in-first.txt' } }, undefined, {
      signal: controller.signal,
      onprogress: (progress) => {
        reports.push(progress);
        if (reports.length === 2) controller.abort();
      },
    });
    client.setRequestHandler(
      (await import('@modelcontextprotocol/sdk/types.js')).ElicitRequestSchema,
      () => new Promise(() => {}),
    );
    await expect(call).rejects.toThrow(/abort/i);
    expect(reports[0]!.message).toMatch(/waiting for the person's confirmation/);
    expect(existsSync(join(first, 'in-first.txt'))).toBe(true);
  });

  it.each([
    'stdio',
    'http',
  ] as const)('cancelling the call ends the command and its process group (%s)', async (transport: McpTransportKind) => {
    const { client } = await connectMcp(['--commands', '--yolo', '--cwd', first], {
      cwd: directory,
      home: directory,
      transport,
    });
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'execute_command', arguments: { command: 'sleep 300 & echo $! > child.pid; wait' } },
      undefined,
      { signal: controller.signal },
    );
    const pidFile = join(first, 'child.pid');
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the child pid');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(pid)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    await waitUntil(() => !alive(pid), `sleep (pid ${pid}) to end`);
    // The server goes on serving.
    expect(await ls(client)).toContain('in-first.txt');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
}
