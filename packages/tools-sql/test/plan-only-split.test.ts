import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The SQL text is split in one place: the assessor (with the lexer and the engines' grammars it
// uses). Every other module — the tools, the connections, the reader and writer processes —
// works from the plan's statements (issue 23: the text was split again 8 times and paired with
// the analyses by index, and a BEGIN ATOMIC script was sent in other pieces than were judged).
const SOURCE = new URL('../src/', import.meta.url);
const SPLITTERS = new Set([
  'sql-lexer.ts',
  'sql-assessor.ts',
  'mysql-analysis.ts',
  'sqlite-analysis.ts',
  'secret-column-reads.ts',
  'sqlite-assessment.ts',
  // Re-exports the lexer for the package's users; splits nothing itself.
  'index.ts',
]);
const SPLITTING =
  /\blexSql\s*\(|\bparseSync\b|\bparseTrees\b|from 'libpg-query'|import\('libpg-query'\)|\.split\(\s*(';'|\/;)/;

describe('only the assessor splits SQL', () => {
  const files = readdirSync(SOURCE).filter((name) => name.endsWith('.ts'));

  it.each(files.filter((name) => !SPLITTERS.has(name)))('%s does not split SQL text', (name) => {
    const text = readFileSync(new URL(name, SOURCE), 'utf8');
    expect(text.split('\n').filter((line) => SPLITTING.test(line))).toEqual([]);
  });

  it('the connections take a plan, not SQL text', () => {
    for (const name of files.filter((file) => /connection\.ts$/.test(file))) {
      const text = readFileSync(new URL(name, SOURCE), 'utf8');
      expect(text, name).not.toMatch(/\b(run|preview|estimate)\(\s*sql: string/);
    }
  });
});
