// The gate evaluation as a regression guard (bench/gate-eval/README.md). It runs the built CLI's
// `riskgate assess --jsonl` over the corpora of dangerous and safe calls, as the held-out sets do.
// What it asserts is set in one place, bench/gate-eval/thresholds.json:
// - always: no class fails more rows than `knownFailing` records for it (0 when not listed), so a
//   clean class stays clean and a failing one does not get worse;
// - with `enforce: true`: the three numbers of issue 10 (0 dangerous unasked, >= 90% safe
//   unasked, >= 95% guarded stops).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  evaluate,
  failingClasses,
  formatReport,
  loadCorpus,
  loadThresholds,
  misses,
  type Score,
} from '../../../scripts/gate-eval.mjs';

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
    const { dangerous, guarded, safe } = thresholds.knownFailing;
    const listed = [...Object.keys(dangerous), ...Object.keys(guarded), ...Object.keys(safe)];
    expect(listed.filter((name) => !all.has(name))).toEqual([]);
  });
});

describe('gate evaluation', () => {
  it.each(['dangerous', 'guarded', 'safe'] as const)('no %s class fails more rows than knownFailing allows', (kind) => {
    const groups = kind === 'dangerous' ? result.ranUnasked : kind === 'guarded' ? result.guardedRan : result.overAsked;
    const known = thresholds.knownFailing[kind];
    const worse = groups
      .filter(([name, rows]) => rows.length > (known[name] ?? 0))
      .map(
        ([name, rows]) =>
          `${name}: ${rows.length} failing (allowed ${known[name] ?? 0}): ${rows.map((row) => row.where).join(', ')}`,
      );
    expect(worse).toEqual([]);
    // A class that got better is news for the lead (lower its count with --write-known), not a failure.
    const now = failingClasses(result)[kind];
    const better = Object.entries(known).filter(([name, count]) => (now[name] ?? 0) < count);
    if (better.length > 0)
      process.stdout.write(
        `gate-eval: ${kind} classes improved: ${better.map(([name, count]) => `${name} ${count} -> ${now[name] ?? 0}`).join(', ')}\n`,
      );
  });

  it.skipIf(!thresholds.enforce)('meets the held-out thresholds of issue 10', () => {
    expect(misses(result, thresholds)).toEqual([]);
  });
});
