import { homedir } from 'node:os';
import { join } from 'node:path';

/** `~` and `~/…` as the shell expands them, to the home directory; any other path as it is. */
export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}
