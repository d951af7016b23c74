import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type ScriptedModelServer, startScriptedModelServer } from '@riskgate/testing';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '@riskgate/tools-sql';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { riskgateForAiSdk } from '../riskgate-tools.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-ai-sdk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let index = 0;
let file: string;
let connection: SqlConnection;
let server: ScriptedModelServer | undefined;

beforeEach(async () => {
  file = join(root, `shop-${index++}.sqlite`);
  const database = new Database(file);
  database.exec(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('cake'), ('jam');",
  );
  database.close();
  const opened = await openSqlConnection(file);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
});
afterEach(async () => {
  await server?.close();
  await connection.close();
});

const count = () => {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
  } finally {
    database.close();
  }
};

/** A conversation as an app runs it: generateText, and on an approval request the person answers, then again. */
async function converse(
  sql: string,
  personSays: boolean | undefined,
  policy?: { mode: 'strict' | 'smart'; rules: [] },
) {
  server = await startScriptedModelServer([
    { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
    { text: 'done' },
  ]);
  const model = createOpenAICompatible({ name: 'scripted', baseURL: server.baseURL, apiKey: 'test' })('scripted-model');
  const { tools, toolApproval } = riskgateForAiSdk({
    tools: [createExecuteSqlTool({ connection })],
    assess: { cwd: root, dialect: 'sqlite' },
    ...(policy ? { policy } : {}),
  });
  const messages: ModelMessage[] = [{ role: 'user', content: 'do it' }];
  let result = await generateText({ model, tools, toolApproval, messages, stopWhen: stepCountIs(5) });
  const requests = result.content.filter((part) => part.type === 'tool-approval-request');
  if (requests.length > 0 && personSays !== undefined) {
    messages.push(...result.response.messages, {
      role: 'tool',
      content: requests.map((request) => ({
        type: 'tool-approval-response' as const,
        approvalId: request.approvalId,
        approved: personSays,
      })),
    });
    result = await generateText({ model, tools, toolApproval, messages, stopWhen: stepCountIs(5) });
  }
  const toolMessages = server.requests
    .flatMap((request) => request.body.messages)
    .filter((message) => message.role === 'tool');
  return { requests, result, toolMessages: toolMessages.map((message) => String(message.content)) };
}

describe('riskgate tools in the AI SDK', () => {
  it('runs a whitelisted SELECT without an approval request and gives the rows to the model', async () => {
    const { requests, result, toolMessages } = await converse('SELECT item FROM orders ORDER BY id', undefined);
    expect(requests).toEqual([]);
    expect(result.text).toBe('done');
    expect(toolMessages.join('\n')).toMatch(/tea[\s\S]*cake[\s\S]*jam/);
  });

  it('puts a DELETE to the person through the approval flow, with the reason, and runs it on yes', async () => {
    const { requests, toolMessages } = await converse('DELETE FROM orders WHERE id > 1', true);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      toolCall: { toolName: 'execute_sql' },
      reason: expect.stringMatching(/guarded mode: the code found what this does; DELETE removes the rows of orders/),
    });
    expect(count()).toBe(1);
    expect(toolMessages.join('\n')).toMatch(/2 rows/);
  });

  it('does not run the DELETE on no', async () => {
    const { requests } = await converse('DELETE FROM orders', false);
    expect(requests).toHaveLength(1);
    expect(count()).toBe(3);
  });

  it('asks about a SELECT too in strict mode', async () => {
    const { requests } = await converse('SELECT 1', true, { mode: 'strict', rules: [] });
    expect(requests[0]).toMatchObject({ reason: expect.stringMatching(/strict mode/) });
  });
});
