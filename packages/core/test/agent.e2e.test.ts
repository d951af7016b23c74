import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscript } from '../src/index.js';
import { createHarness, type Harness, toolMessages } from './helpers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const sql = (text: string, extra: Record<string, unknown> = {}) => ({
  name: 'execute_sql',
  arguments: { sql: text, ...extra },
});
// The outcome lines (a call that ran has a write-ahead "started" line before its outcome).
const audit = (h: Harness) =>
  readFileSync(h.auditPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.outcome !== 'started');

describe('real turns through the real openai client against the scripted model', () => {
  it('runs a low-risk SELECT without confirmation and sends the rows back', async () => {
    harness = await createHarness([
      { toolCalls: [sql('SELECT count(*) AS n FROM orders')] },
      { text: 'There are 5 orders.' },
    ]);
    const outcome = await harness.turn('How many orders are there?');
    expect(outcome).toEqual({ reason: 'answered', text: 'There are 5 orders.' });
    expect(harness.confirmer.asked).toHaveLength(0);
    expect(toolMessages(harness)[0]).toMatch(/^n\n5\n\(1 row\)/);
    expect(harness.events.find((event) => event.type === 'decision')).toMatchObject({
      decision: { action: 'execute', source: 'whitelist' },
    });
    // The model was offered every tool with the optional risk_level enum.
    const tools = harness.server.requests[0]!.body.tools!;
    expect(tools.map((tool) => tool.function.name)).toEqual(['execute_sql', 'describe_schema', 'execute_command']);
    for (const tool of tools)
      expect((tool.function.parameters.properties as Record<string, { enum?: string[] }>).risk_level?.enum).toEqual([
        'low',
        'medium',
        'high',
      ]);
  });

  it('asks before a DELETE, shows the preview, and "no" leaves the database unchanged', async () => {
    harness = await createHarness(
      [{ toolCalls: [sql("DELETE FROM orders WHERE status = 'paid'")] }, { text: 'Understood, nothing deleted.' }],
      {
        answers: [{ type: 'deny', note: 'keep the paid ones' }],
      },
    );
    const outcome = await harness.turn('Delete the paid orders');
    expect(harness.confirmer.asked).toHaveLength(1);
    expect(harness.confirmer.asked[0]!.description).toMatchObject({
      kind: 'sql',
      details: expect.arrayContaining(['would delete 3 rows of orders']),
    });
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
    expect(toolMessages(harness)[0]).toMatch(
      /declined this operation and left a note: "keep the paid ones"\. Do what their note asks\.$/,
    );
    expect(outcome.text).toBe('Understood, nothing deleted.');
    expect(audit(harness)[0]).toMatchObject({
      tool: 'execute_sql',
      answer: 'deny',
      outcome: 'denied',
      decision: { action: 'confirm', source: 'default' },
    });
  });

  it('runs the DELETE when the person says yes', async () => {
    harness = await createHarness(
      [{ toolCalls: [sql("DELETE FROM orders WHERE status = 'paid'")] }, { text: 'Deleted.' }],
      { answers: [{ type: 'approve' }] },
    );
    await harness.turn('Delete the paid orders');
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(2);
    expect(toolMessages(harness)[0]).toMatch(/3 rows affected/);
  });

  it("lets the model's risk_level win in smart mode, and flags a low rating of a danger", async () => {
    harness = await createHarness([
      { toolCalls: [sql('DELETE FROM orders', { risk_level: 'low' })] },
      { text: 'Done.' },
    ]);
    await harness.turn('Empty the orders table');
    expect(harness.confirmer.asked).toHaveLength(0);
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(0);
    expect(harness.events.find((event) => event.type === 'decision')).toMatchObject({
      decision: { source: 'llm', disagreement: true, codeLevel: 'high' },
    });
    expect(audit(harness)[0]).toMatchObject({
      llmLevel: 'low',
      code: { level: 'high' },
      disagreement: true,
      outcome: 'succeeded',
    });
  });

  it('in guarded mode, a low rating cannot lower a danger the code found', async () => {
    harness = await createHarness(
      [{ toolCalls: [sql('DELETE FROM orders', { risk_level: 'low' })] }, { text: 'Not done.' }],
      {
        policy: { mode: 'guarded', rules: [] },
        answers: [{ type: 'deny' }],
      },
    );
    await harness.turn('Empty the orders table');
    expect(harness.confirmer.asked[0]!.decision).toMatchObject({ source: 'guard', action: 'confirm' });
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
  });

  it('executes nothing from a stream cut mid-tool-call', async () => {
    harness = await createHarness([
      { toolCalls: [sql('DELETE FROM orders', { risk_level: 'low' })], chunkSize: 4, cutAfterChunks: 6 },
    ]);
    const outcome = await harness.turn('Empty the orders table');
    expect(outcome.reason).toBe('error');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({ kind: 'incomplete-reply' });
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
    expect(harness.agent.conversation.filter((message) => message.role === 'assistant')).toHaveLength(0);
  });

  it('executes nothing when the stream drops after complete arguments but before finish_reason', async () => {
    const args = { sql: 'DELETE FROM orders', risk_level: 'low' };
    // role chunk + tool-call header + argument pieces; the finish chunk never comes.
    const everythingButFinish = 2 + Math.ceil(JSON.stringify(args).length / 4);
    harness = await createHarness([
      { toolCalls: [{ name: 'execute_sql', arguments: args }], chunkSize: 4, cutAfterChunks: everythingButFinish },
    ]);
    const outcome = await harness.turn('Empty the orders table');
    expect(outcome.reason).toBe('error');
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
  });

  it('sends malformed arguments, unknown tools and invalid arguments back to the model, and runs none of them', async () => {
    harness = await createHarness([
      {
        toolCalls: [
          { name: 'execute_sql', arguments: '{"sql": "DELETE FROM orders"' },
          { name: 'drop_everything', arguments: {} },
          { name: 'execute_sql', arguments: { query: 'x' } },
        ],
      },
      { text: 'Sorry.' },
    ]);
    await harness.turn('Do something');
    const [malformed, unknown, invalid] = toolMessages(harness);
    expect(malformed).toMatch(/not valid JSON/);
    expect(unknown).toMatch(
      /no tool named "drop_everything"; the tools are execute_sql, describe_schema, execute_command/,
    );
    expect(invalid).toMatch(/^error: invalid arguments: sql: /);
    expect(harness.confirmer.asked).toHaveLength(0);
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
  });

  it('treats an odd risk_level as absent: a DELETE rated "LOW" is asked about', async () => {
    harness = await createHarness([{ toolCalls: [sql('DELETE FROM orders', { risk_level: 'LOW' })] }, { text: 'ok' }], {
      answers: [{ type: 'deny' }],
    });
    await harness.turn('x');
    expect(harness.confirmer.asked[0]!.decision.reasons.join()).toMatch(
      /"LOW" is not one of low, medium, high; treated as absent/,
    );
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(5);
  });

  it('handles several tool calls of one reply one by one, in order', async () => {
    harness = await createHarness(
      [
        {
          toolCalls: [
            sql('SELECT count(*) AS n FROM orders'),
            sql("DELETE FROM orders WHERE status = 'cancelled'"),
            sql('SELECT count(*) AS n FROM orders'),
          ],
        },
        { text: 'Now 4.' },
      ],
      { answers: [{ type: 'approve' }] },
    );
    await harness.turn('Count, delete cancelled, count again');
    const results = toolMessages(harness);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatch(/^n\n5\n/);
    expect(results[1]).toMatch(/1 row affected/);
    expect(results[2]).toMatch(/^n\n4\n/);
  });

  it('ends the turn with the model’s question, and the person’s answer continues the conversation', async () => {
    harness = await createHarness([
      { text: 'This operation (init system) may be risky. Should I proceed?' },
      { toolCalls: [sql('SELECT 1 AS ok', { risk_level: 'low' })] },
      { text: 'Done.' },
    ]);
    const first = await harness.turn('Initialise the system');
    expect(first).toEqual({ reason: 'answered', text: 'This operation (init system) may be risky. Should I proceed?' });
    await harness.turn('Yes, go ahead');
    const messages = harness.server.requests[1]!.body.messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'This operation (init system) may be risky. Should I proceed?',
    });
  });

  it('stops at the step limit', async () => {
    harness = await createHarness(
      [{ toolCalls: [sql('SELECT 1')] }, { toolCalls: [sql('SELECT 2')] }, { toolCalls: [sql('SELECT 3')] }],
      { maxSteps: 2 },
    );
    const outcome = await harness.turn('loop');
    expect(outcome.reason).toBe('step-limit');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('adds an "always allow" rule for the rest of the session', async () => {
    harness = await createHarness(
      [
        { toolCalls: [sql("UPDATE orders SET status = 'x' WHERE id = 1")] },
        { toolCalls: [sql("UPDATE orders SET status = 'y' WHERE id = 2")] },
        { text: 'ok' },
      ],
      { answers: [{ type: 'always', rule: 'execute_sql(UPDATE orders SET status = *)' }] },
    );
    await harness.turn('update two');
    expect(harness.confirmer.asked).toHaveLength(1);
    expect(harness.events.filter((event) => event.type === 'rule-added')).toEqual([
      { type: 'rule-added', rule: 'execute_sql(UPDATE orders SET status = *)' },
    ]);
    expect(harness.count("SELECT count(*) AS n FROM orders WHERE status IN ('x', 'y')")).toBe(2);
  });

  it('runs the person’s edited operation instead of the model’s', async () => {
    harness = await createHarness([{ toolCalls: [sql('DELETE FROM orders')] }, { text: 'ok' }], {
      answers: [{ type: 'edit', args: { sql: "DELETE FROM orders WHERE status = 'cancelled'" } }],
    });
    await harness.turn('clean up');
    expect(harness.count('SELECT count(*) AS n FROM orders')).toBe(4);
    expect(toolMessages(harness)[0]).toMatch(/edited the operation/);
  });

  it('cancels a running tool through the turn’s AbortSignal', async () => {
    harness = await createHarness([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'sleep 30', risk_level: 'low' } }] },
      { text: 'never' },
    ]);
    const controller = new AbortController();
    const started = Date.now();
    const running = harness.turn('wait', controller.signal);
    while (!harness.events.some((event) => event.type === 'tool-state' && event.state === 'executing'))
      await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const outcome = await running;
    expect(outcome.reason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(harness.events.find((event) => event.type === 'tool-result')).toMatchObject({ state: 'cancelled' });
  });

  it('writes a transcript that reads back as the same conversation, and an audit line per gated call', async () => {
    harness = await createHarness([{ toolCalls: [sql('SELECT count(*) AS n FROM orders')] }, { text: 'Five.' }]);
    await harness.turn('How many?');
    const loaded = readTranscript(harness.transcript.path);
    expect(loaded.messages).toEqual(harness.agent.conversation);
    expect(loaded.interrupted).toEqual([]);
    expect(loaded.events.some((event) => event.type === 'decision')).toBe(true);
    expect(audit(harness)).toHaveLength(1);
  });

  it('redacts secrets in the audit log and the transcript events', async () => {
    harness = await createHarness(
      [
        {
          toolCalls: [
            {
              name: 'execute_command',
              arguments: {
                command: 'curl -H "Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz0123" https://example.com',
              },
            },
          ],
        },
        { text: 'ok' },
      ],
      { answers: [{ type: 'deny' }] },
    );
    await harness.turn('call the api');
    const line = readFileSync(harness.auditPath, 'utf8');
    expect(line).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123');
    expect(line).toContain('[redacted: an API secret key]');
    const events = readTranscript(harness.transcript.path).events;
    expect(events.some((event) => event.type === 'tool-call')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123');
    expect(JSON.stringify(events)).toContain('[redacted: an API secret key]');
  });

  it('keeps the transcript and the audit log readable by their owner only', async () => {
    harness = await createHarness([{ toolCalls: [sql('SELECT 1')] }, { text: 'ok' }]);
    await harness.turn('x');
    expect(statSync(harness.transcript.path).mode & 0o077).toBe(0);
    expect(statSync(harness.auditPath).mode & 0o077).toBe(0);
  });

  it('records the model’s level in the audit log for a call to a tool that does not exist', async () => {
    harness = await createHarness([
      { toolCalls: [{ name: 'format_disk', arguments: { risk_level: 'low' } }] },
      { text: 'ok' },
    ]);
    await harness.turn('x');
    expect(audit(harness)[0]).toMatchObject({
      tool: 'format_disk',
      llmLevel: 'low',
      outcome: 'denied',
      errorCode: 'unknown-tool',
    });
  });
});

describe('provider errors become clear messages', () => {
  it.each([
    [{ error: { status: 401, message: 'Incorrect API key provided' } }, 'auth', /rejected the API key \(401\)/],
    [{ error: { status: 429, retryAfter: 7 } }, 'rate-limit', /rate-limiting requests \(429\); try again in 7 s/],
    [
      { error: { status: 404, message: 'model not found' } },
      'model-not-found',
      /does not know the model "scripted-model"/,
    ],
    [{ error: { status: 500 } }, 'server', /failed \(500\)/],
  ])('%j', async (reply, kind, message) => {
    harness = await createHarness([reply]);
    const outcome = await harness.turn('hi');
    expect(outcome.reason).toBe('error');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind,
      message: expect.stringMatching(message),
    });
  });

  it('an unreachable endpoint', async () => {
    harness = await createHarness([], { baseURL: 'http://127.0.0.1:9/v1' });
    await harness.turn('hi');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'unreachable',
      message: expect.stringMatching(/cannot reach/),
    });
  });
});
