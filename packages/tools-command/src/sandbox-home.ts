import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { existingPaths, fileFacts, HOME_ALLOWLIST_GLOBS, isInside, isPrivateHomePath } from '@riskgate/risk';

/**
 * The home directory in the sandbox (DESIGN.md, "The boundary does not trust the parse"): an
 * empty tmpfs, with the allowlist of @riskgate/risk (`HOME_ALLOWLIST`: public keys, known hosts,
 * programs and toolchains installed in the home) bound back read-only, and the workspace when it
 * lies in the home. A credential store nobody named (a mail client's, a chat client's) is then
 * simply not there for a whitelisted command to read, whatever the command line.
 */
export interface SandboxHomeProfile {
  readonly home?: string;
  readonly cwd: string;
  readonly workspace?: string;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Private unless the workspace is the home or holds it (then all of it is the person's work). */
export function homeIsPrivate(home: string, workspace: string): boolean {
  const realHome = real(home);
  return realHome !== '/' && !isInside(realHome, real(workspace)) && !isInside(home, workspace);
}

/** bubblewrap arguments that empty the home; to follow the read-only root bind and the /tmp tmpfs. */
export function privateHomeArguments(profile: SandboxHomeProfile): string[] {
  const home = real(profile.home ?? homedir());
  const workspace = real(profile.workspace ?? profile.cwd);
  if (!homeIsPrivate(home, workspace)) return [];
  const args = ['--tmpfs', home];
  const bound = new Set<string>();
  for (const glob of HOME_ALLOWLIST_GLOBS) {
    for (const path of existingPaths(
      join(home, glob)
        .split('/')
        .filter((part) => part !== ''),
    )) {
      // An allowlisted name that is a symlink to a private file stays out, and so does a file
      // whose content is a secret (a private key saved as `id_rsa.pub`).
      if (bound.has(path) || isPrivateHomePath(path, { home, workspace })) continue;
      if (fileFacts(path).some((fact) => fact.class === 'secret')) continue;
      bound.add(path);
      args.push(...openDirectories(home, path), '--ro-bind', path, path);
    }
  }
  // The workspace (and a command directory inside it) stays visible, read-only like the rest.
  if (isInside(workspace, home)) args.push(...openDirectories(home, workspace), '--ro-bind', workspace, workspace);
  // Read-only once its mount points exist: like the rest of the filesystem, the home takes no writes.
  args.push('--remount-ro', home);
  return args;
}

/**
 * The directories between a fresh tmpfs and a path bound into it, made open to everyone
 * (0755). Left to bubblewrap, they copy their host directory's mode — `~/.ssh` is 0700 — and a
 * command that runs as `nobody` (sandbox-user.ts) could not reach the public key bound inside.
 * They hold nothing but the bound paths.
 */
export function openDirectories(top: string, path: string): string[] {
  const args: string[] = [];
  const between = relative(top, dirname(path));
  if (between === '' || between.startsWith('..')) return args;
  let directory = top;
  for (const part of between.split('/')) {
    directory = join(directory, part);
    args.push('--perms', '0755', '--dir', directory);
  }
  return args;
}
