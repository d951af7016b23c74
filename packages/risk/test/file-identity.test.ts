import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityKey, SETTLED_MS, settledBefore } from '../src/knowledge/file-identity.js';
import { cachedVerdictCount, fileVerdict } from '../src/knowledge/file-verdict.js';

const big = (fields: Partial<Record<'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs', bigint>>) =>
  ({ dev: 1n, ino: 2n, size: 3n, mtimeNs: 4n, ctimeNs: 5n, mtimeMs: 0n, ctimeMs: 0n, ...fields }) as never;

describe('the identity a cached answer is keyed by', () => {
  it.each([
    ['dev', { dev: 9n }],
    ['ino', { ino: 9n }],
    ['size', { size: 9n }],
    ['mtime by one nanosecond', { mtimeNs: 5n }],
    ['ctime by one nanosecond', { ctimeNs: 6n }],
  ])('changes with the %s', (_, change) => {
    expect(identityKey(big(change))).not.toBe(identityKey(big({})));
  });

  it('reuses an answer only when the times lay SETTLED_MS before the read', () => {
    const now = Date.now();
    const at = (ms: number) => ({ mtimeMs: ms, ctimeMs: ms }) as never;
    expect(settledBefore(at(now - SETTLED_MS - 1), now)).toBe(true);
    expect(settledBefore(at(now - SETTLED_MS + 1), now)).toBe(false);
    expect(settledBefore(at(now), now)).toBe(false);
    // A changed ctime alone keeps the answer from being reused (mtime can be set back; ctime cannot).
    expect(settledBefore({ mtimeMs: now - 10 * SETTLED_MS, ctimeMs: now } as never, now)).toBe(false);
  });
});

describe('fileVerdict', () => {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-identity-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('does not keep a verdict on a file changed in the last SETTLED_MS, and reads it again', () => {
    const path = join(directory, 'fresh.txt');
    writeFileSync(path, 'nothing\n');
    const count = cachedVerdictCount();
    expect(fileVerdict(path, lstatSync(path))).toEqual({});
    expect(cachedVerdictCount()).toBe(count);
    // Same size, written in the same tick (or not): the next verdict follows the content.
    writeFileSync(path, 'AKIAQYLPMN5HHHFPZAM2\n'.slice(0, 8));
    writeFileSync(path, 'password=Zx9!kQ2#vL\n');
    expect(fileVerdict(path, lstatSync(path))?.secret).toBeDefined();
  });
});
