import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, validateLayer } from './config.js';
import { userConfigPath } from './paths.js';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The person's config file as written, checked against the schema. Kept as the raw object so a
 * rewrite keeps every other setting, its order and any field a newer riskgate added.
 */
function readUserObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${path}: not valid JSON: ${(error as Error).message}; fix it first, riskgate does not overwrite it`,
    );
  }
  try {
    validateLayer(value, path);
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}; fix it first, riskgate does not overwrite it`);
  }
  return value as Record<string, unknown>;
}

export function listTrustedProjects(env: Environment = process.env): string[] {
  const trusted = readUserObject(userConfigPath(env)).trustedProjects;
  return Array.isArray(trusted) ? (trusted as string[]) : [];
}

export interface TrustChange {
  /** The user config file that holds the list. */
  readonly file: string;
  /** False when the list already said so (nothing was written). */
  readonly changed: boolean;
}

/** Adds a real path to `trustedProjects` in the user config. */
export function addTrustedProject(realPath: string, env: Environment = process.env): TrustChange {
  return updateTrustedProjects(env, (list) => (list.includes(realPath) ? list : [...list, realPath]));
}

/** Removes a path from `trustedProjects` in the user config. */
export function removeTrustedProject(path: string, env: Environment = process.env): TrustChange {
  return updateTrustedProjects(env, (list) => list.filter((entry) => entry !== path));
}

function updateTrustedProjects(env: Environment, update: (list: readonly string[]) => readonly string[]): TrustChange {
  const file = userConfigPath(env);
  const object = readUserObject(file);
  const before = Array.isArray(object.trustedProjects) ? (object.trustedProjects as string[]) : [];
  const after = update(before);
  if (after.length === before.length && after.every((entry, index) => entry === before[index]))
    return { file, changed: false };
  const next: Record<string, unknown> = { ...object, trustedProjects: after };
  if (after.length === 0) delete next.trustedProjects;
  validateLayer(next, file);
  writeAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
  return { file, changed: true };
}

/**
 * Write to a temporary file beside the target, flush it, then rename over the target: a crash
 * leaves either the old file or the new one, never half of one. A symlinked config (dotfiles)
 * is written where the link points, so the link survives; the file keeps its permissions, and
 * a new one is readable by the person alone because it may hold an API key.
 */
function writeAtomically(path: string, text: string): void {
  let target = path;
  let mode = 0o600;
  try {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError(`${path}: cannot be read: ${(error as Error).message}`);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const temporary = join(dirname(target), `.config.json.${process.pid}.${Date.now()}.tmp`);
  try {
    const descriptor = openSync(temporary, 'wx', mode);
    try {
      writeSync(descriptor, text);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, target);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already renamed or never created.
    }
    throw new ConfigError(`${path}: cannot be written: ${(error as Error).message}`);
  }
}
