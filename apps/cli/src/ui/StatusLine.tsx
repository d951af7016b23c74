import { basename } from 'node:path';
import { Text } from 'ink';
import { useMemo } from 'react';
import type { Session, SessionInfo } from '../session/create-session.js';

/**
 * What the status line shows while the first session opens, from the flags and config. The
 * model is named once the session that talks to it is open: until then the line says "starting…".
 */
export type StartingInfo = Pick<SessionInfo, 'kind' | 'mode'> & { readonly database?: string };

/**
 * The database as the line shows it: a server URL whole (never its password, which a --db URL may
 * carry before the session has opened), a file by its name, and where it was chosen from when
 * no --db named it ("from DATABASE_URL", "from PGSERVICE", "from ~/.my.cnf").
 */
export function databaseShown(info: { readonly database?: string; readonly databaseSource?: string }): string {
  if (info.database === undefined) return '';
  const where = /^[a-z]+:\/\//i.test(info.database)
    ? info.database.replace(/(\/\/[^:/@]*):[^@]*@/, '$1:***@')
    : basename(info.database);
  return ` · ${where}${info.databaseSource === undefined ? '' : ` (from ${info.databaseSource})`}`;
}

const thousands = (tokens: number) =>
  tokens < 1000 ? `${tokens}` : `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k`;

/**
 * "ctx 12.4k/100k (12%)": what the next request carries — the provider's count of the last one
 * plus characters / 4 for what came after (Agent.contextUsage) — against the model's window.
 */
export function contextSize(usage: { readonly tokens: number; readonly budget: number }): string {
  const share = Math.round((usage.tokens / usage.budget) * 100);
  return `ctx ${thousands(usage.tokens)}/${thousands(usage.budget)} (${share}%)`;
}

/** Kind, mode, database, model and context size, under the prompt. */
export function StatusLine({
  session,
  starting,
  busy,
  configNotice,
}: {
  readonly session: Session | undefined;
  readonly starting: StartingInfo;
  readonly busy: boolean;
  readonly configNotice: string | undefined;
}) {
  const info: StartingInfo & { readonly model?: string; readonly databaseSource?: string } = session?.info ?? starting;
  // The conversation's size as the model will see it, counted when a turn ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: recounted when a turn ends (busy flips).
  const context = useMemo(
    () => (session === undefined ? 'starting…' : contextSize(session.agent.contextUsage)),
    [session, busy],
  );
  return (
    <Text dimColor>
      {info.kind === 'sql' ? 'SQL' : 'chat'} · {info.mode}
      {databaseShown(info)} · {info.model === undefined ? '' : `${info.model} · `}
      {context}
      {configNotice === undefined ? '' : ' · project settings ignored until "riskgate trust"'}
    </Text>
  );
}
