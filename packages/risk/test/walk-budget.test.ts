import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { threadCpuClock } from '../src/knowledge/thread-cpu.js';
import { walkBudget } from '../src/knowledge/tree-scan.js';

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Busy on this thread.
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
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
    spin(60);
    expect(clock()).toBeGreaterThan(45);
  });

  it('does not count a busy thread beside it, nor time this thread waits', async () => {
    worker = await busyThread();
    const budget = walkBudget(30);
    const clock = threadCpuClock();
    const processStart = process.cpuUsage();
    sleep(120);
    const processUsed = process.cpuUsage(processStart);
    const processMs = (processUsed.user + processUsed.system) / 1_000;
    // The process spent the worker's CPU (what the budget counted before, and asked for)…
    expect(processMs).toBeGreaterThan(60);
    // …this thread hardly any: past the budget's wall clock, it is not spent.
    expect(clock()).toBeLessThan(20);
    expect(budget()).toBe(false);
  });

  it('is spent when this thread has worked past it, busy thread or not', async () => {
    worker = await busyThread();
    const budget = walkBudget(30);
    spin(80);
    expect(budget()).toBe(true);
  });
});
