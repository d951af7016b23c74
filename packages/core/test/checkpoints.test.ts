import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Effect, judgeEffects } from '@riskgate/risk';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointLimits, Checkpoints, DEFAULT_CHECKPOINT_LIMITS, undoNote } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-checkpoints-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let workspace: string;
let state: string;
let store: Checkpoints;
let index = 0;

function open(options: { limits?: CheckpointLimits; keep?: number } = {}): Checkpoints {
  return new Checkpoints({ cwd: workspace, home: join(root, 'home'), directory: state, ...options });
}

beforeEach(() => {
  index += 1;
  workspace = join(root, `workspace-${index}`);
  state = join(root, `state-${index}`, 'checkpoints');
  mkdirSync(workspace, { recursive: true });
  store = open();
});

const at = (name: string) => join(workspace, name);
const judged = (...effects: Effect[]) => judgeEffects(effects, { cwd: workspace, home: join(root, 'home') }).effects;

/** Keeps what the effects name, runs `change`, and records the change set, as the gate does around a call. */
async function around(effects: readonly Effect[], change: () => void, on = store) {
  const plan = on.plan(judged(...effects));
  if (plan === undefined) throw new Error('no undo plan');
  const pending = await on.capture(plan);
  change();
  return on.commit(pending, { tool: 'test', title: effects.map((effect) => effect.kind).join(' ') });
}

/** Every byte value, so "byte for byte" is tested on more than text. */
const BINARY = Buffer.from(Array.from({ length: 512 }, (_, byte) => byte % 256));

describe('checkpoints for /undo', () => {
  it('puts back a modified file byte for byte, with its mode', async () => {
    writeFileSync(at('a.bin'), BINARY);
    chmodSync(at('a.bin'), 0o640);
    await around([{ kind: 'write-path', path: at('a.bin') }], () => {
      writeFileSync(at('a.bin'), 'overwritten');
      chmodSync(at('a.bin'), 0o600);
    });
    const result = await store.undo('last');
    expect(result.type).toBe('restored');
    expect(readFileSync(at('a.bin')).equals(BINARY)).toBe(true);
    expect(statSync(at('a.bin')).mode & 0o7777).toBe(0o640);
  });

  it('removes a file the call created, and the directories it created for it', async () => {
    await around([{ kind: 'write-path', path: at('new/deep/c.txt') }], () => {
      mkdirSync(at('new/deep'), { recursive: true });
      writeFileSync(at('new/deep/c.txt'), 'created');
    });
    expect((await store.undo('last')).type).toBe('restored');
    expect(existsSync(at('new'))).toBe(false);
  });

  it('brings back a deleted file and a deleted tree, links kept as links and never followed', async () => {
    writeFileSync(at('gone.bin'), BINARY);
    chmodSync(at('gone.bin'), 0o751);
    mkdirSync(at('tree/inner'), { recursive: true });
    writeFileSync(at('tree/inner/x.txt'), 'x');
    symlinkSync('/etc/passwd', at('tree/link'));
    const changeSet = await around(
      [
        { kind: 'delete-path', path: at('gone.bin') },
        { kind: 'delete-path', path: at('tree'), recursive: true },
      ],
      () => {
        unlinkSync(at('gone.bin'));
        rmSync(at('tree'), { recursive: true });
      },
    );
    // Two files kept: the link's target (outside the workspace) was never read.
    expect(readdirSync(join(await store.directory(), 'blobs'))).toHaveLength(2);
    expect(changeSet?.before.find((item) => item.path === at('tree/link'))).toMatchObject({
      type: 'symlink',
      target: '/etc/passwd',
    });
    expect((await store.undo('last')).type).toBe('restored');
    expect(readFileSync(at('gone.bin')).equals(BINARY)).toBe(true);
    expect(statSync(at('gone.bin')).mode & 0o7777).toBe(0o751);
    expect(readFileSync(at('tree/inner/x.txt'), 'utf8')).toBe('x');
    expect(lstatSync(at('tree/link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('tree/link'))).toBe('/etc/passwd');
  });

  it('takes a move back: the source returns and the destination goes', async () => {
    writeFileSync(at('from.txt'), 'moved');
    await around(
      [
        { kind: 'delete-path', path: at('from.txt') },
        { kind: 'write-path', path: at('to.txt') },
      ],
      () => renameSync(at('from.txt'), at('to.txt')),
    );
    expect((await store.undo('last')).type).toBe('restored');
    expect(readFileSync(at('from.txt'), 'utf8')).toBe('moved');
    expect(existsSync(at('to.txt'))).toBe(false);
  });

  it('keeps the files a pattern matches when the call runs', async () => {
    writeFileSync(at('one.log'), '1');
    writeFileSync(at('two.log'), '2');
    await around([{ kind: 'delete-path', path: at('*.log'), pattern: true }], () => {
      unlinkSync(at('one.log'));
      unlinkSync(at('two.log'));
    });
    await store.undo('last');
    expect(readFileSync(at('one.log'), 'utf8') + readFileSync(at('two.log'), 'utf8')).toBe('12');
  });

  it('says a write through a link that leaves the workspace cannot be undone, and keeps nothing of it', () => {
    const outside = join(root, `outside-${index}.txt`);
    writeFileSync(outside, 'outside');
    symlinkSync(outside, at('escape'));
    const plan = store.plan(judged({ kind: 'write-path', path: at('escape') }));
    expect(plan?.targets).toEqual([]);
    expect(plan?.cannot.join(' ')).toMatch(/escape is a symbolic link to .*outside-\d+\.txt, outside the workspace/);
  });

  it('says a file over the size limit cannot be undone before the call runs', () => {
    const small = open({ limits: { ...DEFAULT_CHECKPOINT_LIMITS, maxFileBytes: 100 } });
    writeFileSync(at('big.bin'), Buffer.alloc(101));
    writeFileSync(at('small.txt'), 'fits');
    const plan = small.plan(
      judged({ kind: 'write-path', path: at('big.bin') }, { kind: 'delete-path', path: at('small.txt') }),
    );
    expect(plan?.shown).toEqual(['small.txt']);
    expect(plan?.cannot).toEqual([expect.stringMatching(/big\.bin is too large \(0\.0 MB; the limit is 0\.0 MB\)/)]);
  });

  it.each<[string, Effect, RegExp]>([
    ['a program it does not read', { kind: 'run-program', program: 'python3' }, /runs python3.*not known/],
    ['an HTTP POST', { kind: 'connect', host: 'example.com', method: 'POST', scheme: 'https' }, /example\.com/],
    [
      'a database write',
      { kind: 'write-db', object: 'orders', detail: 'DELETE removes rows of orders' },
      /database write is not kept/,
    ],
    ['what could not be read', { kind: 'unknown', detail: 'rm -f is not among the options' }, /rm -f.*not known/],
  ])('says %s cannot be undone', (_name, effect, words) => {
    const plan = store.plan(judged(effect));
    expect(plan?.targets).toEqual([]);
    expect(plan?.cannot.join('\n')).toMatch(words);
  });

  it('has nothing to say of a call that only reads', () => {
    writeFileSync(at('read.txt'), 'r');
    expect(store.plan(judged({ kind: 'read-path', path: at('read.txt') }))).toBeUndefined();
  });

  it('refuses to undo over a later edit, names it, and --force restores after keeping that edit', async () => {
    writeFileSync(at('c.txt'), 'original');
    await around([{ kind: 'write-path', path: at('c.txt') }], () => writeFileSync(at('c.txt'), 'by the call'));
    writeFileSync(at('c.txt'), "the person's edit");
    const refused = await store.undo('last');
    expect(refused).toMatchObject({ type: 'conflict', paths: [at('c.txt')] });
    expect(readFileSync(at('c.txt'), 'utf8')).toBe("the person's edit");
    const forced = await store.undo(1, true);
    expect(forced.type).toBe('restored');
    expect(readFileSync(at('c.txt'), 'utf8')).toBe('original');
    // The edit the force overwrote is a change set of its own: it can be put back.
    const sets = await store.list();
    expect(sets[0]).toMatchObject({ backup: true, tool: 'undo' });
    expect((await store.undo(1)).type).toBe('restored');
    expect(readFileSync(at('c.txt'), 'utf8')).toBe("the person's edit");
  });

  it('never restores through a directory swapped for a link since, not even with --force', async () => {
    mkdirSync(at('sub'));
    writeFileSync(at('sub/f.txt'), 'kept');
    await around([{ kind: 'delete-path', path: at('sub/f.txt') }], () => unlinkSync(at('sub/f.txt')));
    const elsewhere = join(root, `elsewhere-${index}`);
    mkdirSync(elsewhere);
    rmSync(at('sub'), { recursive: true });
    symlinkSync(elsewhere, at('sub'));
    expect(await store.undo('last', true)).toMatchObject({
      type: 'refused',
      message: expect.stringMatching(/on the way to .*sub\/f\.txt is now a symbolic link/),
    });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('undoes the newest change not undone yet, and refuses one undone already', async () => {
    writeFileSync(at('d.txt'), '0');
    await around([{ kind: 'write-path', path: at('d.txt') }], () => writeFileSync(at('d.txt'), '1'));
    await around([{ kind: 'write-path', path: at('d.txt') }], () => writeFileSync(at('d.txt'), '2'));
    await store.undo('last');
    expect(readFileSync(at('d.txt'), 'utf8')).toBe('1');
    await store.undo('last');
    expect(readFileSync(at('d.txt'), 'utf8')).toBe('0');
    const list = await store.list();
    const undone = list.findIndex((set) => set.backup !== true) + 1;
    expect(await store.undo(undone)).toMatchObject({
      type: 'refused',
      message: expect.stringMatching(/already undone/),
    });
  });

  it('records no change set when the call changed nothing', async () => {
    writeFileSync(at('same.txt'), 'same');
    expect(await around([{ kind: 'write-path', path: at('same.txt') }], () => {})).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('keeps its copies private: directories 0700, files 0600', async () => {
    writeFileSync(at('.env'), 'TOKEN=secret');
    chmodSync(at('.env'), 0o644);
    await around([{ kind: 'write-path', path: at('.env') }], () => writeFileSync(at('.env'), 'TOKEN=other'));
    const directory = await store.directory();
    for (const folder of [state, directory, join(directory, 'sets'), join(directory, 'blobs')])
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const folder of ['sets', 'blobs'])
      for (const name of readdirSync(join(directory, folder)))
        expect(statSync(join(directory, folder, name)).mode & 0o777).toBe(0o600);
    expect(directory.startsWith(workspace)).toBe(false);
  });

  it('keeps the newest change sets only, and drops the bytes no kept one names', async () => {
    const few = open({ keep: 2 });
    const step = async (version: string) => {
      writeFileSync(at('e.txt'), `before ${version}`);
      await around([{ kind: 'write-path', path: at('e.txt') }], () => writeFileSync(at('e.txt'), version), few);
    };
    for (const version of ['v1', 'v2', 'v3']) await step(version);
    const blobs = join(await few.directory(), 'blobs');
    expect(await few.list()).toHaveLength(2);
    // A copy less than an hour old may be another session's call in flight: it stays.
    expect(readdirSync(blobs)).toHaveLength(3);
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of readdirSync(blobs)) utimesSync(join(blobs, name), hoursAgo, hoursAgo);
    await step('v4');
    const kept = (await few.list()).map((set) => set.before[0]?.type === 'file' && set.before[0].hash);
    expect(kept).toHaveLength(2);
    expect(readdirSync(blobs).sort()).toEqual([...kept].sort());
  });

  it('tells the model which paths went back, never their content', async () => {
    writeFileSync(at('secret.txt'), 'hunter2-content');
    const changeSet = await around([{ kind: 'write-path', path: at('secret.txt') }], () =>
      writeFileSync(at('secret.txt'), 'new'),
    );
    const note = undoNote(changeSet!);
    expect(note).toContain(at('secret.txt'));
    expect(note).not.toContain('hunter2');
  });
});
