import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Evaluation, evaluateToolCall, type GatePolicy, parseRule } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOperationsTool, type FilePlan } from '../src/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-file-')));
// Open to others, as the directories above a person's files are (mkdtemp makes it 0700: private).
chmodSync(root, 0o755);
const workspace = join(root, 'workspace');
const home = join(root, 'home');
const outside = join(root, 'outside');
const tool = createFileOperationsTool({ maxReadBytes: 1024, maxEntries: 50 });
const smart: GatePolicy = { mode: 'smart', rules: [] };
const gate = (args: unknown, policy = smart) => evaluateToolCall(tool, args, { cwd: workspace, home }, policy);
/** Runs the call with the plan its gate evaluation made (`evaluation`), or one made now. */
const run = async (args: Parameters<typeof tool.execute>[0], readOnly = false, evaluation?: Evaluation) => {
  const context = { cwd: workspace, home, signal: new AbortController().signal, readOnly };
  const planned = evaluation?.valid === true ? (evaluation.assessment.plan?.value as FilePlan) : undefined;
  return tool.execute(args, context, planned ?? (await tool.assess(args, context)).plan);
};
const describeCall = async (args: Parameters<typeof tool.describe>[0]) =>
  tool.describe(args, { cwd: workspace }, (await tool.assess(args, { cwd: workspace })).plan);

beforeAll(() => {
  for (const directory of [
    workspace,
    home,
    outside,
    join(workspace, 'src', 'deep'),
    join(workspace, '.git'),
    join(workspace, 'node_modules', 'x'),
    join(home, '.ssh'),
    join(home, '.aws'),
    join(home, '.config', 'gcloud'),
  ]) {
    mkdirSync(directory, { recursive: true });
  }
  writeFileSync(join(workspace, 'README.md'), '# demo\nline 2\nline 3\n');
  writeFileSync(join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(workspace, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(workspace, '.env'), 'API_KEY=secret\n');
  writeFileSync(join(workspace, '.env.local'), 'API_KEY=secret\n');
  writeFileSync(join(workspace, '.env.example'), 'API_KEY=\n');
  writeFileSync(join(workspace, 'server.pem'), '-----BEGIN PRIVATE KEY-----\n');
  writeFileSync(join(workspace, '.git-credentials'), 'https://u:p@x\n');
  writeFileSync(join(workspace, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_abc\n');
  mkdirSync(join(workspace, 'plain'));
  writeFileSync(join(workspace, 'plain', '.npmrc'), 'save-exact=true\n');
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE\n');
  writeFileSync(join(home, '.ssh', 'config'), 'Host x\n');
  writeFileSync(join(home, '.aws', 'credentials'), '[default]\n');
  writeFileSync(join(home, '.config', 'gcloud', 'token.json'), '{}\n');
  writeFileSync(join(home, '.msmtprc'), 'account default\nhost smtp.example.com\n');
  writeFileSync(join(home, 'notes.txt'), 'private notes\n');
  writeFileSync(join(home, '.ssh', 'id_rsa.pub'), 'ssh-ed25519 AAAAC3Nza dev@laptop\n');
  writeFileSync(join(home, '.ssh', 'known_hosts'), 'github.com ssh-ed25519 AAAAC3Nza\n');
  writeFileSync(join(outside, 'notes.txt'), 'outside the workspace\n');
  symlinkSync(join(outside, 'notes.txt'), join(workspace, 'escape-link'));
  symlinkSync(outside, join(workspace, 'escape-dir'));
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, 'innocent.txt'));
  symlinkSync(join(workspace, 'src', 'a.ts'), join(workspace, 'inner-link'));
  writeFileSync(join(workspace, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
  writeFileSync(join(workspace, 'long.txt'), Array.from({ length: 500 }, (_, index) => `line ${index + 1}`).join('\n'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('spec 000 / 003: file operations through the gate', () => {
  it.each([
    [{ operation: 'read', path: 'README.md' }],
    [{ operation: 'list', path: 'src' }],
    [{ operation: 'exists', path: 'nope.txt' }],
    [{ operation: 'read', path: '.env.example' }],
    [{ operation: 'read', path: 'plain/.npmrc' }],
    [{ operation: 'read', path: 'inner-link' }],
    [{ operation: 'read', path: join(outside, 'notes.txt') }],
  ])('Low-risk file operations execute automatically: %j', async (args) => {
    const evaluation = await gate(args);
    expect(evaluation.decision).toMatchObject({ action: 'execute', source: 'whitelist', whitelisted: true });
  });

  it('Low-risk: a whitelisted read runs and returns the file', async () => {
    const result = await run({ operation: 'read', path: 'README.md' }, true);
    expect(result).toMatchObject({ type: 'tool-success', forModel: '# demo\nline 2\nline 3' });
  });

  it('High-risk file operations require confirmation: write is never whitelisted', async () => {
    const evaluation = await gate({ operation: 'write', path: 'new.txt', content: 'x\n' });
    expect(evaluation.decision).toMatchObject({
      action: 'confirm',
      source: 'default',
      whitelisted: false,
      level: 'medium',
    });
  });

  it('LLM provides risk level: low runs a write unasked, high asks about a read', async () => {
    expect(
      (await gate({ operation: 'write', path: 'new.txt', content: 'x', risk_level: 'low' })).decision,
    ).toMatchObject({ action: 'execute', source: 'llm' });
    expect((await gate({ operation: 'read', path: 'README.md', risk_level: 'high' })).decision).toMatchObject({
      action: 'confirm',
      source: 'llm',
    });
  });

  it('rejects a write without content and an unknown operation', async () => {
    expect((await gate({ operation: 'write', path: 'x' })).decision).toMatchObject({
      action: 'deny',
      source: 'invalid',
    });
    expect((await gate({ operation: 'delete', path: 'x' })).decision).toMatchObject({
      action: 'deny',
      source: 'invalid',
    });
  });
});

describe('attacks: secrets and escapes are asked about, with the reason', () => {
  it.each([
    ['.env', /environment file/],
    ['.env.local', /environment file/],
    ['./sub/../.env', /environment file/],
    ['server.pem', /private key/],
    ['.git-credentials', /saved git passwords/],
    ['.npmrc', /registry token/],
    ['~/.ssh/id_rsa', /private SSH key/],
    ['~/.ssh/config', /SSH keys/],
    ['~/.aws/credentials', /AWS credentials/],
    ['~/.config/gcloud/token.json', /Google Cloud/],
    ['innocent.txt', /private SSH key/],
    ['/etc/shadow', /system password hashes/],
    ['../../../../../../../etc/shadow', /system password hashes/],
  ])('read %s', async (path, reason) => {
    const evaluation = await gate({ operation: 'read', path });
    expect(evaluation.decision.action).toBe('confirm');
    expect(evaluation.decision.whitelisted).toBe(false);
    expect(evaluation.decision.reasons.join('\n')).toMatch(reason);
  });

  it.each([
    ['~/.msmtprc'],
    ['~/notes.txt'],
    [join(home, 'notes.txt')],
    ['../home/notes.txt'],
  ])('read %s asks: the home outside the workspace is private', async (path) => {
    const evaluation = await gate({ operation: 'read', path });
    expect(evaluation.decision.action).toBe('confirm');
    expect(evaluation.decision.reasons.join('\n')).toMatch(
      /outside the workspace in your home \(private unless allowlisted\)/,
    );
  });

  it.each([
    ['a cookie only its owner reads (0400)', 'store/.erlang.cookie', 0o400],
    ["a daemon's settings its group reads (0640)", 'store/redis.conf', 0o640],
    ['a readable file in a directory others may not enter', 'closed/settings.ini', 0o644],
  ])('read asks for %s outside the workspace: its mode says private', async (_what, path, mode) => {
    const file = join(outside, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, 'marker\n', { mode });
    if (path.startsWith('closed/')) chmodSync(join(outside, 'closed'), 0o700);
    for (const spelling of [file, `../outside/${path}`]) {
      const evaluation = await gate({ operation: 'read', path: spelling });
      expect(evaluation.decision.action).toBe('confirm');
      expect(evaluation.decision.reasons.join('\n')).toMatch(/keeps from other users/);
    }
  });

  it.each([['~'], ['~/.config']])('list %s asks: the home is private', async (path) => {
    expect((await gate({ operation: 'list', path })).decision.action).toBe('confirm');
  });

  it('re-checks a whitelisted read when it runs: a symlink into the private home swapped in since is refused', async () => {
    writeFileSync(join(workspace, 'swap-home.txt'), 'harmless\n');
    const evaluation = await gate({ operation: 'read', path: 'swap-home.txt' });
    expect(evaluation.decision.action).toBe('execute');
    unlinkSync(join(workspace, 'swap-home.txt'));
    symlinkSync(join(home, 'notes.txt'), join(workspace, 'swap-home.txt'));
    const result = await run({ operation: 'read', path: 'swap-home.txt' }, true, evaluation);
    expect(result).toMatchObject({ type: 'tool-error', code: 'file-changed-since-assessed' });
    expect(JSON.stringify(result)).not.toContain('private notes');
  });

  it('asks before listing ~/.ssh', async () => {
    expect((await gate({ operation: 'list', path: '~/.ssh' })).decision.whitelisted).toBe(false);
  });

  it.each([
    ['escape-link'],
    ['escape-dir/notes.txt'],
  ])('judges a read through a symlink that leaves the workspace by its real path, and marks its content untrusted: %s', async (path) => {
    const evaluation = await gate({ operation: 'read', path });
    expect(evaluation.decision.action).toBe('execute');
    expect(evaluation.valid && evaluation.assessment.untrusted).toContain(outside);
    expect(evaluation.decision.reasons.join('\n')).toMatch(/symlink to .*outside the workspace/);
  });

  it('names rule subjects by the real path, so `read src/**` cannot be stretched by a symlink', async () => {
    symlinkSync(join(home, '.aws', 'credentials'), join(workspace, 'src', 'config.ts'));
    const rules = [parseRule('file_operations(read src/**)', 'allow')].map(
      (parsed) => (parsed.ok ? parsed.rule : undefined)!,
    );
    const linked = await gate({ operation: 'read', path: 'src/config.ts' }, { mode: 'smart', rules });
    expect(linked.decision.action).toBe('confirm');
    const plain = await gate(
      { operation: 'read', path: 'src/deep/b.ts', risk_level: 'high' },
      { mode: 'smart', rules },
    );
    expect(plain.decision).toMatchObject({ action: 'execute', source: 'rule' });
    unlinkSync(join(workspace, 'src', 'config.ts'));
  });

  it('re-checks a whitelisted read when it runs: a symlink swapped in since is refused', async () => {
    writeFileSync(join(workspace, 'swap.txt'), 'harmless\n');
    const evaluation = await gate({ operation: 'read', path: 'swap.txt' });
    expect(evaluation.decision.action).toBe('execute');
    unlinkSync(join(workspace, 'swap.txt'));
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, 'swap.txt'));
    const result = await run({ operation: 'read', path: 'swap.txt' }, true, evaluation);
    expect(result).toMatchObject({ type: 'tool-error', code: 'file-changed-since-assessed' });
    expect(JSON.stringify(result)).not.toContain('PRIVATE');
  });

  it.each([
    ['~/.bashrc', /shell start-up file/],
    ['~/.ssh/authorized_keys', /SSH keys/],
    [join(outside, 'x.txt'), /outside the workspace/],
    ['/etc/hosts', /system path/],
  ])('a write to %s is high', async (path, reason) => {
    const evaluation = await gate({ operation: 'write', path, content: 'x' });
    expect(evaluation.decision.codeLevel).toBe('high');
    expect(evaluation.decision.reasons.join('\n')).toMatch(reason);
  });
});

describe('write', () => {
  it('refuses a write whose path leads elsewhere than the diff the person approved (a symlink swapped in since)', async () => {
    writeFileSync(join(workspace, 'approved.txt'), 'old\n');
    writeFileSync(join(outside, 'victim.txt'), 'keep me\n');
    const args = { operation: 'write', path: 'approved.txt', content: 'new\n' } as const;
    const { plan } = await tool.assess(args, { cwd: workspace, home });
    expect(await tool.describe(args, { cwd: workspace }, plan)).toMatchObject({ path: 'approved.txt' });
    unlinkSync(join(workspace, 'approved.txt'));
    symlinkSync(join(outside, 'victim.txt'), join(workspace, 'approved.txt'));
    const context = { cwd: workspace, home, signal: new AbortController().signal, readOnly: false };
    expect(await tool.execute(args, context, plan)).toMatchObject({
      type: 'tool-error',
      code: 'file-changed-since-assessed',
    });
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
    unlinkSync(join(workspace, 'approved.txt'));
  });

  it('shows a unified diff against what is on disk', async () => {
    const description = await describeCall({
      operation: 'write',
      path: 'README.md',
      content: '# demo\nline two\nline 3\n',
    });
    expect(description).toMatchObject({ kind: 'file', operation: 'write', path: 'README.md' });
    const diff = (description as { diff: string }).diff;
    expect(diff).toContain('-line 2');
    expect(diff).toContain('+line two');
    expect(diff).toContain('@@ -1,3 +1,3 @@');
  });

  it('says "new file, N lines" for a file that does not exist', async () => {
    const description = await describeCall({ operation: 'write', path: 'fresh.txt', content: 'a\nb\nc\n' });
    expect((description as { diff: string }).diff).toMatch(/^new file, 3 lines\n/);
  });

  it('writes atomically, keeps the file mode and leaves no temporary file', async () => {
    const target = join(workspace, 'script.sh');
    writeFileSync(target, 'echo old\n');
    chmodSync(target, 0o755);
    const result = await run({ operation: 'write', path: 'script.sh', content: 'echo new\n' });
    expect(result).toMatchObject({ type: 'tool-success', data: { created: false, bytes: 9 } });
    expect(readFileSync(target, 'utf8')).toBe('echo new\n');
    expect(statSync(target).mode & 0o777).toBe(0o755);
    expect(readdirSync(workspace).filter((name) => name.includes('riskgate-'))).toEqual([]);
  });

  it('creates missing parent directories only when asked', async () => {
    const refused = await run({ operation: 'write', path: 'made/up/dir/f.txt', content: 'x' });
    expect(refused).toMatchObject({ type: 'tool-error', code: 'file-no-parent' });
    const created = await run({ operation: 'write', path: 'made/up/dir/f.txt', content: 'x', create_parents: true });
    expect(created).toMatchObject({ type: 'tool-success', data: { created: true } });
    expect(readFileSync(join(workspace, 'made/up/dir/f.txt'), 'utf8')).toBe('x');
  });

  it('refuses to write through a symlink that leaves the workspace, and says so', async () => {
    const result = await run({ operation: 'write', path: 'escape-link', content: 'pwned' });
    expect(result).toMatchObject({ type: 'tool-error', code: 'file-symlink-escape' });
    expect(readFileSync(join(outside, 'notes.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('writes through a symlink that stays inside the workspace, to its target', async () => {
    await run({ operation: 'write', path: 'inner-link', content: 'export const a = 2;\n' });
    expect(readFileSync(join(workspace, 'src', 'a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });
});

describe('read and list', () => {
  it('reads a window of lines with numbers', async () => {
    const result = await run({ operation: 'read', path: 'README.md', offset: 2, limit: 1, line_numbers: true });
    expect(result.type === 'tool-success' && result.forModel).toBe(
      '     2\tline 2\n[lines 2–2 of 3; use offset and limit for more]',
    );
  });

  it('caps what it reads and says so', async () => {
    const result = await run({ operation: 'read', path: 'long.txt' });
    expect(result.type === 'tool-success' && result.forModel).toMatch(/only the first 1,024 were read/);
  });

  it('detects binary files', async () => {
    expect(await run({ operation: 'read', path: 'blob.bin' })).toMatchObject({
      type: 'tool-success',
      data: { binary: true },
    });
  });

  it('lists with types and sizes, skipping .git and node_modules unless asked, recursing to a depth', async () => {
    const flat = await run({ operation: 'list', path: '.' });
    if (flat.type !== 'tool-success' || flat.data.operation !== 'list') throw new Error('list failed');
    const names = flat.data.entries.map((entry) => entry.path);
    expect(names).toContain('src/');
    expect(names).not.toContain('.git/');
    expect(names).not.toContain('node_modules/');
    expect(flat.data.entries.find((entry) => entry.path === 'README.md')).toMatchObject({
      type: 'file',
      size: statSync(join(workspace, 'README.md')).size,
    });
    expect(flat.data.entries.find((entry) => entry.path === 'escape-dir')).toMatchObject({ type: 'symlink' });

    const deep = await run({ operation: 'list', path: 'src', recursive: true, depth: 2 });
    expect(
      deep.type === 'tool-success' && deep.data.operation === 'list' && deep.data.entries.map((entry) => entry.path),
    ).toEqual(expect.arrayContaining(['deep/', 'deep/b.ts']));

    const all = await run({ operation: 'list', path: '.', include_ignored: true });
    expect(
      all.type === 'tool-success' && all.data.operation === 'list' && all.data.entries.map((entry) => entry.path),
    ).toEqual(expect.arrayContaining(['.git/', 'node_modules/']));
  });

  it('reports missing paths and wrong kinds as values', async () => {
    expect(await run({ operation: 'read', path: 'missing.txt' })).toMatchObject({
      type: 'tool-error',
      code: 'file-not-found',
    });
    expect(await run({ operation: 'read', path: 'src' })).toMatchObject({
      type: 'tool-error',
      code: 'file-is-directory',
    });
    expect(await run({ operation: 'list', path: 'README.md' })).toMatchObject({
      type: 'tool-error',
      code: 'file-not-directory',
    });
    expect(await run({ operation: 'exists', path: 'src' })).toMatchObject({
      type: 'tool-success',
      data: { exists: true, type: 'directory' },
    });
  });
});

describe('attacks: special files never block, and the knowledge base decides every path', () => {
  const special = join(root, 'special');
  beforeAll(() => {
    mkdirSync(special, { recursive: true });
    execFileSync('mkfifo', [join(workspace, 'queue.log')]);
    symlinkSync(join(workspace, 'queue.log'), join(workspace, 'queue-link.txt'));
    symlinkSync('/dev/zero', join(workspace, 'zeros.txt'));
    writeFileSync(
      join(workspace, 'backup.txt'),
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz'.repeat(2)}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
    writeFileSync(join(workspace, '.envrc'), 'export TOKEN=x\n');
    writeFileSync(join(home, '.bash_history'), 'mysql -phunter2\n');
  });

  it.each([
    ['queue.log', /named pipe/],
    ['queue-link.txt', /named pipe/],
    ['zeros.txt', /never ends|waits/],
    ['/dev/zero', /never ends|waits/],
    ['/dev/urandom', /never ends|waits/],
    ['/dev/mem', /physical memory/],
    ['/dev/sda', /raw disk/],
    ['/proc/self/environ', /environment/],
    ['/proc/1/environ', /environment/],
    ['/etc/shadow-', /password hashes/],
    ['/run/secrets/db', /container secrets/],
    ['backup.txt', /private key/],
    ['.envrc', /direnv/],
    ['~/.bash_history', /history/],
  ])('read %s asks, also when the model says low in guarded mode', async (path, reason) => {
    const smartDecision = (await gate({ operation: 'read', path })).decision;
    expect(smartDecision).toMatchObject({ action: 'confirm', whitelisted: false });
    expect(smartDecision.reasons.join('\n')).toMatch(reason);
    const guarded = (await gate({ operation: 'read', path, risk_level: 'low' }, { mode: 'guarded', rules: [] }))
      .decision;
    expect(guarded).toMatchObject({ action: 'confirm', source: 'guard' });
  });

  it.each([
    ['queue.log'],
    ['queue-link.txt'],
    ['zeros.txt'],
    ['/dev/zero'],
    ['/dev/urandom'],
    ['/dev/tty'],
  ])('a read of %s that runs anyway (confirmed) is refused at once, without opening it for long', async (path) => {
    const started = Date.now();
    const result = await run({ operation: 'read', path });
    expect(result).toMatchObject({
      type: 'tool-error',
      code: expect.stringMatching(/file-not-regular|file-not-found|file-permission-denied|file-error/),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a whitelisted read of a file swapped for a pipe after the assessment is refused, not blocked', async () => {
    writeFileSync(join(workspace, 'later.txt'), 'plain\n');
    const evaluation = await gate({ operation: 'read', path: 'later.txt' });
    expect(evaluation.decision.action).toBe('execute');
    unlinkSync(join(workspace, 'later.txt'));
    execFileSync('mkfifo', [join(workspace, 'later.txt')]);
    expect(await run({ operation: 'read', path: 'later.txt' }, true, evaluation)).toMatchObject({
      type: 'tool-error',
      code: 'file-changed-since-assessed',
    });
    expect(await run({ operation: 'read', path: 'later.txt' }, false)).toMatchObject({
      type: 'tool-error',
      code: 'file-not-regular',
    });
  });

  it.each([
    ['~/.ssh'],
    ['~/.aws'],
    ['~/.config/gcloud'],
    ['/run/secrets'],
    ['/etc/ssl/private'],
  ])('list %s asks', async (path) => {
    expect((await gate({ operation: 'list', path })).decision).toMatchObject({ action: 'confirm', whitelisted: false });
  });

  it.each([
    ['~/.bash_history', /history/],
    ['~/.ssh/authorized_keys', /SSH/],
    ['~/.config/systemd/user/evil.service', /user services/],
    ['~/.config/autostart/x.desktop', /login/],
    ['~/.local/bin/ls', /PATH/],
    ['~/.zshrc', /start-up/],
    ['~/.gitconfig', /git configuration/],
    ['.git/hooks/pre-commit', /hooks/],
    ['.git/config', /can run programs/],
    ['.riskgate/config.json', /riskgate/],
    ['/etc/cron.d/job', /system path/],
    ['/etc/ld.so.preload', /system path/],
    ['/usr/local/bin/node', /system path/],
    ['/dev/sda', /raw disk|device/],
    ['/proc/sys/kernel/core_pattern', /system path|process/],
    ['.env', /environment file/],
  ])('a write to %s is high, and guarded mode asks whatever the model says', async (path, reason) => {
    const decision = (
      await gate({ operation: 'write', path, content: 'x', risk_level: 'low' }, { mode: 'guarded', rules: [] })
    ).decision;
    expect(decision).toMatchObject({ action: 'confirm', codeLevel: 'high' });
    expect(decision.reasons.join('\n')).toMatch(reason);
  });

  it.each([
    ['README.md'],
    ['src/a.ts'],
    ['.env.example'],
    ['~/.ssh/id_rsa.pub'],
    ['~/.ssh/known_hosts'],
    ['/etc/hosts'],
    ['/etc/os-release'],
    ['/proc/cpuinfo'],
  ])('safe: read %s stays whitelisted and returns text', async (path) => {
    expect((await gate({ operation: 'read', path })).decision).toMatchObject({
      action: 'execute',
      source: 'whitelist',
    });
    const result = await run({ operation: 'read', path }, true);
    expect(
      result.type === 'tool-success' && result.data.operation === 'read' && result.data.text.length,
    ).toBeGreaterThan(0);
  });
});
