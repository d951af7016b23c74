import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './run-cli.js';
import { TmuxTerminal } from './tmux.js';

let server: ScriptedModelServer | undefined;
let terminal: TmuxTerminal | undefined;
let directory: string | undefined;
afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  await server?.close();
  server = undefined;
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

async function setup(replies: ScriptedReply[]) {
  directory = mkdtempSync(join(tmpdir(), 'riskgate-e2e-'));
  const database = join(directory, 'shop.sqlite');
  const db = new Database(database);
  db.exec(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL); INSERT INTO orders (status) VALUES ('paid'), ('paid'), ('cancelled'), ('pending');",
  );
  db.close();
  server = await startScriptedModelServer(replies);
  const env = {
    OPENAI_BASE_URL: server.baseURL,
    RISKGATE_MODEL: 'scripted-model',
    XDG_CONFIG_HOME: join(directory, 'config'),
    XDG_STATE_HOME: join(directory, 'state'),
    XDG_CACHE_HOME: join(directory, 'cache'),
  };
  const count = (where = '1 = 1') => {
    const reader = new Database(database, { readonly: true });
    try {
      return (reader.prepare(`SELECT count(*) AS n FROM orders WHERE ${where}`).get() as { n: number }).n;
    } finally {
      reader.close();
    }
  };
  return { database, env, count, directory };
}

const sql = (text: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: 'execute_sql', arguments: { sql: text, ...extra } }],
});

describe('the TUI in a real pseudo-terminal', () => {
  it('runs a SELECT unasked and shows the result table with the SQL beneath', async () => {
    const { database, env } = await setup([
      sql('SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status'),
      { text: 'Two orders are **paid**.' },
    ]);
    terminal = new TmuxTerminal(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/SQL · smart · shop\.sqlite · scripted-model/);
    terminal.type('How are the orders distributed?', true);
    const screen = await terminal.waitFor(/Two orders are paid\./);
    expect(screen).toMatch(/status\s+│ n/);
    expect(screen).toMatch(/cancelled\s+│ 1/);
    expect(screen).toContain('3 rows');
    expect(screen).toContain('SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status');
    expect(screen).not.toContain('Execute this query?');
  });

  it('asks before a DELETE; n leaves the data unchanged', async () => {
    const { database, env, count } = await setup([
      sql("DELETE FROM orders WHERE status = 'paid'"),
      { text: 'Nothing was deleted.' },
    ]);
    terminal = new TmuxTerminal(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('Delete the paid orders', true);
    const panel = await terminal.waitFor(/Execute this query\? \[y\/N\]/);
    expect(panel).toContain("DELETE FROM orders WHERE status = 'paid'");
    expect(panel).toContain('would delete 2 rows of orders');
    await new Promise((resolve) => setTimeout(resolve, 800));
    terminal.type('n');
    await terminal.waitFor(/Nothing was deleted\./);
    expect(count()).toBe(4);
  });

  it('y runs it', async () => {
    const { database, env, count } = await setup([
      sql("DELETE FROM orders WHERE status = 'paid'"),
      { text: 'Deleted.' },
    ]);
    terminal = new TmuxTerminal(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('Delete the paid orders', true);
    await terminal.waitFor(/Execute this query\?/);
    await new Promise((resolve) => setTimeout(resolve, 800));
    terminal.type('y');
    await terminal.waitFor(/Deleted\./);
    expect(count()).toBe(2);
  });

  it('a grants exactly the narrow rule: the same statement runs unasked after, another one still asks', async () => {
    const statement = 'DELETE FROM orders WHERE id = 1';
    const { database, env, count } = await setup([
      sql(statement),
      { text: 'First done.' },
      sql(statement),
      { text: 'Second done.' },
      sql('DELETE FROM orders WHERE id = 2'),
      { text: 'Third refused.' },
    ]);
    terminal = new TmuxTerminal(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('delete one', true);
    const panel = await terminal.waitFor(/a always allow/);
    expect(panel.replace(/[\s│]+/g, ' ')).toContain(`a always allow execute_sql(${statement})`);
    await new Promise((resolve) => setTimeout(resolve, 800));
    terminal.type('a');
    await terminal.waitFor(/First done\.[\s\S]*Ask anything/);
    expect(count()).toBe(3);
    terminal.type('again', true);
    await terminal.waitFor(/Second done\.[\s\S]*Ask anything/);
    terminal.type('another', true);
    await terminal.waitFor(/DELETE FROM orders WHERE id = 2[\s\S]*Execute this query\?/);
    await new Promise((resolve) => setTimeout(resolve, 800));
    terminal.type('n');
    await terminal.waitFor(/Third refused\.[\s\S]*Ask anything/);
    expect(count('id = 2')).toBe(1);
    terminal.type('/rules', true);
    const rules = await terminal.waitFor(/rules from the config/);
    expect(rules).toContain(`1. execute_sql(${statement})`);
  });

  it('type-ahead does not confirm: keys pressed before the panel appears are ignored', async () => {
    const { database, env, count } = await setup([{ ...sql('DELETE FROM orders'), delayMs: 600 }, { text: 'ok' }]);
    // A wide guard, so that a slow machine cannot push the early keys past it.
    terminal = new TmuxTerminal(`node ${BIN} sql --db ${database}`, { ...env, RISKGATE_TYPE_AHEAD_MS: '2500' });
    await terminal.waitFor(/scripted-model/);
    terminal.type('Delete everything', true);
    // The Enter is taken before the y's are typed: a loaded machine may otherwise read Enter and
    // the y's as one chunk, which the prompt takes as pasted text (a newline, not a send).
    await terminal.waitFor(/thinking/);
    terminal.type('yyy');
    await terminal.waitFor(/Execute this query\?/);
    terminal.type('y');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(terminal.screen()).toContain('Execute this query?');
    expect(count()).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    terminal.type('n');
    await terminal.waitFor(/› ok|^ok$/m);
    expect(count()).toBe(4);
  });

  it('Ctrl-C cancels a long command, not the session; twice at an empty prompt exits', async () => {
    const { env, directory: workspace } = await setup([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'sleep 30', risk_level: 'low' } }] },
      { text: 'unused' },
    ]);
    terminal = new TmuxTerminal(`sh -c 'cd ${workspace} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('wait a while', true);
    await terminal.waitFor(/execute_command: sleep 30 \d+\.\d s/);
    const started = Date.now();
    terminal.key('C-c');
    await terminal.waitFor(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await terminal.waitFor(/Ask anything/);
    terminal.key('C-c');
    await terminal.waitFor(/press Ctrl-C again to exit/);
    terminal.key('C-c');
    await terminal.waitFor(/\[exited 0\]/);
  });
});

const runHeadless = (args: string[], env: Record<string, string>, input = '') => runCli(args, { env, input });

describe('headless: riskgate -p', () => {
  it('prints the answer and exits 0', async () => {
    const { database, env } = await setup([sql('SELECT count(*) AS n FROM orders'), { text: 'There are 4 orders.' }]);
    const result = await runHeadless(['sql', '--db', database, '-p', 'How many orders?'], env);
    expect(result).toMatchObject({ code: 0, stdout: 'There are 4 orders.\n' });
  });

  it('refuses what needs confirmation without a terminal, names it and why, exits 2, and changes nothing', async () => {
    const { database, env, count } = await setup([
      sql("DELETE FROM orders WHERE status = 'paid'"),
      { text: 'It was refused.' },
    ]);
    const result = await runHeadless(['sql', '--db', database, '-p', 'Delete the paid orders'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("refused execute_sql: DELETE FROM orders WHERE status = 'paid'");
    expect(result.stderr).toContain('DELETE removes the rows of orders that match its WHERE');
    expect(result.stderr).toContain('--yes');
    expect(count()).toBe(4);
    const sent = server!.requests[1]!.body.messages.at(-1)!;
    expect(String(sent.content)).toBe(
      'not run: refused for lack of consent (riskgate ran without a terminal, so no one could be asked). Nothing was run; do not try it another way; tell the person what you wanted to do.',
    );
    expect(String(sent.content)).not.toMatch(/the person declined/);
  });

  it('--yes approves it', async () => {
    const { database, env, count } = await setup([
      sql("DELETE FROM orders WHERE status = 'paid'"),
      { text: 'Deleted.' },
    ]);
    const result = await runHeadless(['sql', '--db', database, '-p', '--yes', 'Delete the paid orders'], env);
    expect(result.code).toBe(0);
    expect(count()).toBe(2);
  });

  it('--output json prints one object with the answer, the calls and their decisions', async () => {
    const { database, env } = await setup([sql('SELECT 1 AS one'), { text: 'One.' }]);
    const result = await runHeadless(['sql', '--db', database, '-p', '--output', 'json', 'one?'], env);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({
      text: 'One.',
      reason: 'answered',
      exitCode: 0,
      refused: [],
      toolCalls: [{ tool: 'execute_sql', state: 'succeeded', decision: { action: 'execute', source: 'whitelist' } }],
    });
  });

  it('--output stream-json prints every event as a line', async () => {
    const { database, env } = await setup([sql('SELECT 1 AS one'), { text: 'One.' }]);
    const result = await runHeadless(['sql', '--db', database, '-p', '--output', 'stream-json', 'one?'], env);
    const types = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type);
    expect(types).toEqual(expect.arrayContaining(['tool-call', 'decision', 'tool-result', 'text-delta', 'turn-end']));
    expect(types.slice(-2)).toEqual(['turn-end', 'result']);
  });

  it('--output json carries the session id /resume takes, the usage summed over the turn and the reported cost', async () => {
    const { database, env } = await setup([
      { ...sql('SELECT 1 AS one'), usage: { prompt_tokens: 900, completion_tokens: 20, cost: 0.0009 } },
      { text: 'One.', usage: { prompt_tokens: 950, completion_tokens: 5, total_tokens: 955, cost: 0.001 } },
    ]);
    const result = await runHeadless(['sql', '--db', database, '-p', '--output', 'json', 'one?'], env);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({
      text: 'One.',
      sessionId: expect.stringMatching(/^[\w-]{8,}$/),
      usage: { promptTokens: 1850, completionTokens: 25, totalTokens: 1875 },
    });
    expect(output.cost).toBeCloseTo(0.0019, 10);
    expect(server!.requests.every((request) => request.body.stream_options?.include_usage === true)).toBe(true);
    // The id is the one --resume takes: the next run continues that conversation.
    server!.push({ text: 'Still one.' });
    const resumed = await runHeadless(['sql', '--db', database, `--resume=${output.sessionId}`, '-p', 'again?'], env);
    expect(resumed.stdout).toBe('Still one.\n');
    expect(server!.requests.at(-1)!.body.messages.map((message) => message.content)).toContain('one?');
  });

  it('--output json says null for usage and cost when the provider reports none, and stream-json ends with the same result', async () => {
    const { database, env } = await setup([{ text: 'No usage here.' }, { text: 'Nor here.' }]);
    const json = JSON.parse((await runHeadless(['sql', '--db', database, '-p', '--output', 'json', 'hi'], env)).stdout);
    expect(json).toMatchObject({ usage: null, cost: null, sessionId: expect.any(String) });
    const lines = (await runHeadless(['sql', '--db', database, '-p', '--output', 'stream-json', 'hi'], env)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      text: 'Nor here.',
      reason: 'answered',
      usage: null,
      cost: null,
      exitCode: 0,
      sessionId: expect.any(String),
    });
    expect(lines.at(-1).sessionId).not.toBe(json.sessionId);
  });

  it('takes the question on stdin', async () => {
    const { database, env } = await setup([{ text: 'Hello from stdin.' }]);
    const result = await runHeadless(['sql', '--db', database, '-p'], env, 'Say hello\n');
    expect(result).toMatchObject({ code: 0, stdout: 'Hello from stdin.\n' });
    expect(server!.requests[0]!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Say hello' });
  });

  it('says exactly how to configure a model when none is set, and exits 1', async () => {
    const { database, env } = await setup([]);
    const result = await runHeadless(['sql', '--db', database, '-p', 'x'], {
      ...env,
      OPENAI_BASE_URL: '',
      RISKGATE_MODEL: '',
      OPENAI_API_KEY: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('riskgate needs a model to talk to');
    expect(result.stderr).toContain('OPENAI_BASE_URL=http://127.0.0.1:11434/v1');
  });

  it('names the file and field of a bad config, and exits 1', async () => {
    const { database, env } = await setup([]);
    mkdirSync(join(env.XDG_CONFIG_HOME, 'riskgate'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME, 'riskgate', 'config.json'), '{"mode":"reckless"}');
    const result = await runHeadless(['sql', '--db', database, '-p', 'x'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/config\.json: mode: Invalid option/);
  });

  it('reports an unreachable endpoint clearly, and exits 1', async () => {
    const { database, env } = await setup([]);
    const result = await runHeadless(['sql', '--db', database, '-p', 'x'], {
      ...env,
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
  });

  it.each([
    [['--mode', 'loose'], /--mode must be strict, smart or guarded/],
    [['--yolo', '--mode', 'strict'], /--yolo and --mode together/],
    [['--output', 'xml', '-p', 'x'], /--output-format must be text, json or stream-json/],
    [['stray'], /unknown command "stray"/],
  ])('rejects bad flags: %j', async (args, message) => {
    const result = await runHeadless(args, {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
