import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { serverWaitMs } from '../src/model-wait.js';
import { createHarness, type Harness } from './helpers.js';

// Every wait on the model is bounded and visible: the real `openai` client over HTTP against the
// scripted server on 127.0.0.1, misbehaving as servers do (a 429 asking for an hour, a finish
// without [DONE], a stream without end).
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const transcriptEvents = (h: Harness) =>
  readFileSync(h.transcript.path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { kind: string; event?: { type: string; kind?: string; message?: string } })
    .filter((record) => record.kind === 'event')
    .map((record) => record.event!);

describe('a 429 with Retry-After', { timeout: 20_000 }, () => {
  it.each([
    [
      'seconds',
      3600,
      /asks to wait 3600 s; riskgate waits at most 60 s, so it stopped\. Try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
    ],
    [
      'an HTTP date',
      new Date(Date.now() + 7_200_000).toUTCString(),
      /asks to wait 7\d\d\d s; riskgate waits at most 60 s/,
    ],
  ])('longer than the cap (%s) fails at once with the time to try again', async (_, retryAfter, message) => {
    harness = await createHarness([{ error: { status: 429, retryAfter } }, { text: 'never asked' }], {
      retries: { maxRetries: 2 },
    });
    const started = Date.now();
    const outcome = await harness.turn('hi');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.reason).toBe('error');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.events.filter((event) => event.type === 'retry')).toEqual([]);
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'rate-limit',
      message: expect.stringMatching(message),
    });
    expect(transcriptEvents(harness).find((event) => event.type === 'error')).toMatchObject({
      kind: 'rate-limit',
      message: expect.stringMatching(message),
    });
  });

  it('within the cap: the wait is announced, then the request is made again', async () => {
    harness = await createHarness([{ error: { status: 429, retryAfter: 1 } }, { text: 'answered after the wait' }], {
      retries: { maxRetries: 2 },
    });
    const started = Date.now();
    const outcome = await harness.turn('hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(outcome).toMatchObject({ reason: 'answered', text: 'answered after the wait' });
    expect(harness.server.requests).toHaveLength(2);
    expect(harness.events.find((event) => event.type === 'retry')).toMatchObject({
      attempt: 1,
      maxRetries: 2,
      waitMs: 1000,
      reason: expect.stringMatching(/ is rate-limiting requests \(429\)$/),
    });
    expect(transcriptEvents(harness).find((event) => event.type === 'retry')).toMatchObject({ type: 'retry' });
  });

  it('the wait ends at once when the turn is cancelled (Esc, a signal)', async () => {
    harness = await createHarness([{ error: { status: 429, retryAfter: 50 } }, { text: 'never asked' }], {
      retries: { maxRetries: 2 },
    });
    const controller = new AbortController();
    const started = Date.now();
    const turn = harness.turn('hi', controller.signal);
    while (!harness.events.some((event) => event.type === 'retry'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const outcome = await turn;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.reason).toBe('cancelled');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.events.find((event) => event.type === 'retry')).toMatchObject({ waitMs: 50_000 });
  });

  it('retries stop after maxRetries, and a server error without Retry-After backs off 1 s, 2 s', async () => {
    harness = await createHarness(
      [{ error: { status: 500 } }, { error: { status: 503 } }, { error: { status: 500 } }, { text: 'never asked' }],
      { retries: { maxRetries: 2 } },
    );
    const outcome = await harness.turn('hi');
    expect(outcome.reason).toBe('error');
    expect(harness.server.requests).toHaveLength(3);
    expect(
      harness.events.filter((event) => event.type === 'retry').map((event) => (event as { waitMs: number }).waitMs),
    ).toEqual([1000, 2000]);
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({ kind: 'server' });
  });

  it('a request that is refused for good (401) is not retried', async () => {
    harness = await createHarness([{ error: { status: 401 } }, { text: 'never asked' }], {
      retries: { maxRetries: 2 },
    });
    expect((await harness.turn('hi')).reason).toBe('error');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.events.some((event) => event.type === 'retry')).toBe(false);
  });
});

describe('a stream that finishes but never sends [DONE]', { timeout: 20_000 }, () => {
  it('a text answer ends the turn', async () => {
    harness = await createHarness([{ text: 'the answer', withoutDone: true }]);
    const started = Date.now();
    const outcome = await harness.turn('hi');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(outcome).toMatchObject({ reason: 'answered', text: 'the answer' });
  });

  it('tool calls run and the turn goes on', async () => {
    harness = await createHarness([
      {
        toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT count(*) AS n FROM orders' } }],
        withoutDone: true,
      },
      { text: 'five orders', withoutDone: true },
    ]);
    const outcome = await harness.turn('how many orders?');
    expect(outcome).toMatchObject({ reason: 'answered', text: 'five orders' });
    expect(harness.events.find((event) => event.type === 'tool-result')).toMatchObject({ state: 'succeeded' });
    const audit = readFileSync(harness.auditPath, 'utf8');
    expect(audit).toMatch(/SELECT count\(\*\) AS n FROM orders/);
  });
});

describe('a stream without end', { timeout: 30_000 }, () => {
  it('is cut at the byte cap, nothing in it acted on, and the person is told', async () => {
    harness = await createHarness([{ text: 'start ', endless: true }], { replyLimits: { maxBytes: 512 * 1024 } });
    const started = Date.now();
    const outcome = await harness.turn('hi');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.reason).toBe('error');
    const message = /passed 524288 bytes without finishing; riskgate stopped reading it and nothing in it was executed/;
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'reply-too-long',
      message: expect.stringMatching(message),
    });
    expect(transcriptEvents(harness).find((event) => event.type === 'error')).toMatchObject({ kind: 'reply-too-long' });
    // The conversation does not keep the cut reply as an assistant message.
    expect(harness.agent.conversation.filter((m) => m.role === 'assistant')).toEqual([]);
  });

  it('is cut at the time cap', async () => {
    harness = await createHarness([{ text: 'slow ', endless: true, chunkSize: 1 }], {
      replyLimits: { maxBytes: 1024 ** 3, maxMs: 700 },
    });
    const started = Date.now();
    const outcome = await harness.turn('hi');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(650);
    expect(took).toBeLessThan(5000);
    expect(outcome.reason).toBe('error');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'reply-too-slow',
      message: expect.stringMatching(/did not finish within 1 s/),
    });
  });
});

describe('serverWaitMs', () => {
  const headers = (values: Record<string, string>) => ({ headers: new Headers(values) });
  it.each([
    [{ 'retry-after': '12' }, 12_000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '250', 'retry-after': '99' }, 250],
    [{ 'retry-after': 'Thu, 01 Jan 1970 00:01:00 GMT' }, 30_000],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s ms', (values, expected) => {
    expect(serverWaitMs(headers(values), 30_000)).toBe(expected);
  });
});
