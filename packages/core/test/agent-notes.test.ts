import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers.js';

// agent.addNote (what /undo uses): the model learns what the person did outside the conversation,
// never between a reply's tool calls and their results.
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Sent = { role: string; content?: string | null; tool_calls?: unknown[] };
const messagesOf = (h: Harness, request: number) => h.server.requests[request]!.body.messages as Sent[];

describe('notes for the model', () => {
  it('a note made during a call waits for the tool results, then goes before the next request', async () => {
    harness = await createHarness(
      [
        { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'DELETE FROM orders WHERE id = 1' } }] },
        { text: 'Done.' },
      ],
      { answers: [{ type: 'approve' }] },
    );
    const h = harness;
    const confirm = h.confirmer.confirm.bind(h.confirmer);
    h.confirmer.confirm = async (request) => {
      h.agent.addNote('note made while the call waited');
      return confirm(request);
    };
    await h.turn('delete order 1');
    const second = messagesOf(h, 1);
    const toolAt = second.findIndex((message) => message.role === 'tool');
    const noteAt = second.findIndex((message) => message.content === 'note made while the call waited');
    expect(toolAt).toBeGreaterThan(0);
    expect(noteAt).toBe(toolAt + 1);
    expect(second[toolAt - 1]?.tool_calls).toHaveLength(1);
  });

  it('a note made between turns is in the conversation and the transcript at once', async () => {
    harness = await createHarness([{ text: 'First.' }, { text: 'Second.' }]);
    await harness.turn('one');
    harness.agent.addNote('the person undid something');
    expect(harness.agent.conversation.at(-1)).toEqual({ role: 'user', content: 'the person undid something' });
    expect(readFileSync(harness.transcript.path, 'utf8')).toContain('the person undid something');
    await harness.turn('two');
    const sent = messagesOf(harness, 1).map((message) => message.content);
    expect(sent.slice(-2)).toEqual(['the person undid something', 'two']);
  });
});
