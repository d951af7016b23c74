import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscript, TranscriptWriter } from '../src/index.js';

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('a transcript file exists only for a conversation worth resuming', () => {
  it('no file until the first message', () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-lazy-'));
    const writer = TranscriptWriter.create(join(directory, 'sessions'), { cwd: directory, kind: 'chat' });
    expect(existsSync(writer.path)).toBe(false);
    expect(writer.finish()).toBe(false);
    expect(existsSync(writer.path)).toBe(false);
  });

  it('a conversation the model never answered is removed at the end', () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-lazy-'));
    const writer = TranscriptWriter.create(join(directory, 'sessions'), { cwd: directory, kind: 'chat' });
    writer.message({ role: 'user', content: 'hello' });
    writer.event({ type: 'error', kind: 'connection', message: 'cannot reach the model' });
    expect(existsSync(writer.path)).toBe(true);
    expect(writer.finish()).toBe(false);
    expect(existsSync(writer.path)).toBe(false);
  });

  it('an answered conversation stays, with its session line first', () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-lazy-'));
    const writer = TranscriptWriter.create(join(directory, 'sessions'), {
      cwd: directory,
      kind: 'sql',
      database: 'shop.sqlite',
      mode: 'strict',
    });
    writer.message({ role: 'user', content: 'hello' });
    writer.message({ role: 'assistant', content: 'hi' });
    expect(writer.finish()).toBe(true);
    const loaded = readTranscript(writer.path);
    expect(loaded.session).toMatchObject({ kind: 'sql', database: 'shop.sqlite', mode: 'strict' });
    expect(loaded.messages).toHaveLength(2);
  });

  it('a resumed transcript is never removed, even when this sitting got no answer', () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-lazy-'));
    const first = TranscriptWriter.create(join(directory, 'sessions'), { cwd: directory, kind: 'chat' });
    first.message({ role: 'user', content: 'hello' });
    first.message({ role: 'assistant', content: 'hi' });
    const reopened = TranscriptWriter.reopen(first.path, readTranscript(first.path).session);
    reopened.message({ role: 'user', content: 'again' });
    expect(reopened.finish()).toBe(true);
    expect(existsSync(first.path)).toBe(true);
  });
});
