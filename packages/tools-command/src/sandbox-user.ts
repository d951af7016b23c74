import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { isInside } from '@riskgate/risk';
import { homeIsPrivate } from './sandbox-home.js';

/**
 * Who a sandboxed command runs as when riskgate runs as root (DESIGN.md, "The boundary does not
 * trust the parse"). Inside bubblewrap, uid 0 is the host's root: every file on the machine is
 * readable to it, whatever its mode — a RabbitMQ cookie (0400 rabbitmq), Redis's configuration
 * with its password (0640 redis), debconf's passwords, other users' homes, keys in
 * /etc/ssl/private — and no list of names reaches every credential store of every program. An
 * owner who keeps a file from others has said it is private; the kernel already knows how to
 * enforce that, for any user but root. So a sandboxed command drops to `nobody` (setpriv, from
 * util-linux, with the two capabilities it needs and nothing else) and the kernel's own
 * permission checks keep every such file out, exactly, without a scan.
 *
 * The workspace stays readable: the private home is an empty tmpfs (world-traversable) with the
 * workspace bound in, and a directory above the workspace that others may not enter is replaced
 * by an empty one with the workspace bound back (`bridges`). Files of the workspace that others
 * may not read stay unreadable — such a mode is how `.env` files and keys are kept.
 *
 * Not done (riskgate keeps running the command as root, with the knowledge base's hiding) when
 * the workspace itself is closed to others (`mkdir` under umask 077), when setpriv is missing, or
 * for the host reader (host-reader.ts: a lone, option-checked reader without a shell, whose
 * `ss -p` and `lsof` need root to see other processes).
 */
export interface SandboxUser {
  readonly uid: number;
  readonly gid: number;
  /** Directories above the workspace others may not enter: replaced by an empty tmpfs each. */
  readonly bridges: readonly string[];
}

/** `nobody` on every distribution riskgate knows (numeric: /etc/passwd need not name it). */
export const NOBODY = 65_534;

/** util-linux's setpriv: changes the user and group, then execs. */
export const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Others may enter the directory (o+x) and, for the workspace itself, list it too (o+r). */
function openToOthers(path: string, needsListing: boolean): boolean {
  try {
    const mode = statSync(path).mode;
    return (mode & 0o001) !== 0 && (!needsListing || (mode & 0o004) !== 0);
  } catch {
    return false;
  }
}

export interface SandboxUserOptions {
  readonly cwd: string;
  readonly workspace?: string;
  readonly home?: string;
  /** The process's user id (tests pass 0 to see root's plan as any user). */
  readonly uid?: number;
}

/** Whether bubblewrap and setpriv could drop to `nobody` here: set by the sandbox's probe. */
let dropWorks = false;

export function setDropRootWorks(works: boolean): void {
  dropWorks = works;
}

export function dropRootWorks(): boolean {
  return dropWorks;
}

/** The user to drop to, or undefined to run as riskgate's own user. */
export function sandboxUser(options: SandboxUserOptions): SandboxUser | undefined {
  const uid = options.uid ?? process.getuid?.();
  if (uid !== 0 || SETPRIV === undefined || (!dropWorks && options.uid === undefined)) return undefined;
  const workspace = real(options.workspace ?? options.cwd);
  const home = real(options.home ?? homedir());
  if (!openToOthers(workspace, true)) return undefined;
  // The private home is a fresh tmpfs (0755): whatever its own mode, it is open below itself.
  // What must be reachable: the workspace, the command's directory, and the home's tmpfs.
  const privateHome = homeIsPrivate(home, workspace);
  const targets = [workspace, real(options.cwd), ...(privateHome ? [home] : [])];
  const bridges = new Set<string>();
  for (const target of targets) {
    const closed = ancestors(target).find(
      (directory) =>
        !(privateHome && isInside(directory, home) && directory !== home) && !openToOthers(directory, false),
    );
    if (closed !== undefined) bridges.add(closed);
  }
  // Only the highest closed directories need replacing: below one, its tmpfs is open.
  const highest = [...bridges].filter(
    (bridge) => ![...bridges].some((other) => other !== bridge && isInside(bridge, other)),
  );
  return { uid: NOBODY, gid: NOBODY, bridges: highest };
}

/** The directories above a path, from the top (`/` left out: it is never closed). */
function ancestors(path: string): string[] {
  const found: string[] = [];
  for (let directory = dirname(path); directory !== '/' && directory !== '.'; directory = dirname(directory))
    found.unshift(directory);
  return found;
}

/** The command's prefix inside bubblewrap: become the user, with no groups, then exec. */
export function setprivPrefix(user: SandboxUser): string[] {
  return [SETPRIV!, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}
