import { platform, release } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  Agent,
  type AgentOptions,
  AuditLog,
  Checkpoints,
  type Confirmer,
  type Message,
  type ResolvedConfig,
  readTranscript,
  type SessionMeta,
  stateDirectory,
  ToolRegistry,
  TranscriptWriter,
  createOutputGuard,
  listSessions,
  configDirectory,
} from '@riskgate/core';
import { loadPrompt } from '@riskgate/prompt';
import type { AnyTool, GatePolicy } from '@riskgate/risk';
import type { SqlConnection } from '@riskgate/tools-sql';
import { assessContextFromConfig, createChatTools, createSqlTools, sandboxFromConfig } from './tools-from-config.js';
import { SetupError } from './setup-error.js';
import { decisionExporterFor } from '../telemetry.js';
import { warmFirstCall } from './warm-up.js';
import { toolsChangedNote } from './notes.js';

export type ConversationKind = 'sql' | 'chat';

export interface SessionInfo {
  readonly kind: ConversationKind;
  readonly database?: string;
  /** Where the database was chosen from when no --db named it: "DATABASE_URL", "PGHOST, PGUSER", "~/.my.cnf". */
  readonly databaseSource?: string;
  readonly model: string;
  readonly mode: GatePolicy['mode'];
  readonly transcriptPath: string;
  /** Set when whitelisted commands cannot run in the sandbox here: said once, at the start. */
  readonly sandboxNotice?: string;
}

export interface Session {
  readonly agent: Agent;
  readonly info: SessionInfo;
  readonly registry: ToolRegistry;
  readonly connection?: SqlConnection;
  /** Messages restored from a resumed transcript (for the screen). */
  readonly restored: readonly Message[];
  /** The resumed transcript's events: how each call ended, how long it ran, why it ran unasked. */
  readonly restoredEvents: readonly AgentEvent[];
  readonly auditPath: string;
  /** The audit log: an `/undo` is recorded there too. */
  readonly audit: AuditLog;
  /** What calls changed, kept for `/undo` (this project's change sets). */
  readonly checkpoints: Checkpoints;
  /** The session's id, as `--resume` takes it. */
  readonly id: string;
  /** Where the session's storage faults (a full or read-only disk) are told, once each. */
  readonly storage: StorageFaults;
  /**
   * Loads what the first call needs in the background (warm-up.ts), once per session. The TUI
   * calls it when a turn starts, while the model thinks: not at start-up, where it would hold the
   * main thread while the person types (keys arriving together read as a paste), and not headless,
   * where a run without a call would wait at its exit for work it never needed.
   */
  warmUp(): void;
  /** The session's transcript: a conversation that goes on in another mode keeps writing it. */
  readonly transcript: TranscriptWriter;
  /** Ends the session; resolves to whether its transcript remains to be resumed. */
  close(): Promise<boolean>;
  /** Closes the session's database and leaves its transcript open: the conversation goes on in another session. */
  handOver(): Promise<void>;
}

/**
 * The transcript and the audit log each report once when their file cannot be written; the
 * session goes on in memory. Messages said before anyone listens (at start-up) are kept for the
 * first listener, so the person always hears of it.
 */
export class StorageFaults {
  private readonly pending: string[] = [];
  private listener: ((message: string) => void) | undefined;

  readonly report = (message: string): void => {
    if (this.listener === undefined) this.pending.push(message);
    else this.listener(message);
  };

  listen(listener: (message: string) => void): void {
    this.listener = listener;
    for (const message of this.pending.splice(0)) listener(message);
  }
}

export { SetupError } from './setup-error.js';

/** The exact words riskgate says when no model is configured. */
export function noModelMessage(): string {
  return [
    'riskgate needs a model to talk to. Configure one of:',
    '',
    '  OpenAI:         export OPENAI_API_KEY=sk-…  RISKGATE_MODEL=gpt-4.1-mini',
    '  Any OpenAI-compatible server (a local one too):',
    '                  export OPENAI_BASE_URL=http://127.0.0.1:11434/v1  RISKGATE_MODEL=llama3.1',
    '',
    `or put "model", "baseURL" and "apiKey" in ${join(configDirectory(), 'config.json')}`,
    '(or pass --model and --base-url). `riskgate assess` works without a model.',
  ].join('\n');
}

export interface CreateSessionOptions {
  readonly config: ResolvedConfig;
  readonly kind: ConversationKind;
  readonly cwd: string;
  /** For SQL mode: a SQLite file, a postgres:// or mysql:// URL; the demo database when absent. */
  readonly database?: string;
  readonly confirmer: Confirmer;
  /** A session id or transcript path to resume; `true` for the most recent. */
  readonly resume?: string | true;
  /** The conversation goes on from this session (/sql, /db, /chat): its messages, model and transcript. */
  readonly continueFrom?: Session;
}

export async function createSession(options: CreateSessionOptions): Promise<Session> {
  const { config, continueFrom } = options;
  const model = continueFrom?.agent.model ?? requireModel(config);
  const sessionsDirectory = join(stateDirectory(), 'sessions');
  const { resumedPath, resumed } = readResumed(options.resume, sessionsDirectory);
  const kind = resumed?.session.kind ?? options.kind;
  const opened = await openTools(options, kind, resumed?.session.database);
  const { connection, tools, sandboxAvailable, sandboxNotice } = opened;
  const registry = new ToolRegistry(tools);
  // Before the transcript is made: a template that fails to load leaves no session behind.
  const systemPrompt = await systemPromptFor(config, options.cwd, registry, opened);
  const meta: Omit<SessionMeta, 'id' | 'startedAt'> = {
    cwd: options.cwd,
    kind,
    model,
    mode: config.policy.mode,
    ...(connection === undefined ? {} : { database: opened.database! }),
  };

  const storage = continueFrom?.storage ?? new StorageFaults();
  const transcript = continueFrom?.transcript ?? openTranscript(resumed, resumedPath, sessionsDirectory, meta, storage);
  const history = continuedHistory(continueFrom, transcript, meta, registry.names) ?? resumed?.messages;
  const auditPath = join(stateDirectory(), 'audit.jsonl');
  const exporter = await decisionExporterFor(config, storage.report);
  const context = assessContextFromConfig(config, options.cwd, connection, sandboxAvailable);
  const { audit, checkpoints } = recordsFor(auditPath, options.cwd, context.home, storage, exporter);
  const agent = createAgent(config, model, {
    registry,
    confirmer: options.confirmer,
    context,
    systemPrompt,
    transcript,
    audit,
    checkpoints,
    ...(history === undefined ? {} : { history }),
    ...(continueFrom === undefined ? {} : { untrusted: continueFrom.agent.untrustedSource }),
  });
  let warmed = false;
  const warmUp = () => {
    if (warmed) return;
    warmed = true;
    const gate = { tools, context, policy: config.policy };
    void warmFirstCall(kind === 'sql' ? ['sql'] : ['commands'], {
      ...(connection === undefined ? {} : { connection }),
      gate,
    });
  };
  return {
    warmUp,
    agent,
    registry,
    ...(connection === undefined ? {} : { connection }),
    transcript,
    restored: resumed?.messages ?? [],
    restoredEvents: resumed?.events ?? [],
    auditPath,
    audit,
    checkpoints,
    info: {
      kind,
      ...(connection === undefined ? {} : { database: connection.label }),
      ...(opened.databaseSource === undefined ? {} : { databaseSource: opened.databaseSource }),
      model,
      mode: config.policy.mode,
      transcriptPath: transcript.path,
      ...(sandboxNotice === undefined ? {} : { sandboxNotice }),
    },
    id: transcript.session.id,
    storage,
    close: async () => {
      await connection?.close();
      return transcript.finish();
    },
    handOver: async () => {
      await connection?.close();
    },
  };
}

/** The audit log, and the change sets `/undo` restores (this project's). */
function recordsFor(
  auditPath: string,
  cwd: string,
  home: string | undefined,
  storage: StorageFaults,
  exporter: Awaited<ReturnType<typeof decisionExporterFor>>,
): { audit: AuditLog; checkpoints: Checkpoints } {
  const audit = new AuditLog(auditPath, {
    onFault: storage.report,
    ...(exporter === undefined ? {} : { forward: (entry) => exporter.record(entry) }),
  });
  return { audit, checkpoints: new Checkpoints({ cwd, ...(home === undefined ? {} : { home }) }) };
}

/**
 * The conversation of a session that goes on from another (/sql, /db, /chat): its messages and a
 * note telling the model its tools changed; the transcript records the new mode (a resume
 * reopens it there) and the note.
 */
function continuedHistory(
  from: Session | undefined,
  transcript: TranscriptWriter,
  meta: Omit<SessionMeta, 'id' | 'startedAt'>,
  tools: readonly string[],
): Message[] | undefined {
  if (from === undefined) return undefined;
  transcript.retarget({ kind: meta.kind, model: from.agent.model, database: meta.database });
  const note = toolsChangedNote(meta.kind, meta.database, tools);
  // A conversation with nothing said yet needs no note: the system prompt says it all.
  if (from.agent.conversation.length === 0) return [];
  transcript.message(note);
  return [...from.agent.conversation, note];
}

/** The resumed conversation's transcript, reopened, or a new one. */
function openTranscript(
  resumed: ReturnType<typeof readResumed>['resumed'],
  resumedPath: string | undefined,
  sessionsDirectory: string,
  meta: Omit<SessionMeta, 'id' | 'startedAt'>,
  storage: StorageFaults,
): TranscriptWriter {
  return resumed !== undefined && resumedPath !== undefined
    ? TranscriptWriter.reopen(resumedPath, resumed.session, storage.report)
    : TranscriptWriter.create(sessionsDirectory, meta, storage.report);
}

/** The transcript to resume, when one is asked for. */
function readResumed(resume: string | true | undefined, directory: string) {
  const resumedPath = resume === undefined ? undefined : resolveResume(resume, directory);
  return { resumedPath, resumed: resumedPath === undefined ? undefined : readTranscript(resumedPath) };
}

/** The model to talk to, or a SetupError that says how to set one. */
function requireModel(config: ResolvedConfig): string {
  if (config.model === undefined) {
    if (config.baseURL === undefined && config.apiKey !== undefined) {
      throw new SetupError(
        `No model is set. Set RISKGATE_MODEL (for example gpt-4.1-mini) or "model" in the config.\n\n${noModelMessage()}`,
      );
    }
    throw new SetupError(noModelMessage());
  }
  if (config.apiKey === undefined && config.baseURL === undefined) throw new SetupError(noModelMessage());
  return config.model;
}

interface OpenedTools {
  readonly tools: AnyTool[];
  readonly sql?: typeof import('@riskgate/tools-sql');
  readonly connection?: SqlConnection;
  /** What the transcript keeps to reopen it: never a password. */
  readonly database?: string;
  readonly databaseSource?: string;
  readonly sandboxAvailable: boolean;
  readonly sandboxNotice?: string;
}

/** Only the tools of this conversation's mode are loaded: start-up stays fast. */
async function openTools(
  options: CreateSessionOptions,
  kind: ConversationKind,
  resumedDatabase: string | undefined,
): Promise<OpenedTools> {
  const { config } = options;
  if (kind !== 'sql') {
    const sandbox = await sandboxFromConfig(config);
    return {
      tools: await createChatTools(config),
      sandboxAvailable: sandbox.available,
      ...(sandbox.notice === undefined ? {} : { sandboxNotice: sandbox.notice }),
    };
  }
  const sql = await import('@riskgate/tools-sql');
  const chosen = chooseForSession(sql, { flag: options.database, configured: config.sql.database }, resumedDatabase);
  if (sql.isSqlFailure(chosen)) throw new SetupError(chosen.message);
  const connection = await sql.openSqlConnection(chosen.target ?? sql.ensureDemoDatabase(), {
    conventions: chosen.conventions,
  });
  if (sql.isSqlFailure(connection)) throw new SetupError(connection.message);
  return {
    tools: await createSqlTools(config, connection),
    sql,
    connection,
    database: chosen.shown ?? connection.label,
    ...(chosen.source === '--db' || chosen.source === 'demo' ? {} : { databaseSource: chosen.source }),
    sandboxAvailable: false,
  };
}

/**
 * The database of a new session (--db, the configuration, DATABASE_URL, PG*, MySQL's, the demo:
 * docs/sql.md), or of a resumed one: the transcript keeps its target without a password, so the
 * current choice is taken when it is the same database (its password with it), the kept one if not.
 */
function chooseForSession(
  sql: typeof import('@riskgate/tools-sql'),
  explicit: { flag: string | undefined; configured: string | undefined },
  resumed: string | undefined,
): import('@riskgate/tools-sql').ChosenDatabase | import('@riskgate/tools-sql').SqlFailure {
  const current = sql.chooseDatabase(explicit);
  if (resumed === undefined) return current;
  if (!sql.isSqlFailure(current) && current.shown === resumed) return current;
  return sql.chooseDatabase({ flag: resumed });
}

/**
 * The system prompt of the mode: in SQL mode with the database's schema. The project's templates
 * are among the sources only when the person trusts the project (docs/trust.md).
 */
async function systemPromptFor(
  config: ResolvedConfig,
  cwd: string,
  registry: ToolRegistry,
  { sql, connection }: OpenedTools,
): Promise<string> {
  const promptSources = config.promptSources;
  if (sql === undefined || connection === undefined) {
    const variables = { tools: registry.names.join(', '), workspace: cwd, os: `${platform()} ${release()}` };
    return loadPrompt('system-chat', variables, promptSources);
  }
  const schema = await connection.describeSchema();
  return loadPrompt(
    'system-sql',
    {
      dialect: { postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB', sqlite: 'SQLite' }[connection.dialect],
      database: connection.label,
      schema: sql.isSqlFailure(schema)
        ? `(the schema could not be read: ${schema.message})`
        : sql.formatSchemaForModel(schema),
    },
    promptSources,
  );
}

function createAgent(
  config: ResolvedConfig,
  model: string,
  parts: Pick<
    AgentOptions,
    | 'registry'
    | 'confirmer'
    | 'context'
    | 'systemPrompt'
    | 'transcript'
    | 'audit'
    | 'checkpoints'
    | 'history'
    | 'untrusted'
  >,
): Agent {
  // The model's window, when it is smaller (a local model) or larger than the default.
  const contextTokens = contextTokensFromEnvironment();
  return new Agent({
    ...parts,
    // The SDK is loaded with the first request, not at start-up.
    client: async () => {
      const { default: OpenAI } = await import('openai');
      return new OpenAI({
        apiKey: config.apiKey ?? 'not-needed-for-this-server',
        ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
        // Retries are the agent's (shown, stoppable, Retry-After capped): the SDK's sleep is neither.
        maxRetries: 0,
        ...(config.requestTimeoutMs === undefined ? {} : { timeout: config.requestTimeoutMs }),
      });
    },
    ...(config.maxRetries === undefined ? {} : { retries: { maxRetries: config.maxRetries } }),
    // A person who gives a slow model more time gives its whole reply that time too.
    ...(config.requestTimeoutMs === undefined ? {} : { replyLimits: { maxMs: config.requestTimeoutMs } }),
    model,
    policy: config.policy,
    outputGuard: createOutputGuard({
      env: process.env,
      secretValues: config.apiKey === undefined ? [] : [config.apiKey],
    }),
    maxSteps: config.maxSteps,
    ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
    ...(contextTokens === undefined ? {} : { contextTokens }),
  });
}

function resolveResume(resume: string | true, directory: string): string {
  const sessions = listSessions(directory);
  if (resume === true) {
    const latest = sessions[0];
    if (latest === undefined) throw new SetupError(`there is no session to resume in ${directory}`);
    return latest.path;
  }
  if (resume.endsWith('.jsonl')) return resume;
  const found = sessions.find((session) => session.id === resume || session.id.startsWith(resume));
  if (found === undefined)
    throw new SetupError(
      `no session "${resume}" in ${directory}; sessions: ${
        sessions
          .slice(0, 5)
          .map((session) => session.id)
          .join(', ') || 'none'
      }`,
    );
  return found.path;
}

/** RISKGATE_CONTEXT_TOKENS: the model's context window in tokens; a bad value is an error, not a guess. */
function contextTokensFromEnvironment(): number | undefined {
  const value = process.env.RISKGATE_CONTEXT_TOKENS;
  if (value === undefined || value === '') return undefined;
  const tokens = Number(value);
  if (!Number.isInteger(tokens) || tokens < 1_000)
    throw new SetupError(`RISKGATE_CONTEXT_TOKENS must be a whole number of tokens, at least 1000 (got "${value}")`);
  return tokens;
}
