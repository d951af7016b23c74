import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();
const wide = { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT id, note FROM notes' } }] };

describe('a long session in a real terminal', () => {
  it('every turn is printed once; old results are trimmed to the context budget and the person is told', async () => {
    const replies = Array.from({ length: 4 }, (_, turn) => [wide, { text: `Answer ${turn}.` }]).flat();
    const { directory, env, server } = await scene.start(replies);
    const database = join(directory, 'notes.sqlite');
    const db = new Database(database);
    db.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) INSERT INTO notes SELECT i, printf('%02000d', i) FROM n;`);
    db.close();
    const terminal = scene.open(`node ${BIN} sql --db ${database}`, { ...env, RISKGATE_CONTEXT_TOKENS: '3000' });
    await terminal.waitFor(/scripted-model/);
    for (let turn = 0; turn < 4; turn++) {
      terminal.type(`question ${turn}`, true);
      await terminal.waitFor(new RegExp(`Answer ${turn}\\.[\\s\\S]*Ask anything`));
    }
    const screen = terminal.screen();
    for (let turn = 0; turn < 4; turn++) expect(screen.split(`Answer ${turn}.`).length - 1).toBe(1);
    expect(screen).toMatch(/kept the conversation within the model's context \(≈3k tokens\): \d+ old tool results? replaced by a note/);
  });
});
