import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AnyTool, type AssessContext, evaluateToolCall } from '@riskgate/risk';
import { createExecuteCommandTool, probeSandbox } from '@riskgate/tools-command';
import { createFileOperationsTool } from '@riskgate/tools-file';
import { createHttpRequestTool } from '@riskgate/tools-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GateContext, runGatedToolCall } from '../src/index.js';
import { CREDENTIAL_STORES, type CredentialStore } from './fixtures/credential-stores.js';

/**
 * The promise "what runs unasked never hands the model a secret", end to end over the credential
 * stores of real applications planted in a scratch home and workspace: every read goes through
 * the real tools' assess, the gate, execution (in the real sandbox where it works) and the output
 * guard, exactly as an unasked call runs (no one to confirm: what needs asking is refused). The
 * model's copy must never hold a marker, also after base64 decoding.
 */

// Outside /tmp: the sandbox empties /tmp, which would hide the home for free.
const root = mkdtempSync('/var/tmp/riskgate-stores-');
const home = join(root, 'home');
// The usual layout: the project checked out inside the home.
const workspace = join(home, 'code', 'app');
const sandbox = (await probeSandbox()).available;
if (process.env.CI !== undefined && !sandbox) throw new Error('CI must run the real sandbox: install bubblewrap');

const markers = new Map<CredentialStore, string>();
const tools: AnyTool[] = [createExecuteCommandTool(), createFileOperationsTool(), createHttpRequestTool()];
const assess: AssessContext = { cwd: workspace, home, sandbox };
const gate: GateContext = { tools, policy: { mode: 'smart', rules: [] }, assess };

const absolute = (store: CredentialStore) => join(store.where === 'home' ? home : workspace, store.path);
/** As a person would write it: relative inside the workspace, `~/…` in the home. */
const written = (store: CredentialStore) => (store.where === 'home' ? `~/${store.path}` : store.path);
const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

beforeAll(() => {
  CREDENTIAL_STORES.forEach((store, index) => {
    const marker = `mk${String(index).padStart(3, '0')}q${randomBytes(6).toString('hex')}`;
    markers.set(store, marker);
    mkdirSync(dirname(absolute(store)), { recursive: true });
    writeFileSync(absolute(store), store.content(marker));
  });
  // What must stay readable unasked.
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(
    join(home, '.ssh', 'id_rsa.pub'),
    'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 public-key-pub dev@laptop\n',
  );
  writeFileSync(
    join(home, '.ssh', 'known_hosts'),
    'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6 known-hosts-line\n',
  );
  writeFileSync(
    join(workspace, '.env.example'),
    'DATABASE_URL=postgres://user:password@localhost:5432/app\nSECRET_KEY=changeme\nAPI_TOKEN=\n',
  );
  writeFileSync(join(workspace, 'README.md'), '# app\n\nRun `npm test`. Set API_TOKEN in .env.\n');
  mkdirSync(join(workspace, 'lib'), { recursive: true });
  writeFileSync(
    join(workspace, 'lib', 'login.ts'),
    'export function login(password: string) {\n  const token = sign(password);\n  return { token };\n}\n',
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What the model received, and the same after decoding every base64 run in it. */
function seenByModel(forModel: string): string {
  const runs = forModel.replace(/\n/g, '').match(/[A-Za-z0-9+/=]{16,}/g) ?? [];
  return [forModel, ...runs.map((run) => Buffer.from(run, 'base64').toString('latin1'))].join('\n');
}

let calls = 0;
async function unasked(name: string, args: Record<string, unknown>) {
  return runGatedToolCall({ id: `call-${calls++}`, name, arguments: args }, gate);
}

const channels: readonly [string, (store: CredentialStore) => readonly [string, Record<string, unknown>]][] = [
  ['cat', (store) => ['execute_command', { command: `cat ${quoted(absolute(store))}` }]],
  [
    'cat ~ spelling',
    (store) => [
      'execute_command',
      { command: store.where === 'home' ? `cat ~/${quoted(store.path)}` : `cat ${quoted(store.path)}` },
    ],
  ],
  ['base64', (store) => ['execute_command', { command: `base64 ${quoted(absolute(store))}` }]],
  ['grep -r', (store) => ['execute_command', { command: `grep -r -a . ${quoted(dirname(absolute(store)))}` }]],
  [
    'find -exec cat',
    (store) => ['execute_command', { command: `find ${quoted(dirname(absolute(store)))} -type f -exec cat {} +` }],
  ],
  ['file_operations read', (store) => ['file_operations', { operation: 'read', path: written(store) }]],
  ['file:// URL', (store) => ['http_request', { method: 'GET', url: pathToFileURL(absolute(store)).href }]],
];

describe(`${CREDENTIAL_STORES.length} credential stores of real applications (sandbox: ${sandbox})`, () => {
  it('has at least 100 stores, each with its own path', () => {
    expect(CREDENTIAL_STORES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CREDENTIAL_STORES.map(absolute)).size).toBe(CREDENTIAL_STORES.length);
  });

  describe.each(channels)('through %s', (_channel, callFor) => {
    it.each(
      CREDENTIAL_STORES.map((store) => [`${store.app}: ${written(store)}`, store] as const),
    )('%s never reaches the model unasked', async (_name, store) => {
      const [tool, args] = callFor(store);
      const outcome = await unasked(tool, args);
      expect(seenByModel(outcome.forModel)).not.toContain(markers.get(store)!);
    });
  });

  it.each([
    ['grep -r pass . in the workspace', 'grep -r -i -a pass .'],
    ['grep -r over the whole home', 'grep -r -a . ~'],
    ['find . -exec cat {} +', 'find . -type f -exec cat {} +'],
    ['tar of the workspace to stdout', 'tar -cf - . | strings'],
    ['cat of every file by a glob', 'cat * .* */* */*/* 2>/dev/null'],
  ])('%s hands over no marker', async (_what, command) => {
    const outcome = await unasked('execute_command', { command });
    const seen = seenByModel(outcome.forModel);
    for (const marker of markers.values()) expect(seen).not.toContain(marker);
  });
});

describe('judged without the sandbox, each read of a store asks', () => {
  const plain: AssessContext = { cwd: workspace, home, sandbox: false };
  const policy = { mode: 'smart', rules: [] } as const;
  it.each(
    CREDENTIAL_STORES.map((store) => [`${store.app}: ${written(store)}`, store] as const),
  )('%s', async (_name, store) => {
    const command = await evaluateToolCall(tools[0]!, { command: `cat ${quoted(absolute(store))}` }, plain, policy);
    const file = await evaluateToolCall(tools[1]!, { operation: 'read', path: written(store) }, plain, policy);
    expect(command.decision.action).not.toBe('execute');
    expect(file.decision.action).not.toBe('execute');
  });
});

describe('what holds no secret still runs unasked', () => {
  it.each([
    ['cat ~/.ssh/id_rsa.pub', 'public-key-pub'],
    ['cat ~/.ssh/known_hosts', 'known-hosts-line'],
    ['cat .env.example', 'API_TOKEN='],
    ['cat README.md lib/login.ts', 'return { token };'],
    ['grep -rn return lib', 'lib/login.ts:3:  return { token };'],
  ])('%s', async (command, expected) => {
    const outcome = await unasked('execute_command', { command });
    expect(outcome.decision).toMatchObject({ action: 'execute' });
    expect(outcome.forModel).toContain(expected);
  });

  it.each([
    ['~/.ssh/id_rsa.pub', 'public-key-pub'],
    ['~/.ssh/known_hosts', 'known-hosts-line'],
    ['.env.example', 'API_TOKEN='],
    ['lib/login.ts', 'return { token };'],
  ])('file_operations read %s', async (path, expected) => {
    const outcome = await unasked('file_operations', { operation: 'read', path });
    expect(outcome.decision).toMatchObject({ action: 'execute' });
    expect(outcome.forModel).toContain(expected);
  });
});
