import { readFileSync, writeFileSync } from 'node:fs';
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
    const { directory, env } = await scene.start(replies);
    const database = join(directory, 'notes.sqlite');
    const db = new Database(database);
    db.exec(
      `CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) INSERT INTO notes SELECT i, printf('%02000d', i) FROM n;`,
    );
    db.close();
    const terminal = scene.open(`node ${BIN} sql --db ${database}`, { ...env, RISKGATE_CONTEXT_TOKENS: '3000' });
    await terminal.waitFor(/scripted-model/);
    for (let turn = 0; turn < 4; turn++) {
      terminal.type(`question ${turn}`, true);
      await terminal.waitFor(new RegExp(`Answer ${turn}\\.[\\s\\S]*Ask anything`));
    }
    const screen = terminal.screen();
    for (let turn = 0; turn < 4; turn++) expect(screen.split(`Answer ${turn}.`).length - 1).toBe(1);
    expect(screen).toMatch(
      /kept the conversation within the model's context \(≈3k tokens\): \d+ old tool results? replaced by a note/,
    );
  });

  // What grew a long session's memory by 0.4 MB a turn (bench/long-session.bench.ts): React's
  // development build records a performance.measure with the changed props of every render,
  // and Node keeps every measure until someone clears them. The bundle runs React's production
  // build, which records none.
  it('turns leave nothing in the performance timeline (no development build of React)', async () => {
    const { directory, env } = await scene.start([wide, { text: 'Answer 0.' }, { text: 'Answer 1.' }]);
    const database = join(directory, 'notes.sqlite');
    const db = new Database(database);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO notes (note) VALUES ('a'), ('b');");
    db.close();
    // Preloaded into the riskgate process: on exit it writes how many timeline entries it kept.
    const probe = join(directory, 'timeline-probe.mjs');
    const report = join(directory, 'timeline.json');
    writeFileSync(
      probe,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(performance.getEntries().map((entry) => entry.entryType + ':' + entry.name))));\n`,
    );
    const terminal = scene.open(`node --import ${probe} ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    for (let turn = 0; turn < 2; turn++) {
      terminal.type(`question ${turn}`, true);
      await terminal.waitFor(new RegExp(`Answer ${turn}\\.[\\s\\S]*Ask anything`));
    }
    terminal.key('C-d');
    await terminal.waitFor(/\[exited 0\]/);
    const entries = JSON.parse(readFileSync(report, 'utf8')) as string[];
    expect(entries.filter((entry) => entry.startsWith('measure:'))).toEqual([]);
  });
});
