import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { threadCpuClock } from '../src/knowledge/thread-cpu.js';
import { walkBudget } from '../src/knowledge/tree-scan.js';

/** The process's CPU time (every thread) since `start`, in ms. */
function processCpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1_000;
}

/** Busy on this thread until `done` (CPU-clock conditions: a loaded machine only makes it take longer). */
function spinUntil(done: () => boolean): void {
  const give = performance.now() + 10_000;
  while (!done() && performance.now() < give) {
    // Busy on this thread.
  }
}

/** Asleep on this thread (no CPU) until `done`, looked at every 5 ms. */
function sleepUntil(done: () => boolean): void {
  const give = performance.now() + 10_000;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!done() && performance.now() < give) Atomics.wait(cell, 0, 0, 5);
}

/** A worker thread of this process that keeps a CPU busy until terminated. */
async function busyThread(): Promise<Worker> {
  const worker = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.postMessage('busy'); for (;;) {}",
    { eval: true },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return worker;
}

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

describe("a recursive read's time budget counts the walk's own thread", () => {
  it('counts CPU this thread spends', () => {
    const clock = threadCpuClock();
    const start = process.cpuUsage();
    spinUntil(() => processCpuMs(start) > 60);
    // Nothing else in the process is busy: this thread's time is most of the process's.
    expect(clock()).toBeGreaterThan(40);
  });

  it('does not count a busy thread beside it, nor time this thread waits', async () => {
    worker = await busyThread();
    const budget = walkBudget(30);
    const clock = threadCpuClock();
    const start = process.cpuUsage();
    // Asleep until the worker alone has spent 80 ms of the process's CPU (what the budget
    // counted before, and asked for): at least 80 ms of wall clock, past the budget's 30.
    sleepUntil(() => processCpuMs(start) > 80);
    expect(processCpuMs(start)).toBeGreaterThan(80);
    expect(clock()).toBeLessThan(20);
    expect(budget()).toBe(false);
  });

  it('is spent when this thread has worked past it, busy thread or not', async () => {
    worker = await busyThread();
    const budget = walkBudget(30);
    const clock = threadCpuClock();
    spinUntil(() => clock() > 45);
    expect(budget()).toBe(true);
  });
});
