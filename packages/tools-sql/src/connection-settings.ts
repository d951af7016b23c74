import { homedir } from 'node:os';

/** One connection setting and where it came from (a flag, DATABASE_URL, PGUSER, ~/.pgpass, …). */
export interface Setting {
  readonly value: string;
  readonly source: string;
}

export type Settings = Map<string, Setting>;

/** Where the conventions are read: the process's own environment and home unless a test gives others. */
export interface ConventionContext {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  /** What the target itself is called in messages: "--db", "DATABASE_URL", "the configuration". */
  readonly targetSource: string;
}

export function conventionContext(given: Partial<ConventionContext> = {}): ConventionContext {
  const env = given.env ?? process.env;
  return { env, home: given.home ?? env.HOME ?? homedir(), targetSource: given.targetSource ?? '--db' };
}

/** Sets a setting unless an earlier (stronger) source set it already. */
export function fill(settings: Settings, name: string, value: string | undefined, source: string): void {
  if (value === undefined || settings.has(name)) return;
  settings.set(name, { value, source });
}

/** For `riskgate doctor`: each setting with its source, a password only as "set". */
export function describeSettings(settings: Settings): string[] {
  return [...settings].map(([name, { value, source }]) =>
    /password|pwd/i.test(name) ? `${name}: set (from ${source})` : `${name}: ${value} (from ${source})`,
  );
}

/** `~/…` for a path in the home directory: shorter in messages, and no user name. */
export function shortPath(path: string, home: string): string {
  return home !== '' && path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * A connection URL with its password (and any password= keyword) replaced by ***, for messages:
 * one for both engines. The password runs to the last @ before the host, so one holding / or :
 * is hidden whole (a malformed URL is exactly when it is echoed).
 */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@').replace(/([?&]password=)[^&]*/gi, '$1***');
}
