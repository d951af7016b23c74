import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandSpecs, type optionsFromHelp } from '../src/completion-command.js';
import { helpFor } from '../src/help-text.js';
import { runCli } from './run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'riskgate-help-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
// No config, no model, no database from this machine's environment: only what a test passes.
const env = {
  XDG_CONFIG_HOME: join(folder, 'config'),
  XDG_STATE_HOME: join(folder, 'state'),
  XDG_CACHE_HOME: join(folder, 'cache'),
  RISKGATE_MODEL: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  DATABASE_URL: '',
};

describe('every command has its own --help', () => {
  it.each([
    ['sql', /^riskgate sql — /],
    ['chat', /^riskgate — the assistant in chat mode/],
    ['doctor', /^riskgate doctor — /],
    ['demo', /^riskgate demo — /],
    ['demo-db', /^riskgate demo-db — /],
    ['completion', /^riskgate completion — /],
    ['assess', /^riskgate assess <tool>/],
    ['mcp', /^riskgate mcp — /],
    ['trust', /^riskgate trust — /],
    ['undo', /^riskgate undo — /],
  ])('riskgate %s --help, -h and "riskgate help %s" print the same part and exit 0', async (command, start) => {
    const long = await runCli([command, '--help'], { env, cwd: folder });
    expect(long).toMatchObject({ code: 0, stderr: '' });
    expect(long.stdout).toMatch(start);
    expect((await runCli([command, '-h'], { env, cwd: folder })).stdout).toBe(long.stdout);
    expect((await runCli(['help', command], { env, cwd: folder })).stdout).toBe(long.stdout);
  });

  it('the general help names every command, and "riskgate help" is it', async () => {
    const general = await runCli(['--help'], { env, cwd: folder });
    for (const command of ['sql', 'assess', 'mcp', 'demo', 'demo-db', 'trust', 'doctor', 'undo', 'completion'])
      expect(general.stdout).toContain(`riskgate ${command}`);
    expect((await runCli(['help'], { env, cwd: folder })).stdout).toBe(general.stdout);
  });
});

/** A value an option accepts, so the parser gets past it: one of its words, or any text. */
function valueFor(takes: ReturnType<typeof optionsFromHelp>[number]['takes']): string[] {
  if (takes.kind === 'flag') return [];
  if (takes.kind === 'words') return [takes.words[0]!];
  return [join(folder, 'value')];
}

describe('--help tells the truth: every option it lists is one the command accepts', () => {
  const rows = commandSpecs()
    .filter((command) => command.name !== 'help')
    .flatMap((command) =>
      command.options
        .filter((option) => option.long !== '--help' && option.long !== '--listen')
        .map((option) => [command.name || '(chat)', option.long, valueFor(option.takes)] as const),
    );

  it('lists the options of every command (none is missed by the reader)', () => {
    const byName = new Map(rows.map(([command, option]) => [`${command} ${option}`, true]));
    for (const expected of [
      '(chat) --yolo',
      'sql --db',
      'assess --jsonl',
      'assess --no-sandbox',
      'mcp --listen',
      'mcp --commands',
      'doctor --base-url',
      'doctor --db',
      'demo --mode',
      'trust --revoke',
      'trust --list',
    ])
      if (expected !== 'mcp --listen') expect(byName.has(expected), expected).toBe(true);
    expect(rows.length).toBeGreaterThan(45);
  });

  it.each(rows)('riskgate %s %s', async (command, option, value) => {
    const args = [...(command === '(chat)' ? [] : [command]), option, ...value];
    const result = await runCli(args, { env, cwd: folder, input: '' });
    expect(result.stderr).not.toMatch(/Unknown option/);
    expect(result.stderr).not.toMatch(/internal error/);
  });

  it("an option a command does not have is refused by name, with the command's own help named", async () => {
    for (const command of ['sql', 'doctor', 'demo']) {
      const result = await runCli([command, '--frobnicate'], { env, cwd: folder });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("Unknown option '--frobnicate'");
      expect(result.stderr).toContain(`riskgate ${command} --help`);
    }
  });
});

/** Completes the words as bash does when Tab is pressed after them, with the script riskgate printed. */
function bashCompletes(script: string, words: readonly string[]): string[] {
  const file = join(folder, 'completion.bash');
  writeFileSync(file, script);
  const quoted = words.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const output = execFileSync(
    'bash',
    [
      '--norc',
      '-c',
      `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _riskgate; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', cwd: folder },
  );
  return output.split('\n').filter((line) => line !== '');
}

describe('riskgate completion', () => {
  it.each([
    [
      ['riskgate', 'd'],
      ['demo', 'demo-db', 'doctor'],
    ],
    [
      ['riskgate', 'sql', '--mo'],
      ['--mode', '--model'],
    ],
    [
      ['riskgate', 'sql', '--mode', ''],
      ['strict', 'smart', 'guarded'],
    ],
    [
      ['riskgate', 'assess', '--mode', ''],
      ['strict', 'smart', 'guarded', 'yolo'],
    ],
    [
      ['riskgate', 'assess', '--dialect', ''],
      ['sqlite', 'postgres', 'mysql'],
    ],
    [
      ['riskgate', 'assess', 'exe'],
      ['execute_sql', 'execute_command'],
    ],
    [
      ['riskgate', '--output-format', ''],
      ['text', 'json', 'stream-json'],
    ],
    [
      ['riskgate', 'completion', ''],
      ['bash', 'zsh', 'fish'],
    ],
    [['riskgate', 'mcp', '--l'], ['--listen']],
    [['riskgate', 'doctor', '--b'], ['--base-url']],
    [
      ['riskgate', 'trust', '--'],
      ['--revoke', '--list'],
    ],
    [['riskgate', 'mcp', '--mode', 'g'], ['guarded']],
  ])('bash: %j completes to %j', async (words, expected) => {
    const { stdout } = await runCli(['completion', 'bash'], { env, cwd: folder });
    expect(bashCompletes(stdout, words).sort()).toEqual([...expected].sort());
  });

  it('bash: a file option completes files, and yolo is never offered to --mode outside assess', async () => {
    writeFileSync(join(folder, 'shop.sqlite'), '');
    const { stdout } = await runCli(['completion', 'bash'], { env, cwd: folder });
    expect(bashCompletes(stdout, ['riskgate', 'sql', '--db', 'sho'])).toEqual(['shop.sqlite']);
    for (const command of ['sql', 'chat', 'mcp', 'doctor', 'demo'])
      expect(bashCompletes(stdout, ['riskgate', command, '--mode', ''])).not.toContain('yolo');
  });

  it.each([
    ['zsh', ['-n']],
    ['fish', ['--no-execute']],
  ])('%s: the script parses in that shell', async (shell, check) => {
    const { code, stdout } = await runCli(['completion', shell], { env, cwd: folder });
    expect(code).toBe(0);
    const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
    if (!found) {
      // CI installs both shells (.ci/run); a developer's machine may lack them.
      expect(process.env.CI, `${shell} is missing where CI runs`).not.toBe('true');
      return;
    }
    const file = join(folder, `completion.${shell}`);
    writeFileSync(file, stdout);
    const result = spawnSync(shell, [...check, file], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fish: every option of every command is in the script', async () => {
    const { stdout } = await runCli(['completion', 'fish'], { env, cwd: folder });
    for (const command of commandSpecs())
      for (const option of command.options) expect(stdout).toContain(`-l ${option.long.slice(2)}`);
  });

  it('an unknown shell is refused by name', async () => {
    const result = await runCli(['completion', 'ksh'], { env, cwd: folder });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('bash, zsh or fish (got ksh)');
  });
});

describe('helpFor', () => {
  it('gives the general help for no command and an unknown one', () => {
    expect(helpFor(undefined)).toBe(helpFor('frobnicate'));
    expect(helpFor(undefined)).toMatch(/^riskgate \d/);
  });
});
