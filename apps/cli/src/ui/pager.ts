import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Shows a text in the person's $PAGER (default `less`), taking the terminal until it exits.
 * The text goes through an owner-only temporary file (it may be a diff of a private file),
 * removed afterwards. $PAGER is a shell fragment as git and man treat it ("less -R").
 * Returns an error message when no pager could run.
 */
export function openInPager(text: string, stdin: NodeJS.ReadStream = process.stdin): string | undefined {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-view-'));
  const file = join(directory, 'operation.txt');
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
  const pager = process.env.PAGER?.trim() || 'less';
  const raw = stdin.isTTY ? stdin.isRaw : false;
  try {
    // The pager reads keys from the terminal itself: give the terminal back its line discipline.
    if (stdin.isTTY) stdin.setRawMode(false);
    const result = spawnSync('/bin/sh', ['-c', `${pager} "$1"`, 'riskgate-pager', file], {
      stdio: 'inherit',
      env: { LESS: 'R', ...process.env },
    });
    if (result.error !== undefined) return `could not run ${pager}: ${result.error.message}`;
    if (result.status === 127) return `could not run ${pager} (set $PAGER)`;
    return undefined;
  } finally {
    if (stdin.isTTY) stdin.setRawMode(raw);
    rmSync(directory, { recursive: true, force: true });
  }
}
