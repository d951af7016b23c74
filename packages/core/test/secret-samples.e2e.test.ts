import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecuteCommandTool, probeSandbox } from '@riskgate/tools-command';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKALIKES, type SecretSample, secretSamples } from '../../risk/test/secret-samples.js';
import { createOutputGuard, runGatedToolCall } from '../src/index.js';

// Issue 17's measure, end to end: the sample table written into files of a scratch workspace,
// read by a whitelisted `cat` and `grep -rn` through the gated executor and the real command
// tool (in the sandbox where it works), the way an unasked call runs; the model's copy must not
// hold the secret. A call the gate asks about is refused here (no one to ask): kept as well, and
// counted apart so the guard's own share is visible.
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-secret-samples-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const tool = createExecuteCommandTool();
const guard = createOutputGuard({ env: {} });
let sandbox = false;
beforeAll(async () => {
  sandbox = (await probeSandbox()).available;
});

async function runUnasked(command: string): Promise<{ forModel: string; asked: boolean }> {
  const outcome = await runGatedToolCall(
    { id: 'call', name: tool.name, arguments: { command } },
    { tools: [tool], policy: { mode: 'smart', rules: [] }, assess: { cwd: workspace, sandbox }, outputGuard: guard },
  );
  return { forModel: outcome.forModel, asked: outcome.state === 'denied' };
}

/** Samples in batches of files small enough that a result stays under the tool's 30 KB cap. */
function writeBatches(
  samples: readonly SecretSample[],
  size: number,
): { directory: string; samples: readonly SecretSample[] }[] {
  const batches: { directory: string; samples: readonly SecretSample[] }[] = [];
  for (let at = 0; at < samples.length; at += size) {
    const directory = `batch${batches.length}`;
    const batch = samples.slice(at, at + size);
    mkdirSync(join(workspace, directory));
    writeFileSync(join(workspace, directory, 'settings.conf'), `${batch.map((sample) => sample.text).join('\n')}\n`);
    batches.push({ directory, samples: batch });
  }
  return batches;
}

describe('secrets kept from the model end to end (whitelisted cat and grep -rn, real commands)', () => {
  const samples = secretSamples();
  const batches = writeBatches(samples, 40);

  it.each([
    ['cat', (directory: string) => `cat ${directory}/settings.conf`],
    ['grep -rn', (directory: string) => `grep -rn . ${directory}`],
  ])(
    'through %s at least 97% of the samples are kept',
    async (_name, command) => {
      let leaked: SecretSample[] = [];
      let asked = 0;
      for (const batch of batches) {
        const { forModel, asked: wasAsked } = await runUnasked(command(batch.directory));
        if (wasAsked) asked += batch.samples.length;
        // The command really ran and returned the file: the check is not passed by an empty result.
        if (!wasAsked) expect(forModel).toContain(batch.samples[0]!.text.split('\n')[0]!.slice(0, 12));
        leaked = [...leaked, ...batch.samples.filter((sample) => forModel.includes(sample.secret))];
      }
      process.stdout.write(`${_name}: ${samples.length} samples, ${leaked.length} leaked, ${asked} in asked calls\n`);
      expect(samples.length).toBeGreaterThanOrEqual(1_000);
      expect(leaked.length / samples.length).toBeLessThanOrEqual(0.03);
    },
    300_000,
  );

  it('passes at least 95% of lookalikes unchanged through cat and grep -rn', async () => {
    const falsePositives = (
      JSON.parse(
        readFileSync(new URL('../../risk/test/fixtures-gitleaks-false-positives.json', import.meta.url), 'utf8'),
      ) as { samples: { text: string }[] }
    ).samples;
    const texts = [...falsePositives.map((sample) => sample.text), ...LOOKALIKES.map(([, text]) => text)].filter(
      (text) => !text.includes('\r'),
    );
    const directory = 'lookalikes';
    mkdirSync(join(workspace, directory));
    let changed = 0;
    // One file each: a lookalike passes when the model's copy of the command holds it whole.
    for (const [index, text] of texts.entries())
      writeFileSync(join(workspace, directory, `l${index}.txt`), `${text}\n`);
    for (const [index, text] of texts.entries()) {
      const path = `${directory}/l${index}.txt`;
      const { forModel: catted } = await runUnasked(`cat ${path}`);
      // `grep -Hn ''`: every line, with the path and number before it, as `grep -rn` prints them.
      const { forModel: grepped } = await runUnasked(`grep -Hn '' ${path}`);
      const numbered = text
        .split('\n')
        .map((line, number) => `${path}:${number + 1}:${line}`)
        .join('\n');
      if (!catted.includes(text) || !grepped.includes(numbered)) changed++;
    }
    process.stdout.write(`lookalikes: ${texts.length}, changed ${changed}\n`);
    expect(changed / texts.length).toBeLessThanOrEqual(0.05);
    // Two sandboxed commands per lookalike, one after another: minutes on a loaded machine.
  }, 900_000);
});
