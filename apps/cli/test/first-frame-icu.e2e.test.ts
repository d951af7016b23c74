import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();
const PROBE = join(import.meta.dirname, 'fixtures/intl-probe.cjs');

/**
 * ICU's first use costs ≈ 20–45 ms (break data, number formats, the emoji property): the first
 * frame must not pay it (src/ui/graphemes.ts, the bundle's lazy segmenters, a literal where
 * toLocaleString ran at load). The probe records every Intl use until the prompt is written.
 */
describe('the first frame without ICU', () => {
  for (const [mode, command] of [
    ['SQL mode on the demo database', 'sql'],
    ['chat mode', ''],
  ] as const) {
    it(`draws ${mode} without touching Intl, and measures the screen's text as before`, async () => {
      const { env, directory } = await scene.start([]);
      const out = join(directory, 'probe.txt');
      const terminal = scene.open(`node --require ${PROBE} ${BIN} ${command}`, { ...env, RISKGATE_PROBE_OUT: out });
      const screen = await terminal.waitFor(/Ask anything[\s\S]*·/);
      await terminal.waitFor(/·/);
      const [first, builtins] = readFileSync(out, 'utf8').split('\n');
      expect(first).toBe('FRAME');
      // Nor loading what only later work needs: node:child_process (net and streams with it),
      // node:crypto (the history file's name), node:assert (signal-exit's one check).
      for (const later of ['child_process', 'crypto', 'assert']) expect(builtins?.split(' ')).not.toContain(later);
      expect(builtins?.split(' ')).toContain('tty');
      // The status line under the prompt is drawn whole and aligned (› · marks measured as one column).
      expect(screen).toMatch(/›/);
    });
  }
});
