import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** `$XDG_STATE_HOME/riskgate/history/<project hash>.jsonl`: one file per working directory. */
export function historyPath(stateDirectory: string, projectDirectory: string): string {
  return join(
    stateDirectory,
    'history',
    `${createHash('sha256').update(projectDirectory).digest('hex').slice(0, 16)}.jsonl`,
  );
}
