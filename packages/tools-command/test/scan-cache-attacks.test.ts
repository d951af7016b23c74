import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateToolCall } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool, hiddenPaths } from '../src/index.js';

// The caches behind the gate's recursive reads and the sandbox's hidden paths (listings by the
// directory's identity, content verdicts by the file's dev, ino, size, mtime and ctime in
// nanoseconds, reused only once those times had settled before the read: file-identity.ts)
// must never answer "not secret" for a file that has become secret. Each attack follows a clean,
// cached verdict and must be asked on the very next call, end to end through the command tool.

const AWS =
  'aws_access_key_id = AKIAQYLPMN5HHHFPZAM2\naws_secret_access_key = 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\n';
const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n';
/** Clean text of exactly the secret's length: an overwrite keeps the size. */
const cleanOfLength = (length: number) =>
  'ordinary notes, nothing to hide here.\n'.repeat(length).slice(0, length - 1) + '\n';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-scan-cache-')));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
const outside = join(root, 'outside');
const tool = createExecuteCommandTool();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const decide = (command: string) =>
  evaluateToolCall(tool, { command }, { cwd: workspace, home, sandbox: true }, { mode: 'smart', rules: [] });
const hidden = () =>
  hiddenPaths({ cwd: workspace, workspace, home })
    .map((entry) => entry.path)
    .filter((path) => path.startsWith(`${workspace}/`));
/** Before each attack the tree is clean again, so what is asked after it is asked because of it. */
const expectClean = async () => {
  const verdict = await decide('grep -r TODO .');
  expect(verdict.decision.action, JSON.stringify(verdict.decision.reasons)).toBe('execute');
};

const files: Record<string, string> = {
  'README.md': '# demo\n',
  'notes.txt': cleanOfLength(AWS.length),
  'same-tick.txt': cleanOfLength(PEM.length),
  'clean.txt': 'just text\n',
  'linked.txt': cleanOfLength(AWS.length),
  'swap.txt': 'plain\n',
  'src/a/b/c/d/code.ts': 'export const x = 1;\n',
  'dir/inner.txt': 'inner\n',
};

beforeAll(async () => {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(workspace, name, '..'), { recursive: true });
    writeFileSync(join(workspace, name), content);
  }
  mkdirSync(outside, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(outside, 'key.pem'), PEM);
  writeFileSync(join(outside, 'creds.txt'), AWS);
  mkdirSync(join(outside, 'tree'));
  writeFileSync(join(outside, 'tree', 'id_rsa'), PEM);
  // An outside name for linked.txt's inode: a write through it changes the content without a
  // name in the workspace moving.
  linkSync(join(workspace, 'linked.txt'), join(outside, 'hard-link.txt'));
  // Settled: every file's times lie before the verdicts below (the cache's own rule), so that
  // they are cached and reused — the state an attack meets.
  await new Promise((resolve) => setTimeout(resolve, 3_200));
}, 10_000);

describe('a clean verdict is cached, and a file that becomes secret is asked on the next call', () => {
  it('starts clean: recursive reads run unasked and nothing is hidden', async () => {
    for (const command of ['grep -r TODO .', 'rg TODO', 'find . -type f', 'grep -R TODO .', 'cat notes.txt']) {
      const verdict = await decide(command);
      expect(verdict.decision.action, `${command}: ${JSON.stringify(verdict.decision.reasons)}`).toBe('execute');
    }
    expect(hidden()).toEqual([]);
  });

  it('asks after a secret is written into an existing file at the same size, its mtime put back', async () => {
    await expectClean();
    const path = join(workspace, 'notes.txt');
    const before = lstatSync(path);
    writeFileSync(path, AWS);
    utimesSync(path, before.atime, before.mtime);
    expect(lstatSync(path).size).toBe(before.size);
    expect((await decide('grep -r TODO .')).decision.action).not.toBe('execute');
    expect((await decide('cat notes.txt')).decision.action).not.toBe('execute');
    expect(hidden()).toContain(path);
    writeFileSync(path, cleanOfLength(AWS.length));
  });

  it('asks after a secret is written in the same tick as the clean verdict (racy timestamps)', async () => {
    await expectClean();
    const path = join(workspace, 'same-tick.txt');
    writeFileSync(path, cleanOfLength(PEM.length));
    const clean = lstatSync(path, { bigint: true });
    expect((await decide('cat same-tick.txt')).decision.action).toBe('execute');
    writeFileSync(path, PEM);
    const secret = lstatSync(path, { bigint: true });
    // Whether or not the kernel's coarse clock moved between the two writes, the verdict must follow the content.
    expect(secret.size).toBe(clean.size);
    expect((await decide('cat same-tick.txt')).decision.action).not.toBe('execute');
    expect((await decide('grep -r TODO .')).decision.action).not.toBe('execute');
    expect(hidden()).toContain(path);
    unlinkSync(path);
  });

  it('asks after a secret file is renamed over a clean one', async () => {
    await expectClean();
    renameSync(join(outside, 'key.pem'), join(workspace, 'clean.txt'));
    expect((await decide('grep -r TODO .')).decision.action).not.toBe('execute');
    expect((await decide('cat clean.txt')).decision.action).not.toBe('execute');
    expect(hidden()).toContain(join(workspace, 'clean.txt'));
    unlinkSync(join(workspace, 'clean.txt'));
  });

  it('asks after a secret file is added deep in a cached tree', async () => {
    await expectClean();
    expect((await decide('grep -r TODO src')).decision.action).toBe('execute');
    const path = join(workspace, 'src/a/b/c/d/deploy.txt');
    writeFileSync(path, AWS);
    expect((await decide('grep -r TODO src')).decision.action).not.toBe('execute');
    expect((await decide('rg TODO')).decision.action).not.toBe('execute');
    expect(hidden()).toContain(path);
    unlinkSync(path);
  });

  it('asks after a clean file is swapped for a symbolic link to a secret', async () => {
    await expectClean();
    const path = join(workspace, 'swap.txt');
    unlinkSync(path);
    symlinkSync(join(outside, 'creds.txt'), path);
    expect((await decide('cat swap.txt')).decision.action).not.toBe('execute');
    expect((await decide('grep -R TODO .')).decision.action).not.toBe('execute');
    unlinkSync(path);
    writeFileSync(path, 'plain\n');
  });

  it('asks after a directory is swapped for a symbolic link to a tree holding a key', async () => {
    await expectClean();
    expect((await decide('grep -R TODO dir')).decision.action).toBe('execute');
    rmSync(join(workspace, 'dir'), { recursive: true });
    symlinkSync(join(outside, 'tree'), join(workspace, 'dir'));
    expect((await decide('grep -R TODO dir')).decision.action).not.toBe('execute');
    expect((await decide('grep -R TODO .')).decision.action).not.toBe('execute');
    unlinkSync(join(workspace, 'dir'));
  });

  it('asks after a secret is written through a hard link outside the workspace', async () => {
    await expectClean();
    writeFileSync(join(outside, 'hard-link.txt'), AWS);
    expect((await decide('grep -r TODO .')).decision.action).not.toBe('execute');
    expect((await decide('cat linked.txt')).decision.action).not.toBe('execute');
    expect(hidden()).toContain(join(workspace, 'linked.txt'));
  });
});
