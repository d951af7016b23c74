import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuditLog,
  type AuditEntry,
  INTERRUPTED_RESULT,
  INTERRUPTED_RUNNING_RESULT,
  readTranscript,
  TranscriptWriter,
} from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'riskgate-storage-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
const entry = (toolCallId: string, outcome: AuditEntry['outcome']): AuditEntry => ({
  time: '2026-01-01T00:00:00.000Z',
  toolCallId,
  tool: 'execute_sql',
  args: { sql: 'UPDATE t SET a = 1' },
  llmLevel: null,
  code: { level: 'medium', whitelisted: false },
  decision: { action: 'confirm', source: 'default', reasons: ['writes'] },
  effects: [],
  disagreement: false,
  answer: 'approve',
  outcome,
  durationMs: 0,
});

describe('a line cut short by a crash', () => {
  it('is set aside when a transcript is resumed, so resuming twice keeps the whole conversation', () => {
    const writer = TranscriptWriter.create(join(directory, 'torn'), { cwd: directory, kind: 'chat' });
    writer.message({ role: 'user', content: 'first question' });
    writer.message({ role: 'assistant', content: 'first answer' });
    const cut = '{"kind":"message","time":"2026-01-01","message":{"role":"user","content":"half a li';
    appendFileSync(writer.path, cut);

    const first = readTranscript(writer.path);
    expect(first.truncatedTail).toBe(true);
    const resumed = TranscriptWriter.reopen(writer.path, first.session);
    resumed.message({ role: 'user', content: 'second question' });
    resumed.message({ role: 'assistant', content: 'second answer' });

    const second = readTranscript(writer.path);
    expect(second.truncatedTail).toBe(false);
    expect(second.messages.map((message) => message.content)).toEqual([
      'first question',
      'first answer',
      'second question',
      'second answer',
    ]);
    expect(readFileSync(`${writer.path}.torn`, 'utf8')).toBe(`${cut}\n`);
    // And once more: the second resume finds the same conversation.
    TranscriptWriter.reopen(writer.path, second.session).message({ role: 'user', content: 'third question' });
    expect(readTranscript(writer.path).messages).toHaveLength(5);
  });

  it('is set aside in the audit log, so the next record is readable', () => {
    const path = join(directory, 'audit-torn', 'audit.jsonl');
    new AuditLog(path).record(entry('call-1', 'started'));
    appendFileSync(path, '{"time":"2026-01-01","toolCallId":"call-1","tool":"exec');
    new AuditLog(path).record(entry('call-2', 'succeeded'));
    const records = lines(path).map((line) => JSON.parse(line) as AuditEntry);
    expect(records.map((record) => [record.toolCallId, record.outcome])).toEqual([
      ['call-1', 'started'],
      ['call-2', 'succeeded'],
    ]);
    expect(readFileSync(`${path}.torn`, 'utf8')).toContain('"toolCallId":"call-1","tool":"exec');
  });
});

describe('a line cut by another process while this one writes', () => {
  it('does not swallow the next record of the audit log: it starts on a fresh line', () => {
    const path = join(directory, 'audit-shared', 'audit.jsonl');
    const log = new AuditLog(path);
    log.record(entry('call-1', 'started'));
    // Another session sharing the audit log is killed mid-write, after this one checked the file.
    appendFileSync(path, '{"time":"2026-01-01","toolCallId":"other","tool":"exec');
    log.record(entry('call-1', 'succeeded'));
    const readable = lines(path).flatMap((line) => {
      try {
        return [JSON.parse(line) as AuditEntry];
      } catch {
        return [];
      }
    });
    expect(readable.map((record) => [record.toolCallId, record.outcome])).toEqual([
      ['call-1', 'started'],
      ['call-1', 'succeeded'],
    ]);
  });

  it('does not lose the conversation: a cut line in the middle of a transcript is skipped, not fatal', () => {
    const writer = TranscriptWriter.create(join(directory, 'torn-middle'), { cwd: directory, kind: 'chat' });
    writer.message({ role: 'user', content: 'first question' });
    writer.message({ role: 'assistant', content: 'first answer' });
    appendFileSync(writer.path, '{"kind":"message","time":"2026-01-01","message":{"role":"user","content":"cut');
    writer.message({ role: 'user', content: 'second question' });
    writer.message({ role: 'assistant', content: 'second answer' });
    const loaded = readTranscript(writer.path);
    expect(loaded.messages.map((message) => message.content)).toEqual([
      'first question',
      'first answer',
      'second question',
      'second answer',
    ]);
    expect(loaded.damagedLines).toBe(1);
    expect(loaded.truncatedTail).toBe(false);
  });
});

// The audit log keeps its descriptor open between records (jsonl-file.ts): a record must still land
// in the file at the path after the file was moved away or deleted, and after other writers.
describe('a log file moved, deleted or written by others between two records', () => {
  it('writes the next record to a new file at the path after the old one was moved away (log rotation)', () => {
    const path = join(directory, 'audit-rotated', 'audit.jsonl');
    const log = new AuditLog(path);
    log.record(entry('call-1', 'started'));
    renameSync(path, `${path}.1`);
    log.record(entry('call-1', 'succeeded'));
    expect(lines(`${path}.1`).map((line) => JSON.parse(line).outcome)).toEqual(['started']);
    expect(lines(path).map((line) => JSON.parse(line).outcome)).toEqual(['succeeded']);
  });

  it('writes the next record to a new file after the old one was deleted', () => {
    const path = join(directory, 'audit-deleted', 'audit.jsonl');
    const log = new AuditLog(path);
    log.record(entry('call-1', 'started'));
    unlinkSync(path);
    log.record(entry('call-1', 'succeeded'));
    expect(lines(path).map((line) => JSON.parse(line).outcome)).toEqual(['succeeded']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keeps records whole around complete lines and cut ones of other writers, each time', () => {
    const path = join(directory, 'audit-others', 'audit.jsonl');
    const log = new AuditLog(path);
    log.record(entry('call-1', 'started'));
    appendFileSync(path, '{"toolCallId":"other-1","outcome":"started"}\n');
    log.record(entry('call-1', 'succeeded'));
    appendFileSync(path, '{"toolCallId":"other-2","outc');
    log.record(entry('call-2', 'started'));
    appendFileSync(path, '{"toolCallId":"other-3","outc');
    log.record(entry('call-2', 'succeeded'));
    const readable = lines(path).flatMap((line) => {
      try {
        return [JSON.parse(line) as AuditEntry];
      } catch {
        return [];
      }
    });
    expect(readable.map((record) => record.toolCallId)).toEqual(['call-1', 'other-1', 'call-1', 'call-2', 'call-2']);
  });
});

describe('a disk that cannot be written', () => {
  it('a full disk (/dev/full) is reported once, and recording goes on without throwing', () => {
    const faults: string[] = [];
    const audit = new AuditLog('/dev/full', { onFault: (message) => faults.push(message) });
    expect(() => audit.record(entry('call-1', 'started'))).not.toThrow();
    expect(() => audit.record(entry('call-1', 'succeeded'))).not.toThrow();
    expect(faults).toEqual([
      'cannot write /dev/full (the disk is full); from now on this session is kept in memory only',
    ]);
  });

  it('a transcript whose folder cannot be created is reported once; the session goes on', () => {
    const file = join(directory, 'not-a-folder');
    writeFileSync(file, 'x');
    const faults: string[] = [];
    const writer = TranscriptWriter.create(join(file, 'sessions'), { cwd: directory, kind: 'chat' }, (message) =>
      faults.push(message),
    );
    writer.message({ role: 'user', content: 'hello' });
    writer.message({ role: 'assistant', content: 'hi' });
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatch(/^cannot write .*not-a-folder\/sessions\/.*\.jsonl .*kept in memory only$/);
    expect(writer.finish()).toBe(false);
    expect(existsSync(writer.path)).toBe(false);
  });
});

describe('a tool call the session ended on', () => {
  const transcriptWith = (name: string, events: object[]) => {
    const writer = TranscriptWriter.create(join(directory, name), { cwd: directory, kind: 'sql' });
    writer.message({ role: 'user', content: 'change it' });
    writer.message({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call-1',
          type: 'function',
          function: { name: 'execute_sql', arguments: '{"sql":"UPDATE t SET a = 1"}' },
        },
      ],
    });
    for (const event of events) appendFileSync(writer.path, `${JSON.stringify({ kind: 'event', time: 'x', event })}\n`);
    return readTranscript(writer.path);
  };

  it('is "not run" when it never started executing', () => {
    const loaded = transcriptWith('waiting', [
      { type: 'tool-state', toolCallId: 'call-1', state: 'awaiting-approval' },
    ]);
    expect(loaded.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call-1', content: INTERRUPTED_RESULT });
  });

  it('"may have partly or wholly run" when it was executing', () => {
    const loaded = transcriptWith('running', [{ type: 'tool-state', toolCallId: 'call-1', state: 'executing' }]);
    expect(loaded.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call-1',
      content: INTERRUPTED_RUNNING_RESULT,
    });
    expect(loaded.interrupted).toEqual(['call-1']);
  });

  it('its result when it ended but its tool message was never written', () => {
    const loaded = transcriptWith('ended', [
      { type: 'tool-state', toolCallId: 'call-1', state: 'executing' },
      {
        type: 'tool-result',
        toolCallId: 'call-1',
        toolName: 'execute_sql',
        state: 'succeeded',
        forModel: 'UPDATE changed 1 row',
        durationMs: 4,
      },
    ]);
    expect(loaded.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call-1', content: 'UPDATE changed 1 row' });
    expect(loaded.interrupted).toEqual([]);
  });
});
