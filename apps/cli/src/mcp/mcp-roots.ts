import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';

/**
 * The directory a client's roots make the workspace: the first `file://` root that is a local
 * directory that exists. Each root passed over is named in `notices` (an http:// root, a file
 * that is not a directory, a path that does not exist), so the person knows why it was not used.
 */
export function workspaceFromRoots(roots: readonly Root[]): { directory?: string; notices: string[] } {
  const notices: string[] = [];
  for (const root of roots) {
    const problem = rootProblem(root.uri);
    if (typeof problem === 'string') {
      notices.push(`root ${JSON.stringify(root.uri.slice(0, 300))} ignored: ${problem}`);
      continue;
    }
    return { directory: problem.directory, notices };
  }
  return { notices };
}

function rootProblem(uri: string): string | { directory: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'not a URI';
  }
  if (url.protocol !== 'file:') return `not a file:// URI (${url.protocol})`;
  // file://host/path names another machine's file: only the local host is this machine.
  if (url.host !== '' && url.host !== 'localhost') return `on another host (${url.host})`;
  let directory: string;
  try {
    directory = fileURLToPath(url);
  } catch (error) {
    return (error as Error).message;
  }
  try {
    if (!statSync(directory).isDirectory()) return 'not a directory';
  } catch {
    return 'no such directory';
  }
  return { directory };
}
