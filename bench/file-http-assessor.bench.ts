// file_operations and http_request assessor latency. The HTTP resolver is a fixed table:
// this machine has no DNS, and the figure is the assessor's own cost. Prints one JSON object.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileOperationsTool } from '@riskgate/tools-file';
import { assessHttpRequest } from '@riskgate/tools-http';
import { measure } from './stats.ts';

const workspace = mkdtempSync(join(tmpdir(), 'riskgate-bench-files-'));
mkdirSync(join(workspace, 'src', 'deep'), { recursive: true });
for (let index = 0; index < 20; index++) writeFileSync(join(workspace, 'src', `f${index}.ts`), 'x');
writeFileSync(join(workspace, '.env'), 'A=1');
symlinkSync('/etc/hostname', join(workspace, 'link'));
const tool = createFileOperationsTool();
const fileCalls = [];
for (let index = 0; index < 20; index++) {
  for (const args of [
    { operation: 'read', path: `src/f${index}.ts` },
    { operation: 'list', path: 'src' },
    { operation: 'exists', path: `src/missing${index}` },
    { operation: 'write', path: `src/f${index}.ts`, content: 'y' },
    { operation: 'read', path: '.env' },
    { operation: 'read', path: 'link' },
    { operation: 'read', path: `~/.ssh/id_rsa${index}` },
    { operation: 'read', path: `../../etc/shadow${index}` },
  ] as const) {
    fileCalls.push(() => Promise.resolve(tool.assess(args as Parameters<typeof tool.assess>[0], { cwd: workspace })));
  }
}
const table: Record<string, string[]> = { 'example.com': ['93.184.216.34'], 'evil.example': ['127.0.0.1'] };
const resolve = async (host: string) => table[host] ?? [];
const policy = { allowLoopback: false, allowPrivate: false };
const httpCalls = [];
for (let index = 0; index < 20; index++) {
  for (const request of [
    { method: 'GET', url: `https://example.com/items/${index}?page=2` },
    { method: 'POST', url: `https://example.com/items/${index}`, body: '{"a":1}' },
    { method: 'GET', url: `http://0x7f.1:${8000 + index}/` },
    { method: 'GET', url: `http://[::ffff:169.254.169.254]/latest/${index}` },
    { method: 'GET', url: `http://evil.example/${index}` },
    { method: 'GET', url: `https://example.com/?access_token=abcdefgh${index}` },
    { method: 'DELETE', url: `https://example.com/items/${index}`, headers: { Authorization: 'Bearer x' } },
    { method: 'GET', url: `https://example.com/${'a'.repeat(2000)}` },
  ]) {
    httpCalls.push(() => assessHttpRequest(request, policy, resolve));
  }
}
for (const call of [...fileCalls, ...httpCalls]) await call();
const file = await measure(fileCalls, 5);
const http = await measure(httpCalls, 5);
rmSync(workspace, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ file: { calls: fileCalls.length, ...file }, http: { calls: httpCalls.length, ...http } })}\n`,
);
