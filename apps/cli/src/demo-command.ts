import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startScriptedModelServer } from '@riskgate/testing';
import { ensureDemoDatabase } from '@riskgate/tools-sql';
import { DEMO_END, DEMO_MODEL, DEMO_REPLIES } from './demo-script.js';
import { modeFromFlags } from './mode-flag.js';

/** Enough repeats of the closing line for any session a person has with the demo. */
const CLOSING_REPEATS = 1_000;

/**
 * `riskgate demo`: SQL mode on a fresh copy of the demo database, talking to a scripted model on
 * 127.0.0.1 — the whole product without a key or a network. Each run builds its own copy (the
 * same seeded data every time) in a temporary folder and removes it at the end, so the demo
 * plays the same way every time: the DELETE it proposes always has rows to delete.
 */
export async function runDemo(
  argv: readonly string[],
  io: { readonly stderr: NodeJS.WritableStream },
): Promise<number> {
  let mode: ReturnType<typeof modeFromFlags>;
  try {
    const { values } = parseArgs({ args: [...argv], strict: true, options: { mode: { type: 'string' } } });
    mode = modeFromFlags(values);
  } catch (error) {
    mode = { error: (error as Error).message };
  }
  if ('error' in mode) {
    io.stderr.write(`riskgate demo: ${mode.error}\nRun "riskgate demo --help" for usage.\n`);
    return 1;
  }
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) {
    io.stderr.write(
      'riskgate demo: needs a terminal (it is the interactive assistant with a scripted model); in a script, use "riskgate -p" with a real model\n',
    );
    return 1;
  }
  const folder = mkdtempSync(join(tmpdir(), 'riskgate-demo-'));
  const server = await startScriptedModelServer([...DEMO_REPLIES, ...Array(CLOSING_REPEATS).fill(DEMO_END)], {
    model: DEMO_MODEL,
  });
  try {
    const database = ensureDemoDatabase(join(folder, 'demo-shop.sqlite'));
    const { runAssistant } = await import('./run-assistant.js');
    return await runAssistant({
      kind: 'sql',
      database,
      demo: true,
      flags: {
        model: DEMO_MODEL,
        baseURL: server.baseURL,
        apiKey: 'demo',
        ...(mode.mode === undefined ? {} : { mode: mode.mode }),
      },
    });
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
