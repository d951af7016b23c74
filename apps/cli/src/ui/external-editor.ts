import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bracketed paste back on after the editor: an editor may turn it off when it exits. */
const BRACKETED_PASTE_ON = '\u001B[?2004h';

/**
 * Ctrl-G: opens a text in the person's $VISUAL or $EDITOR (default `vi`), taking the terminal
 * until it exits, and returns the saved text (one trailing newline, which editors add, taken
 * off). The text goes through an owner-only temporary file, removed afterwards. The editor is a
 * shell fragment as git treats it ("code --wait"). Nothing is sent or approved by the edit: the
 * text goes back into the field it came from.
 */
export function editInEditor(
  text: string,
  { stdin = process.stdin, suffix = '.md' }: { stdin?: NodeJS.ReadStream; suffix?: string } = {},
): { readonly text: string } | { readonly error: string } {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-edit-'));
  const file = join(directory, `riskgate-edit${suffix}`);
  writeFileSync(file, text, { mode: 0o600 });
  const editor = process.env.VISUAL?.trim() || process.env.EDITOR?.trim() || 'vi';
  const raw = stdin.isTTY ? stdin.isRaw : false;
  try {
    // The editor reads keys from the terminal itself: give the terminal back its line discipline.
    if (stdin.isTTY) stdin.setRawMode(false);
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'riskgate-editor', file], { stdio: 'inherit' });
    if (result.error !== undefined) return { error: `could not run ${editor}: ${result.error.message}` };
    if (result.status === 127) return { error: `could not run ${editor} (set $VISUAL or $EDITOR)` };
    if (result.status !== 0)
      return { error: `${editor} exited with ${result.status ?? result.signal}; the text is unchanged` };
    return { text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    if (stdin.isTTY) {
      stdin.setRawMode(raw);
      process.stdout.write(BRACKETED_PASTE_ON);
    }
    rmSync(directory, { recursive: true, force: true });
  }
}
