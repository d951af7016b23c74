import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { redactValue } from '@riskgate/risk';
import type OpenAI from 'openai';
import type { AgentEvent } from './events.js';
import { JsonlFile } from './jsonl-file.js';

export type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export interface SessionMeta {
  readonly id: string;
  readonly startedAt: string;
  readonly cwd: string;
  readonly model?: string;
  readonly kind: 'sql' | 'chat';
  readonly database?: string;
  /** The safety mode the session started in. */
  readonly mode?: string;
}

type Line =
  | { readonly kind: 'session'; readonly time: string; readonly session: SessionMeta }
  | { readonly kind: 'message'; readonly time: string; readonly message: Message }
  | { readonly kind: 'event'; readonly time: string; readonly event: AgentEvent };

/**
 * A session's transcript: one JSON line per message and notable event, appended with a
 * synchronous write as it happens, so a crash (even kill -9) loses nothing said before it.
 * Messages are stored as they were (resuming needs them exact); events are stored redacted.
 * The file is readable by its owner only.
 */
export class TranscriptWriter {
  /** Whether the file exists: it is written with the first message, so an empty session leaves none. */
  private written: boolean;
  /** Whether the model has answered in this session: a session it never answered is not worth resuming. */
  private answered: boolean;

  private readonly file: JsonlFile;

  private meta: SessionMeta;

  private constructor(
    readonly path: string,
    session: SessionMeta,
    private readonly reopened: boolean,
    onFault: ((message: string) => void) | undefined,
  ) {
    this.meta = session;
    this.written = reopened;
    this.answered = reopened;
    this.file = new JsonlFile(path, onFault);
  }

  /** `onFault` is told once when the file cannot be written (a full or read-only disk); the session goes on in memory. */
  static create(
    directory: string,
    session: Omit<SessionMeta, 'id' | 'startedAt'>,
    onFault?: (message: string) => void,
  ): TranscriptWriter {
    const meta: SessionMeta = {
      id: `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`,
      startedAt: new Date().toISOString(),
      ...session,
    };
    return new TranscriptWriter(join(directory, `${meta.id}.jsonl`), meta, false, onFault);
  }

  /**
   * Continue an existing transcript file (after resuming it). A last line cut short by a crash is
   * set aside in `<file>.torn` before the first append, so the conversation stays readable.
   */
  static reopen(path: string, session: SessionMeta, onFault?: (message: string) => void): TranscriptWriter {
    return new TranscriptWriter(path, session, true, onFault);
  }

  get session(): SessionMeta {
    return this.meta;
  }

  /**
   * The conversation goes on in another mode, on another database or with another model (/sql,
   * /db, /chat): a new session line is appended, and readTranscript takes the last one, so a
   * resume reopens the conversation where it was.
   */
  retarget(change: Pick<SessionMeta, 'kind' | 'model'> & { readonly database?: string | undefined }): void {
    const { database: _previous, ...rest } = this.meta;
    this.meta = {
      ...rest,
      kind: change.kind,
      ...(change.model === undefined ? {} : { model: change.model }),
      ...(change.database === undefined ? {} : { database: change.database }),
    };
    if (this.written) this.file.append({ kind: 'session', time: new Date().toISOString(), session: this.meta });
  }

  /** Whether there is a file to resume. */
  get exists(): boolean {
    return this.written;
  }

  message(message: Message): void {
    if (message.role === 'assistant') this.answered = true;
    this.append({ kind: 'message', time: new Date().toISOString(), message });
  }

  event(event: AgentEvent): void {
    // Streaming pieces are in the messages already (reasoning in the assistant message where the
    // provider needs it back, else only on screen); the rest is kept for the record.
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-output') return;
    this.append({
      kind: 'event',
      time: new Date().toISOString(),
      event: redactValue(forTheRecord(event)) as AgentEvent,
    });
  }

  /**
   * At the end of a session this process started: a transcript the model never answered (the
   * endpoint was unreachable, the key wrong, the first request cancelled) is removed, so failed
   * starts do not crowd the sessions /resume offers. Returns whether a file remains.
   */
  finish(): boolean {
    if (this.written && !this.answered && !this.reopened && !this.file.broken) {
      rmSync(this.path, { force: true });
      this.written = false;
    }
    return this.written && !this.file.broken;
  }

  private append(line: Line): void {
    if (!this.written) {
      this.written = true;
      this.append({ kind: 'session', time: this.meta.startedAt, session: this.meta });
    }
    // Owner-only (JsonlFile writes 0600): messages are kept verbatim (a resumed conversation must
    // be the same one), so the file can hold whatever secrets were said or read in the session.
    this.file.append(line);
  }
}

/** Characters of a tool result an event keeps: the whole result is in the tool message already. */
export const EVENT_RESULT_CHARS = 2_000;

/**
 * A tool result as the record keeps it: without its structured data (every row of a result
 * set, every byte of output) and with its text capped — the tool message beside it holds what
 * the model was told, which is what a resumed conversation needs. 200 steps of 500-row
 * results stay small and quick to resume.
 */
function forTheRecord(event: AgentEvent): AgentEvent {
  if (event.type !== 'tool-result') return event;
  const { data: _data, ...rest } = event;
  const cut = rest.forModel.length > EVENT_RESULT_CHARS;
  return {
    ...rest,
    forModel: cut
      ? `${rest.forModel.slice(0, EVENT_RESULT_CHARS)}… (${(rest.forModel.length - EVENT_RESULT_CHARS).toLocaleString('en-US')} more characters in the tool message)`
      : rest.forModel,
  };
}

export interface LoadedTranscript {
  readonly session: SessionMeta;
  /** The conversation, repaired so that the model accepts it again. */
  readonly messages: Message[];
  readonly events: AgentEvent[];
  /** Tool calls that never got a result (the session stopped while they ran or waited). */
  readonly interrupted: readonly string[];
  /** A last line cut short by a crash, skipped. */
  readonly truncatedTail: boolean;
  /** Lines before the last that are not records (cut by another process killed mid-write), skipped. */
  readonly damagedLines: number;
}

/** A call the session ended on before it ran (it was waiting for the person, or being assessed). */
export const INTERRUPTED_RESULT =
  'not run: the riskgate session ended before this tool call finished (it was stopped or crashed); ask the person before trying again';

/**
 * A call the session ended on while it ran: the record shows it started and never ended, so it
 * may have done part or all of its work (a command halfway through, an UPDATE that committed).
 */
export const INTERRUPTED_RUNNING_RESULT =
  'interrupted: the riskgate session ended while this tool call was running (it was stopped or crashed), so it may have partly or wholly run; check what it changed before trying again, and ask the person';

export function readTranscript(path: string): LoadedTranscript {
  const lines = readFileSync(path, 'utf8').split('\n');
  let session: SessionMeta | undefined;
  const messages: Message[] = [];
  const events: AgentEvent[] = [];
  let truncatedTail = false;
  let damagedLines = 0;
  for (const [index, text] of lines.entries()) {
    if (text.trim() === '') continue;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      // A cut line is skipped wherever it is: the records around it are whole (each is one
      // write starting on a fresh line), and a conversation is never lost to one bad line.
      if (lines.slice(index + 1).every((rest) => rest.trim() === '')) truncatedTail = true;
      else damagedLines++;
      continue;
    }
    if (line.kind === 'session') session = line.session;
    else if (line.kind === 'message') messages.push(line.message);
    else if (line.kind === 'event') events.push(line.event);
  }
  if (session === undefined) throw new Error(`${path}: not a riskgate transcript (no session line)`);
  const started = new Set(
    events.flatMap((event) => (event.type === 'tool-state' && event.state === 'executing' ? [event.toolCallId] : [])),
  );
  // A call that ended but whose tool message was never written (the session died in between): its result event says what happened.
  const ended = new Map(
    events.flatMap((event) => (event.type === 'tool-result' ? [[event.toolCallId, event.forModel] as const] : [])),
  );
  const interrupted = repairToolCalls(messages, started, ended);
  return { session, messages, events, interrupted, truncatedTail, damagedLines };
}

/**
 * Every assistant tool call must be answered by a tool message; add the missing answers — "may
 * have partly run" for a call the record shows executing, "not run" for one that never started.
 */
function repairToolCalls(
  messages: Message[],
  started: ReadonlySet<string>,
  ended: ReadonlyMap<string, string>,
): string[] {
  const interrupted: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    let cursor = index + 1;
    const answered = new Set<string>();
    while (cursor < messages.length && messages[cursor]!.role === 'tool') {
      answered.add((messages[cursor] as OpenAI.Chat.Completions.ChatCompletionToolMessageParam).tool_call_id);
      cursor++;
    }
    const missing = message.tool_calls.filter((call) => !answered.has(call.id));
    const repairs: Message[] = missing.map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      content: ended.get(call.id) ?? (started.has(call.id) ? INTERRUPTED_RUNNING_RESULT : INTERRUPTED_RESULT),
    }));
    messages.splice(cursor, 0, ...repairs);
    interrupted.push(...missing.filter((call) => !ended.has(call.id)).map((call) => call.id));
    index = cursor + repairs.length - 1;
  }
  return interrupted;
}

export interface SessionSummary {
  readonly id: string;
  readonly path: string;
  readonly startedAt: string;
  readonly kind: SessionMeta['kind'];
  readonly firstQuestion: string;
  readonly messages: number;
  readonly modifiedAt: Date;
  readonly database?: string;
  readonly mode?: string;
  readonly model?: string;
}

/** Sessions in a directory, the most recently active first. Damaged files are skipped. */
export function listSessions(directory: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    const path = join(directory, name);
    try {
      const loaded = readTranscript(path);
      const first = loaded.messages.find((message) => message.role === 'user');
      sessions.push({
        id: loaded.session.id,
        path,
        startedAt: loaded.session.startedAt,
        kind: loaded.session.kind,
        firstQuestion: typeof first?.content === 'string' ? first.content : '',
        messages: loaded.messages.length,
        modifiedAt: statSync(path).mtime,
        ...(loaded.session.database === undefined ? {} : { database: loaded.session.database }),
        ...(loaded.session.mode === undefined ? {} : { mode: loaded.session.mode }),
        ...(loaded.session.model === undefined ? {} : { model: loaded.session.model }),
      });
    } catch {
      // Not a transcript we can read: leave it out of the list.
    }
  }
  return sessions.sort(
    (a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || basename(b.path).localeCompare(basename(a.path)),
  );
}
