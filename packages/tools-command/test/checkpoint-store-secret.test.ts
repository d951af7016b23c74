import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateFixture, gate } from './gate-fixture.js';

/**
 * Issue 21: riskgate's copies for /undo hold the bytes of overwritten files (a `.env`, a key).
 * Wherever the state directory in force is — the default `~/.local/state`, `$XDG_STATE_HOME`
 * elsewhere, inside the workspace, or reached through a link — the model's commands that read
 * it are asked, with the reason; never run unasked.
 */
const fixture = createGateFixture();
const saved = process.env.XDG_STATE_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = saved;
});
afterAll(() => fixture.cleanup());

const ENV = 'API_KEY=sk-live-0123456789abcdef\n';

/** A state directory with one kept `.env`, as the store leaves it. */
function plantStore(state: string): string {
  const project = join(state, 'riskgate', 'checkpoints', '0123456789abcdef');
  mkdirSync(join(project, 'blobs'), { recursive: true });
  mkdirSync(join(project, 'sets'), { recursive: true });
  writeFileSync(join(project, 'blobs', 'a'.repeat(64)), ENV);
  writeFileSync(join(project, 'sets', '000001.json'), `{"roots":["${fixture.workspace}/.env"]}`);
  return project;
}

const PLACES: [string, () => string][] = [
  ['XDG_STATE_HOME outside the home and the workspace', () => join(fixture.root, 'elsewhere-state')],
  ['XDG_STATE_HOME inside the workspace', () => join(fixture.workspace, '.state')],
  [
    'XDG_STATE_HOME a link to a folder elsewhere',
    () => {
      const real = join(fixture.root, 'real-state');
      mkdirSync(real, { recursive: true });
      const link = join(fixture.root, 'linked-state');
      if (!existsSync(link)) symlinkSync(real, link);
      return link;
    },
  ],
];

/** Commands that would show a kept copy; `{state}` and `{project}` are filled in per place. */
const READS = [
  'cat {project}/blobs/*',
  'cat {state}/riskgate/checkpoints/*/blobs/*',
  'head -c 100 {project}/blobs/{blob}',
  'grep -r API_KEY {state}',
  'grep -rl sk-live {state}/riskgate',
  'find {state} -type f -exec cat {} +',
  'xargs cat < /dev/null; cat {project}/blobs/{blob}',
  'ls -la {project}/blobs',
  'cat {project}/sets/000001.json',
  'tail {state}/riskgate/checkpoints/0123456789abcdef/blobs/{blob}',
  'base64 {project}/blobs/{blob}',
  'cp {project}/blobs/{blob} copy.txt',
  'cd {project}/blobs && cat *',
];

describe('the state directory in force is a secret path for the model commands', () => {
  for (const [place, make] of PLACES) {
    it.each(READS)(`${place}: %s is asked`, async (template) => {
      const state = make();
      process.env.XDG_STATE_HOME = state;
      const project = plantStore(state);
      const command = template
        .replaceAll('{project}', project)
        .replaceAll('{state}', state)
        .replaceAll('{blob}', 'a'.repeat(64));
      const evaluation = await gate(fixture, { command });
      expect(evaluation.decision.action).not.toBe('execute');
      if (evaluation.valid)
        expect(evaluation.assessment.reasons.join('\n')).toMatch(/copies of changed files for \/undo/);
    });
  }

  it('a recursive read of the workspace that holds the state directory is asked', async () => {
    const state = join(fixture.workspace, '.state');
    process.env.XDG_STATE_HOME = state;
    plantStore(state);
    for (const command of ['grep -r API_KEY .', 'grep -ra sk-live', 'find . -type f -exec cat {} +']) {
      const evaluation = await gate(fixture, { command });
      expect(evaluation.decision.action, command).not.toBe('execute');
    }
  });

  it('control: the same folder is not secret while XDG_STATE_HOME names another', async () => {
    const state = join(fixture.root, 'control-state');
    const project = plantStore(state);
    process.env.XDG_STATE_HOME = join(fixture.root, 'other-state');
    // Its content alone (a key=value line) may still make it a secret: a harmless name only.
    const listing = await gate(fixture, { command: `ls ${project}` });
    expect(listing.valid && listing.assessment.reasons.join('\n')).not.toMatch(/copies of changed files/);
  });
});
