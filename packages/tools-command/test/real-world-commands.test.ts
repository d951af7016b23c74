import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFixture, type CorpusLine, loadCorpus } from '../../../bench/real-world-commands/fixture.mjs';
import { createExecuteCommandTool, evaluateToolCall } from '../src/index.js';

// The long tail of reads, measured (bench/real-world-commands/README.md): over tldr's examples,
// labelled read-only or side-effect by hand, the share the real assessor runs unasked — with the
// sandbox (as the assistant runs where bubblewrap works) and without it. Issue 18's marks: at least
// 70% of read-only lines unasked with the sandbox, at most 0.5% of side-effect lines in either case.
const corpus = loadCorpus();
// Side-effect lines that run unasked because of rows outside this measurement's files, each
// checked by hand (known-holes.json says why): listed so that any other one fails this test.
const knownHoles: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../../bench/real-world-commands/known-holes.json', import.meta.url), 'utf8'),
).commands;
const fixture = buildFixture();
afterAll(() => fixture.cleanup());
const tool = createExecuteCommandTool();

async function unasked(lines: readonly CorpusLine[], sandbox: boolean): Promise<CorpusLine[]> {
  const ran: CorpusLine[] = [];
  for (const line of lines) {
    const evaluation = await evaluateToolCall(
      tool,
      { command: line.command },
      { cwd: fixture.ws, home: fixture.home, ...(sandbox ? { sandbox: true } : {}) },
      { mode: 'smart', rules: [] },
    );
    if (evaluation.decision.action === 'execute') ran.push(line);
  }
  return ran;
}

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

function byFamily(lines: readonly CorpusLine[], ran: readonly CorpusLine[]): string {
  const families = [...new Set(lines.map((line) => line.family))];
  return families
    .map(
      (family) =>
        `${family} ${ran.filter((line) => line.family === family).length}/${lines.filter((line) => line.family === family).length}`,
    )
    .join(', ');
}

describe('tldr examples, labelled by hand, through the real assessor', () => {
  it('holds at least 1,000 lines of each label', () => {
    expect(corpus.read.length).toBeGreaterThanOrEqual(1000);
    expect(corpus.side.length).toBeGreaterThanOrEqual(1000);
  });

  it(
    'runs at least 70% of read-only lines unasked with the sandbox and at most 0.5% of side-effect lines',
    { timeout: 600_000 },
    async () => {
      const report: string[] = [];
      for (const sandbox of [true, false]) {
        const read = await unasked(corpus.read, sandbox);
        const side = await unasked(corpus.side, sandbox);
        report.push(
          `${sandbox ? 'with' : 'without'} the sandbox: read-only unasked ${read.length}/${corpus.read.length} (${pct(read.length, corpus.read.length)}); side-effect unasked ${side.length}/${corpus.side.length} (${pct(side.length, corpus.side.length)})`,
          `  read-only by family: ${byFamily(corpus.read, read)}`,
          ...side.map((line) => `  side-effect unasked: ${line.command}   # ${line.page}: ${line.description}`),
        );
        if (process.env.REAL_WORLD_ASKED !== undefined) {
          const asked = corpus.read.filter((line) => !read.includes(line));
          writeFileSync(
            `${process.env.REAL_WORLD_ASKED}.${sandbox ? 'sandbox' : 'plain'}`,
            asked.map((line) => `${line.family}\t${line.command}\t# ${line.description}`).join('\n'),
          );
        }
        const unexplained = side.filter((line) => !Object.hasOwn(knownHoles, line.command));
        const closed = Object.keys(knownHoles).filter((command) => !side.some((line) => line.command === command));
        if (closed.length > 0)
          report.push(
            `  known holes that no longer run unasked (remove them from known-holes.json): ${closed.join(' | ')}`,
          );
        expect.soft(unexplained.map((line) => line.command)).toEqual([]);
        expect.soft(unexplained.length / corpus.side.length).toBeLessThanOrEqual(0.005);
        if (sandbox) expect.soft(read.length / corpus.read.length).toBeGreaterThanOrEqual(0.7);
      }
      process.stdout.write(`${report.join('\n')}\n`);
    },
  );
});
