import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPrompt } from '@riskgate/prompt';
import type { GatePolicy } from '@riskgate/risk';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { createFileOperationsTool } from '@riskgate/tools-file';
import {
  createDescribeSchemaTool,
  createExecuteSqlTool,
  isSqlFailure,
  openSqlConnection,
  type SqlConnection,
} from '@riskgate/tools-sql';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import {
  Agent,
  type AgentEvent,
  type ApprovalAnswer,
  type ApprovalRequest,
  AuditLog,
  type Confirmer,
  type ReplyLimits,
  type RetryLimits,
  ToolRegistry,
  TranscriptWriter,
} from '../src/index.js';

/** Answers confirmation panels from a queue, and remembers what it was asked. */
export class ScriptedConfirmer implements Confirmer {
  readonly asked: ApprovalRequest[] = [];
  constructor(private readonly answers: ApprovalAnswer[] = []) {}
  async confirm(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error(`unexpected confirmation for ${request.toolName}`);
    return answer;
  }
}

export interface Harness {
  readonly server: ScriptedModelServer;
  readonly agent: Agent;
  readonly confirmer: ScriptedConfirmer;
  readonly events: AgentEvent[];
  readonly directory: string;
  readonly databasePath: string;
  readonly auditPath: string;
  readonly transcript: TranscriptWriter;
  count(sql: string): number;
  turn(input: string, signal?: AbortSignal): ReturnType<Agent['runTurn']>;
  close(): Promise<void>;
}

export async function createHarness(
  replies: ScriptedReply[],
  options: {
    answers?: ApprovalAnswer[];
    policy?: GatePolicy;
    maxSteps?: number;
    baseURL?: string;
    withFiles?: boolean;
    contextTokens?: number;
    retries?: RetryLimits;
    replyLimits?: ReplyLimits;
    /** The scripted server answers 400 to `stream_options`, as endpoints that do not know it do. */
    rejectStreamOptions?: boolean;
  } = {},
): Promise<Harness> {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-core-'));
  const databasePath = join(directory, 'shop.sqlite');
  const database = new Database(databasePath);
  database.exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL, total_cents INTEGER NOT NULL);
    INSERT INTO orders (status, total_cents) VALUES ('paid', 100), ('paid', 250), ('pending', 80), ('cancelled', 10), ('paid', 999);`);
  database.close();
  const connection = (await openSqlConnection(databasePath)) as SqlConnection;
  if (isSqlFailure(connection)) throw new Error('cannot open test database');
  const server = await startScriptedModelServer(
    replies,
    options.rejectStreamOptions === true ? { rejectStreamOptions: true } : {},
  );
  const registry = new ToolRegistry([
    createExecuteSqlTool({ connection }),
    createDescribeSchemaTool({ connection }),
    createExecuteCommandTool(),
    ...(options.withFiles === true ? [createFileOperationsTool()] : []),
  ]);
  const confirmer = new ScriptedConfirmer(options.answers);
  const auditPath = join(directory, 'audit.jsonl');
  const transcript = TranscriptWriter.create(join(directory, 'sessions'), {
    cwd: directory,
    kind: 'sql',
    model: 'scripted-model',
  });
  const events: AgentEvent[] = [];
  const agent = new Agent({
    client: new OpenAI({ apiKey: 'test-key', baseURL: options.baseURL ?? server.baseURL, maxRetries: 0 }),
    model: 'scripted-model',
    registry,
    policy: options.policy ?? { mode: 'smart', rules: [] },
    confirmer,
    context: { cwd: directory },
    systemPrompt: loadPrompt('system-sql', {
      dialect: 'sqlite',
      database: databasePath,
      schema: 'orders(id, status, total_cents)',
    }),
    transcript,
    audit: new AuditLog(auditPath),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.contextTokens === undefined ? {} : { contextTokens: options.contextTokens }),
    // Retries are off unless a test asks: a scripted error is the reply under test.
    retries: options.retries ?? { maxRetries: 0 },
    ...(options.replyLimits === undefined ? {} : { replyLimits: options.replyLimits }),
  });
  return {
    server,
    agent,
    confirmer,
    events,
    directory,
    databasePath,
    auditPath,
    transcript,
    count(sql) {
      const reader = new Database(databasePath, { readonly: true });
      try {
        return (reader.prepare(sql).get() as { n: number }).n;
      } finally {
        reader.close();
      }
    },
    turn: (input, signal) =>
      agent.runTurn(input, { onEvent: (event) => events.push(event), ...(signal === undefined ? {} : { signal }) }),
    close: async () => {
      await server.close();
      await connection.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The tool messages the model was sent back, in order. */
export function toolMessages(harness: Harness): string[] {
  const last = harness.server.requests.at(-1)?.body.messages ?? [];
  return last.filter((message) => message.role === 'tool').map((message) => String(message.content));
}
