import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeEffects } from '@riskgate/risk';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCommand, probeSandbox } from '../src/index.js';
import { generateLines } from './differential/generator.js';
import { runLines, type Scratch } from './differential/run-bash.js';
import { TRICKY_LINES } from './differential/tricky-lines.js';

/**
 * The walker checked against bash itself. Every line — 5,000 generated from a grammar with a
 * fixed seed, plus the collected tricky ones — is judged by the assessor and run by real bash
 * under strace inside bubblewrap. The test fails when bash executes a program the walker did
 * not name, attempts a write, opens a secret, connects, or prints a planted secret, on a line
 * the walker whitelisted (said only reads).
 */
// CI runs the fixed seed; another seed or size explores (DIFFERENTIAL_SEED=19 DIFFERENTIAL_LINES=20000).
const GENERATED = Number(process.env.DIFFERENTIAL_LINES ?? 5_000);
const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 18);

const hasStrace = (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const sandboxWorks = (await probeSandbox()).available && hasStrace;
if (process.env.CI !== undefined && !sandboxWorks)
  throw new Error('CI must run the differential bash test: install bubblewrap and strace');

// Outside /tmp: the bubblewrap view gives the lines a fresh /tmp.
const root = mkdtempSync('/var/tmp/riskgate-differential-');
// Ten thousand trace files: removing them takes a while on a busy machine.
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

function makeScratch(): Scratch {
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# demo\nx a\n');
  writeFileSync(join(workspace, 'data.csv'), 'a,b\n1,2\n');
  writeFileSync(join(workspace, 'package.json'), '{"name":"demo"}\n');
  writeFileSync(join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n');
  return { root, workspace, home, secretValue: 'ghp_differential0secret0value0000000000000' };
}

interface Verdict {
  readonly line: string;
  readonly whitelisted: boolean;
  readonly programs: ReadonlySet<string>;
}

async function judge(scratch: Scratch, line: string): Promise<Verdict> {
  const report = await assessCommand(line, { cwd: scratch.workspace, home: scratch.home, sandbox: false });
  const judgement = judgeEffects(report.effects, { cwd: scratch.workspace, home: scratch.home });
  const programs = new Set(report.subjects.map((subject) => subject.split(' ')[0]!.split('/').pop()!));
  return { line, whitelisted: judgement.whitelisted, programs };
}

describe.runIf(sandboxWorks)('the walker against real bash (strace inside bubblewrap)', () => {
  it(`finds no program, write, secret or connection bash runs behind a whitelisted verdict (${GENERATED} generated lines + the tricky ones)`, async () => {
    const scratch = makeScratch();
    const generated = generateLines(GENERATED, SEED);
    const tricky = Object.values(TRICKY_LINES).flat();
    const lines = [...tricky, ...generated.map((entry) => entry.line)];
    const verdicts: Verdict[] = [];
    for (const line of lines) verdicts.push(await judge(scratch, line));
    const observations = await runLines(scratch, lines);
    const mismatches: string[] = [];
    let payloadsRun = 0;
    observations.forEach((seen, index) => {
      const verdict = verdicts[index]!;
      if (seen.executed.some((program) => ['id', 'touch', 'rm', 'sh', 'mkdir'].includes(program))) payloadsRun++;
      if (!verdict.whitelisted) return;
      const unnamed = seen.executed.filter((program) => !verdict.programs.has(program));
      const problems = [
        ...unnamed.map((program) => `ran ${program}`),
        ...seen.writes.map((path) => `wrote ${path}`),
        ...seen.secretReads.map((path) => `opened ${path}`),
        ...seen.connects.map((target) => `connected ${target}`),
        ...(seen.leaked ? ['printed the planted secret'] : []),
      ];
      if (problems.length > 0) mismatches.push(`${JSON.stringify(verdict.line)}: ${problems.join(', ')}`);
    });
    const constructs = new Set(generated.flatMap((entry) => entry.constructs));
    const whitelisted = verdicts.filter((verdict) => verdict.whitelisted).length;
    console.log(
      `differential: ${lines.length} lines (${tricky.length} tricky), ${constructs.size} constructs, ${whitelisted} whitelisted, payload run by bash in ${payloadsRun}, mismatches ${mismatches.length}`,
    );
    // The test has teeth: bash really ran payloads in many lines, and many lines were whitelisted.
    expect(payloadsRun).toBeGreaterThan(500);
    expect(whitelisted).toBeGreaterThan(500);
    expect(mismatches).toEqual([]);
    // 5,000 lines, each run by bash under strace in bubblewrap: ~6 minutes in CI beside the other packages.
  }, 1_200_000);
});
