import { afterAll, describe, expect, it } from 'vitest';
import { PROGRAM_ROWS } from '../src/assess/programs.js';
import type { ProgramRow } from '../src/assess/table.js';
import { LONG_TAIL_COMMANDS } from '../src/long-tail-commands.js';
import { SANDBOX_ONLY_COMMANDS } from '../src/sandbox-only-commands.js';
import { createGateFixture } from './gate-fixture.js';
import { judgeLine, matchProblem, notMatchProblem, programOf, verdictsOf } from './row-examples.js';

/**
 * Examples on the rule (issue 23, as codex's execpolicy checks each rule's `match` and
 * `not_match` when it loads a policy): every program row carries command lines it judges and,
 * where it has an edge, lines it must not judge so; this test runs them all through the real
 * assessor and judge. A row without a `match` fails, and so does an example that no longer holds.
 */
const fixture = createGateFixture();
afterAll(() => fixture.cleanup());

/** One entry per row: rows shared by several names (gzip, bzip2, …) are one row with one proof. */
const rows = new Map<ProgramRow, string[]>();
for (const [name, row] of Object.entries(PROGRAM_ROWS)) rows.set(row, [...(rows.get(row) ?? []), name]);
const table = [...rows].map(([row, names]) => [names.join(' '), row, names] as const);

describe('every program row proves itself with examples', () => {
  it.each(table)('%s has a match example of its own program and says what it is judged as', (_names, row, names) => {
    expect(row.match ?? []).not.toEqual([]);
    expect(verdictsOf(row)).not.toEqual([]);
    const lines = [...(row.match ?? []), ...(row.notMatch ?? [])];
    expect(lines.filter((line) => !names.includes(programOf(line)))).toEqual([]);
  });

  it.each(table)('%s judges its match examples as the row says, and not its notMatch ones', async (_names, row) => {
    const verdicts = verdictsOf(row);
    const problems: string[] = [];
    for (const line of row.match ?? []) {
      const problem = await matchProblem(fixture, line, verdicts, row.core === true);
      if (problem !== undefined) problems.push(problem);
    }
    for (const line of row.notMatch ?? []) {
      const problem = await notMatchProblem(fixture, line, verdicts);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });
});

/**
 * The sandbox-only forms (src/sandbox-only-commands.ts, src/long-tail-commands.ts) carry the
 * examples the strace test runs; here each must also run unasked in the sandbox (some are core
 * rows of the assessor and run unasked without it too), and each `notMatch` (a form left out) is
 * asked in the sandbox.
 */
const formRows = [...SANDBOX_ONLY_COMMANDS, ...LONG_TAIL_COMMANDS].map(
  (row) => [`${row.program} (${row.why})`, row] as const,
);

describe('every sandbox-only form proves itself with examples', () => {
  it.each(formRows)('%s', async (_what, row) => {
    const match = row.match ?? row.examples;
    expect(match).not.toEqual([]);
    const problems: string[] = [];
    for (const line of match) {
      if (!(await judgeLine(fixture, line, true)).whitelisted) problems.push(`${line}: asked in the sandbox`);
    }
    for (const line of row.notMatch ?? [])
      if ((await judgeLine(fixture, line, true)).whitelisted) problems.push(`${line}: runs unasked in the sandbox`);
    expect(problems).toEqual([]);
  });
});
