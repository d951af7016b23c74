import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createTempSqlite } from './helpers.js';

const shop = createTempSqlite();
afterAll(() => shop.cleanup());

/** Processes whose environment names this database: the SQLite reader of a session on it. */
function readersOf(path: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(path)) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

it.skipIf(process.platform !== 'linux')(
  'the reader of an endless read dies with riskgate, even when riskgate is killed with SIGKILL',
  { timeout: 30_000 },
  async () => {
    // tsx as a loader of this very process (its CLI would put a wrapper process in between).
    const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    const child = spawn(
      process.execPath,
      [
        '--import',
        loader,
        '--conditions=@riskgate/source',
        fileURLToPath(new URL('./fixtures/endless-read.ts', import.meta.url)),
        shop.path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const readers = readersOf(shop.path).filter((pid) => pid !== child.pid);
    expect(readers.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 3_000;
    while (readersOf(shop.path).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readersOf(shop.path)).toEqual([]);
  },
);
