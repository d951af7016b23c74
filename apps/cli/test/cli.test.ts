import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './run-cli.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const run = promisify(execFile);

const riskgate = (args: string[], input?: string) => runCli(args, input === undefined ? {} : { input });

describe('riskgate --version and --help', () => {
  it('prints the package version', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--version']);
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('tells the truth in --help: the assess command, its options and the tools', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--help']);
    for (const word of [
      'assess',
      '--jsonl',
      '--mode',
      '--dialect',
      '--db',
      '--allow',
      'execute_sql',
      'describe_schema',
      'execute_command',
      'file_operations',
      'http_request',
      'demo-db',
      'trust',
      '--revoke',
      '--config',
    ]) {
      expect(stdout).toContain(word);
    }
  });

  it('rejects an unknown command with exit 1', async () => {
    const result = await riskgate(['frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown command "frobnicate"/);
  });
});

describe('riskgate demo-db', () => {
  const cache = mkdtempSync(join(tmpdir(), 'riskgate-cache-'));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('builds the demo database in the XDG cache on first use and prints its path', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'demo-db'], {
      env: { ...process.env, XDG_CACHE_HOME: cache },
    });
    const path = stdout.trim();
    expect(path).toBe(join(cache, 'riskgate', 'demo-shop-v1.sqlite'));
    const database = new Database(path, { readonly: true });
    expect(database.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 2000 });
    database.close();
  });

  it('answers a question about the demo through the gate', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'demo-db'], {
      env: { ...process.env, XDG_CACHE_HOME: cache },
    });
    const result = await riskgate([
      'assess',
      '--db',
      stdout.trim(),
      '--json',
      'execute_sql',
      '{"sql":"DELETE FROM orders WHERE status = \'cancelled\'"}',
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'confirm', level: 'medium' });
  });
});

describe('riskgate assess <tool> <json>', () => {
  it('asks about a DROP hidden behind a SELECT, and says why', async () => {
    const result = await riskgate(['assess', 'execute_sql', '{"sql":"SELECT 1; DROP TABLE orders"}']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/CONFIRM/);
    expect(result.stdout).toMatch(/statement 2: DROP TABLE removes orders/);
  });

  it('lets a whitelisted SELECT run', async () => {
    const result = await riskgate(['assess', 'execute_sql', '{"sql":"select * from orders"}', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'execute',
      source: 'whitelist',
      level: 'low',
      whitelisted: true,
    });
  });

  it('takes risk_level from the arguments as the model’s, and guarded mode overrides a low rating of a danger', async () => {
    const smart = await riskgate([
      'assess',
      'execute_sql',
      '{"sql":"DELETE FROM orders","risk_level":"low"}',
      '--json',
    ]);
    expect(JSON.parse(smart.stdout)).toMatchObject({ decision: 'execute', source: 'llm', level: 'low' });
    const guarded = await riskgate([
      'assess',
      'execute_sql',
      '{"sql":"DELETE FROM orders","risk_level":"low"}',
      '--json',
      '--mode',
      'guarded',
    ]);
    expect(JSON.parse(guarded.stdout)).toMatchObject({ decision: 'confirm', source: 'guard', level: 'high' });
  });

  it('never lets a command rule cover more than it says', async () => {
    const chained = await riskgate([
      'assess',
      'execute_command',
      '{"command":"git log; rm -rf ~"}',
      '--json',
      '--allow',
      'execute_command(git log *)',
    ]);
    expect(JSON.parse(chained.stdout)).toMatchObject({ decision: 'confirm', source: 'default' });
    const plain = await riskgate([
      'assess',
      'execute_command',
      '{"command":"git log -p > /tmp/x"}',
      '--json',
      '--allow',
      'execute_command(git log *)',
    ]);
    expect(JSON.parse(plain.stdout)).toMatchObject({ decision: 'confirm' });
    const exact = await riskgate([
      'assess',
      'execute_command',
      '{"command":"git log -p"}',
      '--json',
      '--mode',
      'strict',
      '--allow',
      'execute_command(git log *)',
    ]);
    expect(JSON.parse(exact.stdout)).toMatchObject({ decision: 'confirm', source: 'mode' });
    const deny = await riskgate([
      'assess',
      'execute_command',
      '{"command":"echo $(rm -rf ~)","risk_level":"low"}',
      '--json',
      '--deny',
      'execute_command(rm *)',
    ]);
    expect(JSON.parse(deny.stdout)).toMatchObject({ decision: 'deny', source: 'rule' });
  });

  it('applies rules given as flags', async () => {
    const allowed = await riskgate([
      'assess',
      'execute_sql',
      '{"sql":"INSERT INTO t VALUES (1)"}',
      '--json',
      '--allow',
      'execute_sql(INSERT INTO t *)',
    ]);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ decision: 'execute', source: 'rule' });
    const denied = await riskgate([
      'assess',
      'execute_sql',
      '{"sql":"SELECT 1; DROP TABLE t"}',
      '--json',
      '--deny',
      'execute_sql(DROP *)',
    ]);
    expect(JSON.parse(denied.stdout)).toMatchObject({ decision: 'deny', source: 'rule' });
  });

  it.each([
    [['assess', 'nope', '{}'], /unknown tool "nope"/],
    [['assess', 'execute_sql', '{not json'], /not valid JSON/],
    [['assess', 'execute_sql', '{}', '--mode', 'reckless'], /--mode must be one of/],
    [['assess', 'execute_sql', '{}', '--dialect', 'oracle'], /--dialect must be one of/],
    [['assess', 'execute_sql', '{}', '--allow', 'execute_sql('], /must end with/],
    [['assess', '--db', '/nonexistent/x.sqlite', 'execute_sql', '{"sql":"SELECT 1"}'], /no SQLite database/],
  ])('exits 1 with a clear message: %j', async (args, message) => {
    const result = await riskgate(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  describe('with --db, SQLite gives its own verdict', () => {
    const directory = mkdtempSync(join(tmpdir(), 'riskgate-cli-'));
    const path = join(directory, 'shop.sqlite');
    const database = new Database(path);
    database.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY)');
    database.close();
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('whitelists SQLite-only syntax it can prepare', async () => {
      const result = await riskgate([
        'assess',
        '--db',
        path,
        '--json',
        'execute_sql',
        '{"sql":"SELECT * FROM [orders] LIMIT 1, 2"}',
      ]);
      expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'execute', source: 'whitelist' });
    });

    it('does not whitelist a table that is not there', async () => {
      const result = await riskgate([
        'assess',
        '--db',
        path,
        '--json',
        'execute_sql',
        '{"sql":"SELECT * FROM missing_table"}',
      ]);
      expect(JSON.parse(result.stdout).reasons.join()).toMatch(/no such table/);
    });
  });
});

describe('riskgate assess --jsonl', () => {
  const lines = [
    '{"tool":"execute_sql","args":{"sql":"SELECT * FROM orders"}}',
    'this is not json',
    '{"tool":"execute_sql","args":{"sql":"DELETE FROM orders"},"dialect":"postgres"}',
    '',
    '{"tool":"no_such_tool","args":{}}',
    '{"tool":"execute_sql","args":{"sql":"DROP TABLE t","risk_level":"low"}}',
    '[1, 2, 3]',
    '{"tool":"execute_sql","args":{"sql":"DROP TABLE t","risk_level":"low"},"mode":"strict"}',
    '{"tool":"execute_sql","args":{"sql":42}}',
    '{"tool":"execute_sql","args":{"sql":"SELECT 1"},"mode":"bogus"}',
    '{"tool":"execute_sql","args":{"sql":"SHOW TABLES"},"dialect":"mysql"}',
    '{"tool":"execute_sql","args":{"sql":"SELECT 1","risk_level":"maybe"}}',
    '{"tool":"describe_schema","args":{}}',
    '{"tool": "execute_sql", "args": {"sql": "SELECT 1; DROP TABLE t"}}\r',
    '{"tool":"execute_command","args":{"command":"git log --oneline | head"}}',
    '{"tool":"execute_command","args":{"command":"ls; rm -rf ~"}}',
    '{"tool":"file_operations","args":{"operation":"read","path":"README.md"}}',
    '{"tool":"file_operations","args":{"operation":"read","path":".env"}}',
    '{"tool":"file_operations","args":{"operation":"write","path":"x.txt","content":"hi"}}',
    '{"tool":"http_request","args":{"method":"GET","url":"http://0x7f.1/"}}',
    '{"tool":"http_request","args":{"method":"POST","url":"http://169.254.169.254/latest"}}',
  ];

  it('answers every line with exactly one line, in order, whatever the line holds', async () => {
    const result = await riskgate(['assess', '--jsonl'], `${lines.join('\n')}\n`);
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers).toHaveLength(lines.length);
    expect(answers[0]).toEqual({
      decision: 'execute',
      source: 'whitelist',
      level: 'low',
      whitelisted: true,
      reasons: expect.any(Array),
      why: 'on the whitelist of safe operations',
      findings: expect.any(Array),
      notes: [],
      effects: expect.any(Array),
    });
    expect(answers[1].error).toMatch(/malformed JSON/);
    expect(answers[2]).toMatchObject({ decision: 'confirm', source: 'default', level: 'high', whitelisted: false });
    expect(answers[2].reasons).toContain('DELETE without WHERE removes every row of orders');
    expect(answers[2].findings).toContain('DELETE without WHERE removes every row of orders');
    expect(answers[2].why).toBe('not on the whitelist, and the model gave no risk_level');
    expect(answers[3].error).toMatch(/empty line/);
    expect(answers[4].error).toMatch(/unknown tool "no_such_tool"/);
    expect(answers[5]).toMatchObject({ decision: 'execute', source: 'llm', level: 'low' });
    expect(answers[6].error).toMatch(/invalid request/);
    expect(answers[7]).toMatchObject({ decision: 'confirm', source: 'mode' });
    expect(answers[8]).toMatchObject({ decision: 'deny', source: 'invalid', level: null });
    expect(answers[9].error).toMatch(/mode/);
    expect(answers[10]).toMatchObject({ decision: 'execute', source: 'whitelist' });
    expect(answers[11]).toMatchObject({ decision: 'execute', source: 'whitelist' });
    expect(answers[11].reasons.join()).toMatch(/"maybe" is not one of low, medium, high; treated as absent/);
    expect(answers[12]).toMatchObject({ decision: 'execute', source: 'whitelist' });
    expect(answers[13]).toMatchObject({ decision: 'confirm', source: 'default' });
    expect(answers[14]).toMatchObject({ decision: 'execute', source: 'whitelist' });
    expect(answers[15]).toMatchObject({ decision: 'confirm', source: 'default', level: 'high' });
    expect(answers[15].reasons.join()).toMatch(/deletes ~ and everything below it/);
    expect(answers[16]).toMatchObject({ decision: 'execute', source: 'whitelist' });
    expect(answers[17]).toMatchObject({ decision: 'confirm', level: 'high' });
    expect(answers[17].reasons.join()).toMatch(/environment file/);
    expect(answers[18]).toMatchObject({ decision: 'confirm', source: 'default', level: 'medium' });
    expect(answers[19]).toMatchObject({ decision: 'confirm', source: 'default' });
    expect(answers[19].reasons.join()).toMatch(/loopback/);
    expect(answers[20]).toMatchObject({ decision: 'confirm', level: 'high' });
    expect(answers[20].reasons.join()).toMatch(/metadata/);
    for (const answer of answers) {
      expect(Object.keys(answer).sort()).toEqual(
        'error' in answer
          ? ['error']
          : ['decision', 'effects', 'findings', 'level', 'notes', 'reasons', 'source', 'whitelisted', 'why'],
      );
    }
  });

  it('answers a last line without a trailing newline, and nothing for empty input', async () => {
    const one = await riskgate(['assess', '--jsonl'], '{"tool":"execute_sql","args":{"sql":"SELECT 1"}}');
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    const none = await riskgate(['assess', '--jsonl'], '');
    expect(none.stdout).toBe('');
    expect(none.code).toBe(0);
  });

  it('keeps up with a large stream without losing or reordering lines', async () => {
    const many = Array.from({ length: 2000 }, (_, index) =>
      index % 3 === 0
        ? `{"tool":"execute_sql","args":{"sql":"SELECT ${index}"}}`
        : index % 3 === 1
          ? `garbage ${index}`
          : `{"tool":"execute_sql","args":{"sql":"DELETE FROM t${index}"}}`,
    );
    const result = await riskgate(['assess', '--jsonl'], `${many.join('\n')}\n`);
    const answers = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers).toHaveLength(2000);
    answers.forEach((answer, index) => {
      if (index % 3 === 0) expect(answer.decision).toBe('execute');
      else if (index % 3 === 1) expect(answer.error).toMatch(/malformed/);
      else expect(answer.reasons).toContain(`DELETE without WHERE removes every row of t${index}`);
    });
  });
});
