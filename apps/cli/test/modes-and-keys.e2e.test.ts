import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscript } from '@riskgate/core';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { e2eScene, pause, settle } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();
const userTexts = (messages: readonly Record<string, unknown>[]) =>
  messages.filter((message) => message.role === 'user').map((message) => String(message.content));

describe('switching modes keeps the conversation', () => {
  it('/sql goes on with the earlier messages, the chosen model and SQL tools; one transcript, resumed in SQL mode', async () => {
    const { directory, env, server } = await scene.start([{ text: 'Chat answer one.' }, { text: 'SQL answer two.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart/);
    terminal.type('/model chosen-model', true);
    await terminal.waitFor(/chat · smart · chosen-model/);
    terminal.type('remember the word heron', true);
    await terminal.waitFor(/Chat answer one\./);
    terminal.type('/sql', true);
    await terminal.waitFor(/SQL mode on .* \(smart\)[\s\S]*SQL · smart/);
    // The conversation is still on screen: nothing was cleared.
    expect(terminal.screen()).toContain('Chat answer one.');
    terminal.type('which word?', true);
    await terminal.waitFor(/SQL answer two\./);
    const second = server.requests[1]!.body;
    expect(second.model).toBe('chosen-model');
    const users = userTexts(second.messages);
    expect(users[0]).toBe('remember the word heron');
    expect(users.at(-1)).toBe('which word?');
    // The model is told its tools changed, between the two.
    expect(users).toHaveLength(3);
    expect(users[1]).toMatch(/switched this conversation to SQL mode[\s\S]*execute_sql/);
    expect(
      second.messages.some((message) => message.role === 'assistant' && message.content === 'Chat answer one.'),
    ).toBe(true);
    expect(second.tools?.map((tool) => tool.function.name)).toContain('execute_sql');
    expect(second.tools?.map((tool) => tool.function.name)).not.toContain('execute_command');
    expect(String(second.messages[0]!.content)).not.toBe(String(server.requests[0]!.body.messages[0]!.content));
    terminal.key('C-d');
    const exited = await terminal.waitFor(/\[exited 0\]/);
    const id = /riskgate --resume (\S+)/.exec(exited)?.[1];
    expect(id).toBeDefined();
    const transcript = readTranscript(join(env.XDG_STATE_HOME!, 'riskgate', 'sessions', `${id}.jsonl`));
    expect(transcript.session.kind).toBe('sql');
    expect(transcript.session.model).toBe('chosen-model');
    expect(userTexts(transcript.messages as unknown as Record<string, unknown>[])).toEqual(users);
  }, 60_000);

  it('/chat after /sql goes on too: the chat tools come back and the model hears of it', async () => {
    const { directory, env, server } = await scene.start([{ text: 'One.' }, { text: 'Two.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} sql'`, env);
    await terminal.waitFor(/SQL · smart/);
    terminal.type('first', true);
    await terminal.waitFor(/One\./);
    terminal.type('/chat', true);
    await terminal.waitFor(/chat mode \(smart\)[\s\S]*chat · smart/);
    terminal.type('second', true);
    await terminal.waitFor(/Two\./);
    const users = userTexts(server.requests[1]!.body.messages);
    expect(users[0]).toBe('first');
    expect(users[1]).toMatch(/switched this conversation to chat mode[\s\S]*execute_command/);
    expect(users[2]).toBe('second');
    expect(server.requests[1]!.body.tools?.map((tool) => tool.function.name)).toContain('execute_command');
  }, 60_000);
});

describe('/db keeps the conversation too', () => {
  it('/db <file> goes on on another database with the messages so far', async () => {
    const { directory, env, server } = await scene.start([{ text: 'Chat one.' }, { text: 'On the other database.' }]);
    const database = join(directory, 'other.sqlite');
    new Database(database).exec('CREATE TABLE things (id INTEGER PRIMARY KEY)').close();
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('hello', true);
    await terminal.waitFor(/Chat one\./);
    terminal.type(`/db ${database}`, true);
    await terminal.waitFor(/SQL mode on .*other\.sqlite \(smart\)[\s\S]*SQL · smart · other\.sqlite/);
    terminal.type('and now?', true);
    await terminal.waitFor(/On the other database\./);
    const users = userTexts(server.requests[1]!.body.messages);
    expect(users[0]).toBe('hello');
    expect(users[1]).toMatch(/switched this conversation to SQL mode on the database .*other\.sqlite/);
    expect(users[2]).toBe('and now?');
    expect(String(server.requests[1]!.body.messages[0]!.content)).toContain('things');
  }, 60_000);
});

describe('Shift+Tab cycles the safety mode', () => {
  it('walks smart → strict → guarded → smart, never into yolo, and the status line follows', async () => {
    const { directory, env } = await scene.start([]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    // The session is open once the model is named (the hotkey acts on it).
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.key('BTab');
    await terminal.waitFor(/safety mode: strict[\s\S]*chat · strict/);
    terminal.key('BTab');
    await terminal.waitFor(/safety mode: guarded[\s\S]*chat · guarded/);
    terminal.key('BTab');
    const back = await terminal.waitFor(/safety mode: smart[\s\S]*chat · smart/);
    expect(back).not.toMatch(/yolo/);
  }, 60_000);

  it('from --yolo it leaves yolo for smart and never comes back to it', async () => {
    const { directory, env } = await scene.start([]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} --yolo'`, env);
    await terminal.waitFor(/chat · yolo · scripted-model/);
    terminal.key('BTab');
    await terminal.waitFor(/chat · smart/);
    for (const mode of ['strict', 'guarded', 'smart', 'strict']) {
      terminal.key('BTab');
      await terminal.waitFor(new RegExp(`safety mode: ${mode}[\\s\\S]*chat · ${mode}`));
    }
    expect(terminal.screen()).not.toMatch(/chat · yolo/);
  }, 60_000);

  it('stays at or above a managed floor', async () => {
    const { directory, env } = await scene.start([]);
    const policyPath = join(directory, 'managed-policy.json');
    writeFileSync(policyPath, JSON.stringify({ minimumMode: 'guarded' }));
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, {
      ...env,
      RISKGATE_MANAGED_POLICY: policyPath,
      RISKGATE_TELEMETRY: '',
    });
    await terminal.waitFor(/chat · guarded · scripted-model/);
    terminal.key('BTab');
    await terminal.waitFor(/safety mode: strict[\s\S]*chat · strict/);
    terminal.key('BTab');
    await terminal.waitFor(/safety mode: guarded[\s\S]*chat · guarded/);
    terminal.key('BTab');
    await terminal.waitFor(/safety mode: strict[\s\S]*safety mode: strict[\s\S]*chat · strict/);
    expect(terminal.screen()).not.toMatch(/safety mode: smart|chat · smart/);
    expect(readFileSync(policyPath, 'utf8')).toContain('guarded');
  }, 60_000);
});

const lastUser = (request: { body: { messages: readonly Record<string, unknown>[] } }) =>
  userTexts(request.body.messages).at(-1);

describe('messages typed while the model works', () => {
  it('Enter queues them under the prompt; they are sent in order, each after the turn before it ends', async () => {
    const { directory, env, server } = await scene.start([
      { text: 'Answer one.', delayMs: 2_500 },
      { text: 'Answer two.' },
      { text: 'Answer three.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('one', true);
    await terminal.waitFor(/thinking/);
    terminal.type('two', true);
    await terminal.waitFor(/queued: two/);
    terminal.type('three', true);
    const shown = await terminal.waitFor(/queued: two\s+queued: three/);
    expect(shown).toContain('↑ on an empty prompt edits');
    // The first request may still be on its way (the client loads with it); the queue is not sent.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 10_000 });
    await terminal.waitFor(/Answer three\./, 30_000);
    expect(server.requests.map(lastUser)).toEqual(['one', 'two', 'three']);
    // Each went after the answer before it: the model saw it.
    expect(server.requests[2]!.body.messages.some((message) => message.content === 'Answer two.')).toBe(true);
    expect(terminal.screen()).not.toContain('queued:');
  }, 60_000);

  it('↑ on an empty prompt takes the queue back into the editor, where it is not sent', async () => {
    const { directory, env, server } = await scene.start([
      { text: 'Answer one.', delayMs: 2_000 },
      { text: 'Edited.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('one', true);
    await terminal.waitFor(/thinking/);
    terminal.type('tow', true);
    await terminal.waitFor(/queued: tow/);
    terminal.key('Up');
    await terminal.waitFor(/› tow/);
    expect(terminal.screen()).not.toContain('queued:');
    await terminal.waitFor(/Answer one\./);
    // The turn ended and nothing was sent: the text waits in the editor.
    await terminal.waitFor(/› tow/);
    expect(server.requests).toHaveLength(1);
    terminal.key('BSpace');
    terminal.key('BSpace');
    terminal.type('wo', true);
    await terminal.waitFor(/Edited\./);
    expect(server.requests.map(lastUser)).toEqual(['one', 'two']);
  }, 60_000);

  it('a queued "y" never answers a confirmation panel and waits until the turn ends', async () => {
    const { directory, env, server } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'touch made.txt' } }], delayMs: 1_500 },
      { text: 'Not made.' },
      { text: 'About y.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('make a file', true);
    await terminal.waitFor(/thinking/);
    terminal.type('y', true);
    await terminal.waitFor(/queued: y/);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    // The panel stays: the queue waits for the turn, and the panel's answer is the person's key.
    await pause(1_000);
    expect(terminal.screen()).toContain('Execute this command?');
    expect(server.requests).toHaveLength(1);
    terminal.type('n');
    await terminal.waitFor(/About y\./, 30_000);
    expect(existsSync(join(directory, 'made.txt'))).toBe(false);
    expect(server.requests.map(lastUser)).toEqual(['make a file', 'make a file', 'y']);
  }, 60_000);

  it('Esc stops the turn and puts the queue back into the editor instead of sending it', async () => {
    const { directory, env, server } = await scene.start([{ text: 'Never.', delayMs: 10_000 }, { text: 'Later.' }]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('one', true);
    await terminal.waitFor(/thinking/);
    terminal.type('two', true);
    await terminal.waitFor(/queued: two/);
    terminal.key('Escape');
    await terminal.waitFor(/cancelled/);
    await terminal.waitFor(/› two/);
    await pause(500);
    expect(server.requests).toHaveLength(1);
  }, 60_000);
});

describe('/model lists the endpoint models', () => {
  it('lists GET /models in a picker with the current one marked; the chosen model takes the next request; /model N too', async () => {
    const { directory, env, server } = await scene.start([{ text: 'From zeta.' }], {
      models: ['zeta-model', 'scripted-model', 'alpha-model'],
    });
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('/model', true);
    const listed = await terminal.waitFor(/models at the endpoint \(3\)[\s\S]*zeta-model/);
    expect(listed).toMatch(/ {3}1\. alpha-model\n\* {2}2\. scripted-model {3}\(current\)\n {3}3\. zeta-model/);
    // The picker opens on the current model: ↓ and Enter choose the next.
    await terminal.waitFor(/Choose a model \(3\)[\s\S]*\* scripted-model {3}\(current\)/);
    await settle();
    terminal.key('Down');
    await settle();
    terminal.key('Enter');
    await terminal.waitFor(/model: zeta-model[\s\S]*chat · smart · zeta-model/);
    expect(terminal.screen()).not.toContain('Choose a model');
    terminal.type('hello', true);
    await terminal.waitFor(/From zeta\./);
    expect(server.requests[0]!.body.model).toBe('zeta-model');
    // A number from the list switches too.
    terminal.type('/model 1', true);
    await terminal.waitFor(/model: alpha-model[\s\S]*chat · smart · alpha-model/);
  }, 60_000);

  it('NO_COLOR: the chosen row is marked without reverse video, and the mark follows ↓', async () => {
    const { directory, env } = await scene.start([], { models: ['zeta-model', 'scripted-model', 'alpha-model'] });
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, NO_COLOR: '1' });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('/model', true);
    const opened = await terminal.waitFor(/Choose a model \(3\)[\s\S]*zeta-model/);
    const rows = (screen: string) => screen.split('\n').filter((line) => /-model/.test(line) && /│/.test(line));
    expect(rows(opened).filter((line) => line.includes('> '))).toEqual([expect.stringContaining('> * scripted-model')]);
    await settle();
    terminal.key('Down');
    const moved = await terminal.waitFor(/> {3}zeta-model/);
    expect(rows(moved).filter((line) => line.includes('> '))).toEqual([expect.stringContaining('>   zeta-model')]);
  }, 60_000);

  it('says so when the endpoint has no /models, and /model <name> still switches', async () => {
    const { directory, env } = await scene.start([], { models: 404 });
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('/model', true);
    await terminal.waitFor(/does not list its models \(no \/models route\); \/model <name> switches by name/);
    terminal.type('/model by-name', true);
    await terminal.waitFor(/chat · smart · by-name/);
  }, 60_000);
});

/** An $EDITOR that rewrites the file it is given, as a person would, and saves. */
function scriptedEditor(directory: string, body: string): string {
  const path = join(directory, 'editor.sh');
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

describe('Ctrl-G edits in $EDITOR', () => {
  it('opens the prompt text in $EDITOR and puts the saved text back, unsent', async () => {
    const { directory, env, server } = await scene.start([{ text: 'Got it.' }]);
    const editor = scriptedEditor(directory, `sed -i 's/draft/final/' "$1"; printf '\\nsecond line\\n' >> "$1"`);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, EDITOR: editor, VISUAL: '' });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('my draft question');
    await terminal.waitFor(/› my draft question/);
    terminal.key('C-g');
    await terminal.waitFor(/› my final question\s*\n\s*second line/);
    await pause(300);
    expect(server.requests).toHaveLength(0);
    terminal.key('Enter');
    await terminal.waitFor(/Got it\./);
    expect(lastUser(server.requests[0]!)).toBe('my final question\nsecond line');
  }, 60_000);

  it("says so when the editor fails, and keeps the prompt's text", async () => {
    const { directory, env } = await scene.start([]);
    const editor = scriptedEditor(directory, 'exit 3');
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, EDITOR: editor, VISUAL: '' });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('keep me');
    await terminal.waitFor(/› keep me/);
    terminal.key('C-g');
    await terminal.waitFor(/exited with 3; the text is unchanged/);
    expect(terminal.screen()).toMatch(/› keep me/);
  }, 60_000);

  it("the panel's edit opens the SQL in $EDITOR; the edit fills the field and runs only when Enter confirms it", async () => {
    const { directory, env, server } = await scene.start([
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'DELETE FROM orders WHERE id = 1' } }] },
      { text: 'Done.' },
    ]);
    const database = join(directory, 'shop.sqlite');
    const db = new Database(database);
    db.exec(
      "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT); INSERT INTO orders (status) VALUES ('a'), ('b'), ('c');",
    );
    db.close();
    const count = () => {
      const reader = new Database(database, { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    const editor = scriptedEditor(directory, `printf 'DELETE FROM orders\\nWHERE id = 2\\n' > "$1"`);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} sql --db ${database}'`, {
      ...env,
      EDITOR: editor,
      VISUAL: '',
    });
    await terminal.waitFor(/SQL · smart · shop\.sqlite · scripted-model/);
    terminal.type('delete order one', true);
    await terminal.waitFor(/Execute this query\?/);
    await settle();
    terminal.type('e');
    await terminal.waitFor(/Ctrl-G: in \$EDITOR/);
    await settle();
    terminal.key('C-g');
    await terminal.waitFor(/DELETE FROM orders[\s│]*\n│ WHERE id = 2/);
    // The editor saved: nothing ran, nothing was sent, the panel waits for Enter.
    await pause(500);
    expect(count()).toBe(3);
    expect(server.requests).toHaveLength(1);
    terminal.key('Enter');
    await terminal.waitFor(/Done\./);
    expect(count()).toBe(2);
    const reader = new Database(database, { readonly: true });
    expect(reader.prepare('SELECT id FROM orders ORDER BY id').all()).toEqual([{ id: 1 }, { id: 3 }]);
    reader.close();
  }, 60_000);
});

describe('the context budget and compaction', () => {
  it('/compact replaces the earlier turns by the summary; the next request carries it and the last turns whole', async () => {
    const { directory, env, server } = await scene.start([
      { text: 'First answer.' },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT count(*) AS n FROM orders' } }] },
      { text: 'There are orders.' },
      { text: 'Third answer.' },
      { text: 'SUMMARY: the person asked a first question and about orders.' },
      { text: 'Fourth answer.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} sql'`, env);
    await terminal.waitFor(/SQL · smart · .*scripted-model · ctx \d+(\.\d)?k?\/100k \(\d+%\)/);
    terminal.type('first question', true);
    await terminal.waitFor(/First answer\./);
    terminal.type('count the orders', true);
    await terminal.waitFor(/There are orders\./);
    terminal.type('third question', true);
    await terminal.waitFor(/Third answer\./);
    terminal.type('/compact', true);
    await terminal.waitFor(/compacted: 2 earlier messages replaced by the model's summary/);
    terminal.type('fourth question', true);
    await terminal.waitFor(/Fourth answer\./);
    const summaryRequest = server.requests[4]!.body;
    expect(summaryRequest.stream).not.toBe(true);
    expect(String(summaryRequest.messages.at(-1)!.content)).toContain('PERSON: first question');
    const sent = server.requests[5]!.body.messages;
    const users = userTexts(sent);
    expect(users[0]).toMatch(/^\[riskgate: a summary of the earlier conversation[\s\S]*SUMMARY: the person asked/);
    expect(users.slice(1)).toEqual(['count the orders', 'third question', 'fourth question']);
    // The tool call and its result came along together.
    const callAt = sent.findIndex((message) => Array.isArray(message.tool_calls));
    expect(callAt).toBeGreaterThan(0);
    expect(sent[callAt + 1]!.role).toBe('tool');
    expect(sent[callAt + 1]!.tool_call_id).toBe((sent[callAt]!.tool_calls as { id: string }[])[0]!.id);
    expect(sent.filter((message) => message.role === 'tool')).toHaveLength(1);
  }, 90_000);

  it('compacts by itself before a turn when the conversation fills the window', async () => {
    const { directory, env, server } = await scene.start([
      { text: 'One.' },
      { text: 'Two.' },
      { text: 'Three.' },
      { text: 'SUMMARY of the long questions.' },
      { text: 'Four.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, RISKGATE_CONTEXT_TOKENS: '1000' });
    await terminal.waitFor(/chat · smart · scripted-model/);
    const long = (word: string) => `${word} ${'lorem ipsum '.repeat(90)}`;
    for (const [index, word] of ['alpha', 'beta', 'gamma'].entries()) {
      terminal.paste(long(word));
      await terminal.waitFor(new RegExp(`› ${word} lorem`));
      terminal.key('Enter');
      await terminal.waitFor(new RegExp(['One', 'Two', 'Three'][index]!));
    }
    terminal.type('delta', true);
    await terminal.waitFor(/Four\./, 30_000);
    expect(terminal.screen()).toMatch(/the context is running low: compacting/);
    const sent = userTexts(server.requests.at(-1)!.body.messages);
    expect(sent[0]).toMatch(/^\[riskgate: a summary[\s\S]*SUMMARY of the long questions\./);
    expect(sent.some((text) => text.startsWith('alpha'))).toBe(false);
    expect(sent.at(-1)).toBe('delta');
  }, 90_000);
});
