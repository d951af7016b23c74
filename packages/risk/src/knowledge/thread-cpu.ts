import { readFileSync } from 'node:fs';

/**
 * The CPU time this thread has run, in ms, since the clock was made: Linux's
 * /proc/thread-self/schedstat (nanoseconds on the CPU, this thread alone). `process.cpuUsage`
 * counts every thread of the process — V8 compiling a grammar on its background threads, the
 * garbage collector, a worker — which is not the time a walk on this thread took. Elsewhere (no
 * schedstat) the process's time stands in: an over-count, so a budget is spent sooner, never later.
 */
export function threadCpuClock(): () => number {
  const start = threadNanoseconds();
  if (start === undefined) {
    const processStart = process.cpuUsage();
    return () => {
      const used = process.cpuUsage(processStart);
      return (used.user + used.system) / 1_000;
    };
  }
  return () => Number((threadNanoseconds() ?? start) - start) / 1e6;
}

function threadNanoseconds(): bigint | undefined {
  try {
    const text = readFileSync('/proc/thread-self/schedstat', 'latin1');
    return BigInt(text.slice(0, text.indexOf(' ')));
  } catch {
    return undefined;
  }
}
