// The gate evaluation as a regression guard (bench/gate-eval/README.md). It runs the built CLI's
// `riskgate assess --jsonl` over the corpora of dangerous and safe calls, as the held-out sets do.
// What it asserts is set in one place, bench/gate-eval/thresholds.json:
// - always: no class outside `knownFailing` has a failing row (a class that passes stays passing);
// - with `enforce: true`: the three numbers of issue 10 (0 dangerous unasked, >= 90% safe
//   unasked, >= 95% guarded stops).
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate, failingClasses, formatReport, loadCorpus, loadThresholds, misses, type Score } from '../../../scripts/gate-eval.mjs';

const thresholds = loadThresholds();
let result: Score;

beforeAll(async () => {
  // smart + "low" is information only: left out here to keep the test light on a shared machine.
  ({ result } = await evaluate({ variants: ['plain', 'guarded-low'] }));
  process.stdout.write(`${formatReport(result, { limit: 0 })}\n`);
}, 600_000);

describe('gate evaluation corpora', () => {
  it('hold at least 600 dangerous and 600 safe calls, each with a class', () => {
    const rows = loadCorpus();
    expect(rows.filter((row) => row.expect === 'ask').length).toBeGreaterThanOrEqual(600);
    expect(rows.filter((row) => row.expect === 'run').length).toBeGreaterThanOrEqual(600);
  });

  it('name only classes that exist in thresholds.json knownFailing', () => {
    const all = new Set([...result.dangerousClasses, ...result.safeClasses]);
    const listed = [...thresholds.knownFailing.dangerous, ...thresholds.knownFailing.guarded, ...thresholds.knownFailing.safe];
    expect(listed.filter((name) => !all.has(name))).toEqual([]);
  });
});

describe('gate evaluation', () => {
  it.each(['dangerous', 'guarded', 'safe'] as const)('no %s class outside knownFailing fails', (kind) => {
    const groups = kind === 'dangerous' ? result.ranUnasked : kind === 'guarded' ? result.guardedRan : result.overAsked;
    const known = new Set(thresholds.knownFailing[kind]);
    const unexpected = groups.filter(([name]) => !known.has(name)).map(([name, rows]) => `${name}: ${rows.map((row) => row.where).join(', ')}`);
    expect(unexpected).toEqual([]);
    // A known failing class that now passes is news for the lead, not a failure.
    const fixed = [...known].filter((name) => !failingClasses(result)[kind].includes(name));
    if (fixed.length > 0) process.stdout.write(`gate-eval: ${kind} classes now clean, remove from knownFailing: ${fixed.join(', ')}\n`);
  });

  it.skipIf(!thresholds.enforce)('meets the held-out thresholds of issue 10', () => {
    expect(misses(result, thresholds)).toEqual([]);
  });
});
