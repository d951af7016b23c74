import { judgeEffects } from '@riskgate/risk';
import type { ProgramRow, RowVerdict } from '../src/assess/table.js';
import { assessCommand } from '../src/index.js';
import type { GateFixture } from './gate-fixture.js';

/**
 * How a row's examples are checked (test/program-row-examples.test.ts): each line goes through
 * the real assessor and the one judge, in the gate fixture's workspace and home, with and
 * without the sandbox.
 */
export interface LineJudgement {
  /** Runs unasked. */
  readonly whitelisted: boolean;
  /** The kinds of effect the assessor reported. */
  readonly kinds: ReadonlySet<string>;
}

export async function judgeLine(fixture: GateFixture, line: string, sandbox: boolean): Promise<LineJudgement> {
  const context = { cwd: fixture.workspace, home: fixture.home };
  const report = await assessCommand(line, { ...context, sandbox });
  return {
    whitelisted: judgeEffects(report.effects, context).whitelisted,
    kinds: new Set(report.effects.map((effect) => effect.kind)),
  };
}

/** What the row's `match` examples are judged as: said by the row, or read from its shape. */
export function verdictsOf(row: ProgramRow): readonly RowVerdict[] {
  if (row.judged !== undefined) return [row.judged];
  // A judge in code or a table of subcommands: its shape does not say, the row must.
  if (row.custom !== undefined || row.subcommands !== undefined || row.otherSubcommands !== undefined) return [];
  if (row.effects !== undefined && row.effects.length > 0)
    return [...new Set(row.effects.map((effect) => effect.kind))];
  const uses = [row.operands, row.last];
  if (uses.includes('delete')) return ['delete-path'];
  if (uses.includes('write')) return ['write-path'];
  return ['read'];
}

/** The first word a line runs, after `NAME=value` assignments. */
export function programOf(line: string): string {
  return line.split(/\s+/).find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
}

/**
 * Why `line` is not judged as `verdicts` say (undefined when it is). `core` rows' reads run
 * unasked without the sandbox too; other rows' reads are asked there.
 */
export async function matchProblem(
  fixture: GateFixture,
  line: string,
  verdicts: readonly RowVerdict[],
  core: boolean,
): Promise<string | undefined> {
  const inside = await judgeLine(fixture, line, true);
  if (verdicts.includes('read')) {
    if (!inside.whitelisted) return `${line}: asked in the sandbox (${[...inside.kinds].join(', ')})`;
    const outside = await judgeLine(fixture, line, false);
    if (core && !outside.whitelisted) return `${line}: asked without the sandbox, although the row is core`;
    if (!core && outside.whitelisted) return `${line}: runs unasked without the sandbox, although the row is not core`;
    return undefined;
  }
  const missing = verdicts.filter((kind) => !inside.kinds.has(kind));
  if (missing.length > 0) return `${line}: no ${missing.join(', ')} (reported: ${[...inside.kinds].join(', ')})`;
  if (inside.whitelisted) return `${line}: runs unasked`;
  return undefined;
}

/** Why `line` is judged as `verdicts` say although it should not be (undefined when it is not). */
export async function notMatchProblem(
  fixture: GateFixture,
  line: string,
  verdicts: readonly RowVerdict[],
): Promise<string | undefined> {
  const inside = await judgeLine(fixture, line, true);
  if (verdicts.includes('read')) return inside.whitelisted ? `${line}: runs unasked in the sandbox` : undefined;
  const present = verdicts.filter((kind) => inside.kinds.has(kind));
  return present.length > 0 ? `${line}: reports ${present.join(', ')}` : undefined;
}
