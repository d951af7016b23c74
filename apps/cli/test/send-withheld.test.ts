import { type AgentEvent, createOutputGuard, guardToolResult } from '@riskgate/core';
import { describe, expect, it } from 'vitest';
import { type CommandContext, runSlashCommand, sendWithheldText } from '../src/ui/commands.js';
import { type ConversationState, conversationReducer, INITIAL_CONVERSATION } from '../src/ui/conversation.js';

// `/send`: the person hands the model, on purpose, the original of a result the output guard
// withheld from. The result is guarded by the real guard, shown through the real reducer.
const TOKEN = 'glpat-Zx9Qw8Er7Ty6Ui5Op4As';
const guard = createOutputGuard();

function conversationWith(outputs: readonly string[]): ConversationState {
  let state = conversationReducer(INITIAL_CONVERSATION, { type: 'user', text: 'read the logs' });
  outputs.forEach((output, index) => {
    const { forModel, forPerson } = guardToolResult(guard, false, output);
    const events: AgentEvent[] = [
      {
        type: 'tool-call',
        toolCallId: `t${index}`,
        toolName: 'execute_command',
        argumentsText: '{"command":"cat app.log"}',
        title: 'cat app.log',
      },
      {
        type: 'tool-result',
        toolCallId: `t${index}`,
        toolName: 'execute_command',
        state: 'succeeded',
        forModel,
        ...(forPerson === undefined ? {} : { forPerson }),
        durationMs: 1,
      },
    ];
    for (const event of events) state = conversationReducer(state, { type: 'event', event, now: index });
  });
  return conversationReducer(state, {
    type: 'event',
    event: { type: 'turn-end', reason: 'answered', text: 'ok' },
    now: 9,
  });
}

function run(line: string, conversation: ConversationState) {
  const sent: string[] = [];
  const notices: string[] = [];
  const context = {
    conversation,
    notice: (text: string) => notices.push(text),
    sendMessage: (text: string) => sent.push(text),
  } as unknown as CommandContext;
  runSlashCommand(line, context);
  return { sent, notices };
}

describe('/send', () => {
  it('shows the person the original with the mark of what was withheld', () => {
    const state = conversationWith([`deploy with ${TOKEN}\n`]);
    const tool = state.done.find((item) => item.kind === 'tool');
    expect(tool).toMatchObject({ result: { forModel: expect.stringContaining(TOKEN) } });
    expect(tool).toMatchObject({
      result: { forModel: expect.stringContaining('[withheld from the model: a secret (gitlab-pat)]') },
    });
  });

  it('sends the last withheld result whole, as the person message', () => {
    const { sent, notices } = run('/send', conversationWith([`deploy with ${TOKEN}\n`, 'nothing secret here\n']));
    expect(notices).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(`deploy with ${TOKEN}`);
    expect(sent[0]).not.toContain('[withheld');
  });

  it('sends result N when named, and refuses one that had nothing withheld', () => {
    const state = conversationWith(['nothing secret here\n', `deploy with ${TOKEN}\n`]);
    const ids = [...state.done].filter((item) => item.kind === 'tool').map((item) => item.id);
    expect(run(`/send ${ids[1]}`, state).sent[0]).toContain(TOKEN);
    expect(run(`/send ${ids[0]}`, state)).toEqual({
      sent: [],
      notices: [`nothing of result ${ids[0]} was withheld from the model`],
    });
    expect(sendWithheldText(conversationWith(['plain\n']), '')).toEqual({
      error: 'no result had anything withheld from the model',
    });
  });
});
