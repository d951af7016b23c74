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

/** "≈3.2k tokens": the conversation's characters / 4, the usual estimate for English and code. */
function contextSize(session: Session): string {
  const characters = session.agent.conversation.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  const tokens = Math.round(characters / 4);
  return `≈${tokens < 1000 ? tokens : `${(tokens / 1000).toFixed(1)}k`} tokens`;
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
  const context = useMemo(() => (session === undefined ? 'starting…' : contextSize(session)), [session, busy]);
  return (
    <Text dimColor>
      {info.kind === 'sql' ? 'SQL' : 'chat'} · {info.mode}
      {databaseShown(info)} · {info.model === undefined ? '' : `${info.model} · `}
      {context}
      {configNotice === undefined ? '' : ' · project settings ignored until "riskgate trust"'}
    </Text>
  );
}
