import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// The outcome lines (a call that ran has a write-ahead "started" line before its outcome).
const audit = (h: Harness) =>
  readFileSync(h.auditPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.outcome !== 'started');
const remove = (id: number) => ({
  toolCalls: [{ name: 'execute_sql', arguments: { sql: `DELETE FROM orders WHERE id = ${id}` } }],
});

describe('the audit log records what the person decided', () => {
  it('after an edit: the arguments that ran, and the ones the model proposed', async () => {
    harness = await createHarness([remove(3), { text: 'Deleted.' }], {
      answers: [{ type: 'edit', args: { sql: 'DELETE FROM orders WHERE id = 4' } }],
    });
    await harness.turn('delete order 3');
    expect(harness.count('SELECT count(*) AS n FROM orders WHERE id = 3')).toBe(1);
    expect(harness.count('SELECT count(*) AS n FROM orders WHERE id = 4')).toBe(0);
    expect(audit(harness)[0]).toMatchObject({
      answer: 'edit',
      outcome: 'succeeded',
      args: { sql: 'DELETE FROM orders WHERE id = 4' },
      proposedArgs: { sql: 'DELETE FROM orders WHERE id = 3' },
    });
  });

  it('an invalid edit is logged with the edit that was refused', async () => {
    harness = await createHarness([remove(3), { text: 'ok' }], { answers: [{ type: 'edit', args: { sql: '' } }] });
    await harness.turn('delete order 3');
    expect(audit(harness)[0]).toMatchObject({
      answer: 'edit',
      outcome: 'denied',
      errorCode: 'invalid-edit',
      args: { sql: '' },
      proposedArgs: { sql: 'DELETE FROM orders WHERE id = 3' },
    });
  });

  it('a "no" with a note keeps the note; a plain "no" and a cancel have none', async () => {
    harness = await createHarness([remove(3), { text: 'ok' }, remove(4), { text: 'ok' }], {
      answers: [{ type: 'deny', note: 'only the old ones' }, { type: 'deny' }],
    });
    await harness.turn('delete order 3');
    await harness.turn('delete order 4');
    const [first, second] = audit(harness);
    expect(first).toMatchObject({
      answer: 'deny',
      outcome: 'denied',
      note: 'only the old ones',
      args: { sql: 'DELETE FROM orders WHERE id = 3' },
    });
    expect(first).not.toHaveProperty('proposedArgs');
    expect(second).not.toHaveProperty('note');
  });

  it('a note is redacted like the arguments', async () => {
    harness = await createHarness([remove(3), { text: 'ok' }], {
      answers: [{ type: 'deny', note: 'use the key AKIAIOSFODNN7EXAMPLE instead' }],
    });
    await harness.turn('delete order 3');
    const line = readFileSync(harness.auditPath, 'utf8');
    expect(line).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(audit(harness)[0].note).toMatch(/use the key .+ instead/);
  });
});
