import type { AddressClass } from './knowledge/addresses.js';

/**
 * Effects: what an operation does, as every tool's assessor reports it. An assessor describes;
 * it does not decide. One function (`judgeEffects`, judge.ts) turns a list of effects into a
 * level, a whitelist verdict and reasons, against one knowledge base (knowledge/*.ts), so the
 * same path gets the same verdict from a shell command, a file operation, an ATTACH or a URL.
 *
 * Paths are absolute where the assessor could make them so (`~` expanded, relative paths
 * resolved against the working directory, symlinks not yet followed: the judge follows them).
 * `pattern` marks a path that still holds glob characters (bash semantics: `*`, `?`, `[…]`);
 * the judge expands it against the filesystem and also assumes it reaches every secret it
 * could match.
 */

/** The assessor may raise the level the judge gives an effect, never lower it. */
export type EffectSeverity = 'medium' | 'high';

interface EffectBase {
  /** A plain sentence the assessor adds (e.g. "DELETE without WHERE removes every row of orders"). */
  readonly note?: string;
  /** Raises the judged level ("rm -rf /" is high whatever the judge thinks of deleting a path). */
  readonly severity?: EffectSeverity;
  /** What in the operation caused it, as the person wrote it (`2>/dev/null`, `-exec rm`). */
  readonly via?: string;
}

interface PathEffectBase extends EffectBase {
  readonly path: string;
  /** The path still holds glob characters. */
  readonly pattern?: boolean;
  /** The whole tree below the path (grep -r, du, find). */
  readonly recursive?: boolean;
  /** A recursive reader that skips names starting with `.` (rg and fd by default). */
  readonly skipsHidden?: boolean;
  /** A recursive reader that follows the symbolic links it meets below the path (grep -R, find -L). */
  readonly followsLinks?: boolean;
  /**
   * The assessor looked at what the read reaches and found a secret the path alone does not
   * show (a blob of the history, a version of the file that no longer exists): in words.
   */
  readonly secret?: string;
}

export type Effect =
  | (PathEffectBase & { readonly kind: 'read-path' })
  | (PathEffectBase & { readonly kind: 'list-path' })
  | (PathEffectBase & { readonly kind: 'write-path' })
  | (PathEffectBase & { readonly kind: 'delete-path' })
  /** Runs a program or code: an unwrapped command, `sh -c`, `python -c`, `find -exec`, a UDF. */
  | (EffectBase & { readonly kind: 'run-program'; readonly program: string })
  /**
   * Opens a connection. `method` for HTTP (a GET/HEAD/OPTIONS to a public host without
   * credentials is a read); `carriesSecret` names a credential the request sends.
   */
  | (EffectBase & {
      readonly kind: 'connect';
      readonly host: string;
      readonly port?: number;
      readonly scheme?: string;
      readonly method?: string;
      readonly carriesSecret?: string;
      /** The host's class when the assessor resolved a name (literal addresses are classified by the judge). */
      readonly addressClass?: AddressClass;
    })
  /** Reads environment variables: the names, or `all` (env, printenv, /proc/self/environ). */
  | (EffectBase & { readonly kind: 'read-env'; readonly names: readonly string[] | 'all' })
  | (EffectBase & { readonly kind: 'control-process'; readonly detail: string })
  | (EffectBase & { readonly kind: 'change-privilege'; readonly detail: string })
  /** Reads a database object; `secret` says why its content is a secret (pg_authid). */
  | (EffectBase & { readonly kind: 'read-db'; readonly object: string; readonly secret?: string })
  | (EffectBase & { readonly kind: 'write-db'; readonly object: string; readonly detail: string })
  | (EffectBase & { readonly kind: 'change-session'; readonly detail: string })
  | (EffectBase & { readonly kind: 'hold-lock'; readonly detail: string })
  | (EffectBase & { readonly kind: 'unbounded'; readonly resource: 'time' | 'memory'; readonly detail: string })
  /** What the assessor could not read: never whitelisted; the model's `low` may decide it. */
  | (EffectBase & { readonly kind: 'unknown'; readonly detail: string });

export type EffectKind = Effect['kind'];

export type PathEffect = Extract<Effect, { readonly path: string }>;

export function isPathEffect(effect: Effect): effect is PathEffect {
  return 'path' in effect;
}

/** The environment variables a read-env effect names, `all` for the whole environment. */
export function readsWholeEnvironment(effect: Effect): boolean {
  return effect.kind === 'read-env' && effect.names === 'all';
}

/** What an assessor reports: the effects, and the parts user rules are matched against. */
export interface EffectReport {
  readonly effects: readonly Effect[];
  /**
   * The operation split into the parts user rules are matched against: one per statement,
   * per simple command (and per program a wrapper runs), per request, per path. An allow rule
   * must match every part; a deny or ask rule matches when any part does. An empty list means
   * no rule can allow the call.
   */
  readonly subjects: readonly string[];
}
