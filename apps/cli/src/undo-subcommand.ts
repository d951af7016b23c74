import { join } from 'node:path';
import { AuditLog, Checkpoints, stateDirectory } from '@riskgate/core';
import type { CommandStreams } from './assess-command.js';
import { terminalText } from './terminal-text.js';
import { undoCommand } from './ui/undo-command.js';

export const UNDO_HELP = `riskgate undo — put back what a call changed in this folder (outside a session)

Usage:
  riskgate undo              the newest change not undone yet
  riskgate undo <N>          change N of the list
  riskgate undo <N> --force  even over what changed since (what it overwrites is kept first)
  riskgate undo list         what each kept change would restore (time, tool, paths)

The same change sets as /undo in the assistant (docs/cli.md, "Undo"); the undo is audited.
`;

/** `riskgate undo`: `/undo` for a headless run (`riskgate -p`), in the current folder. */
export async function runUndo(argv: readonly string[], streams: Omit<CommandStreams, 'stdin'>): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    streams.stdout.write(UNDO_HELP);
    return 0;
  }
  let failed = false;
  await undoCommand(argv, {
    checkpoints: new Checkpoints({ cwd: process.cwd() }),
    audit: new AuditLog(join(stateDirectory(), 'audit.jsonl'), {
      onFault: (message) => streams.stderr.write(`riskgate: ${message}\n`),
    }),
    notice: (text, tone) => {
      if (tone === 'error') failed = true;
      // Paths are any bytes a file name may hold: escapes are shown, never sent to the terminal.
      (tone === 'error' ? streams.stderr : streams.stdout).write(`${terminalText(text)}\n`);
    },
  });
  return failed ? 1 : 0;
}
