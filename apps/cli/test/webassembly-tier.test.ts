import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from './run-cli.js';

/**
 * V8 names the compiler of every WebAssembly function it compiles under
 * --trace-wasm-compilation-times ("Compiled function … using Liftoff" / "using TurboFan").
 * Without riskgate's setting, the bash grammar's lexer is tiered up with TurboFan after a few
 * parses (~320 ms of a worker that Node waits for when its event loop empties: mid-call and at
 * exit); with it, no function ever is.
 */
function compilers(lines: readonly object[]): { liftoff: number; turbofan: number } {
  const result = spawnSync(
    process.execPath,
    ['--trace-wasm-compilation-times', BIN, 'assess', '--jsonl', '--no-sandbox'],
    { input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  expect(result.status, result.stderr).toBe(0);
  return {
    liftoff: result.stdout.match(/using Liftoff/g)?.length ?? 0,
    turbofan: result.stdout.match(/using TurboFan/g)?.length ?? 0,
  };
}

describe('WebAssembly in the riskgate process', () => {
  it('compiles the bash grammar with Liftoff only, however hot its lexer gets', () => {
    const lines = Array.from({ length: 300 }, (_, index) => ({
      tool: 'execute_command',
      args: { command: `cat file${index} | grep -v "x${index}" | sort | uniq -c` },
    }));
    const seen = compilers(lines);
    expect(seen.liftoff).toBeGreaterThan(0);
    expect(seen.turbofan).toBe(0);
  });

  it('compiles PostgreSQL’s parser (libpg-query) with Liftoff only', () => {
    const lines = Array.from({ length: 300 }, (_, index) => ({
      tool: 'execute_sql',
      dialect: 'postgres',
      args: { sql: `SELECT a, count(*) FROM t${index} WHERE b IN (1, 2, ${index}) GROUP BY a ORDER BY 2 DESC` },
    }));
    const seen = compilers(lines);
    expect(seen.liftoff).toBeGreaterThan(0);
    expect(seen.turbofan).toBe(0);
  });
});
