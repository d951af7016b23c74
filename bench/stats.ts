export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/**
 * Per-statement cost: each call runs `rounds` times (interleaved with the others) and its
 * median is its cost; p50/p99 are taken over calls. On this shared 2-core VM a single run can
 * be descheduled for a ~4 ms tick; a median of five is not moved by one. `worstSingleRun` is
 * the slowest single wall-clock run seen, ticks included.
 */
export async function measure(calls: readonly (() => Promise<unknown>)[], rounds: number) {
  const runs: number[][] = calls.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, call] of calls.entries()) {
      const started = performance.now();
      await call();
      runs[index]!.push(performance.now() - started);
    }
  }
  const medians = runs.map((times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!);
  return { ...summarize(medians), worstSingleRun: Math.max(...runs.flat()) };
}
