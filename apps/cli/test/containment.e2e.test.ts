import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import { probeSandbox } from '@riskgate/tools-command';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// The built CLI, headless, in chat mode, with a scripted model: what reaches the model and
// what the person is told about the sandbox.
const KEY = 'sk-proj-TheRealKeyOfThePerson0123456789abcdef';
let server: ScriptedModelServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

async function setup(replies: ScriptedReply[], userConfig?: unknown) {
  directory = mkdtempSync(join(tmpdir(), 'riskgate-containment-'));
  const workspace = join(directory, 'workspace');
  mkdirSync(workspace);
  mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
  if (userConfig !== undefined)
    writeFileSync(join(directory, 'config', 'riskgate', 'config.json'), JSON.stringify(userConfig));
  server = await startScriptedModelServer(replies);
  const env = {
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: KEY,
    RISKGATE_MODEL: 'scripted-model',
    XDG_CONFIG_HOME: join(directory, 'config'),
    XDG_STATE_HOME: join(directory, 'state'),
    XDG_CACHE_HOME: join(directory, 'cache'),
  };
  return { workspace, env, server };
}

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: 'execute_command', arguments: { command: text, ...extra } }],
});
/** Every tool result the model was sent, over the wire. */
const sentToModel = (scripted: ScriptedModelServer) =>
  JSON.stringify(scripted.requests.map((request) => request.body.messages));

describe('containment through the built CLI', () => {
  it('an approved printenv OPENAI_API_KEY prints nothing riskgate holds', async () => {
    const {
      workspace,
      env,
      server: scripted,
    } = await setup([
      command('printenv OPENAI_API_KEY; env | grep -c API_KEY', { risk_level: 'high' }),
      { text: 'ok' },
    ]);
    const result = await runCli(['-p', '--yes', 'show the key'], { env, cwd: workspace });
    expect(result.code).toBe(0);
    expect(sentToModel(scripted)).not.toContain(KEY);
    // printenv finds nothing (exit 1) and no variable named like an API key is left.
    expect(sentToModel(scripted)).toMatch(/"content":"0\\n\[exit code 1/);
  });

  // A file whose content holds a secret is asked about before it is read (the whole file is
  // judged, a token at the end of a long log too); output no file holds as such — a token the
  // command assembles — reaches the output guard.
  const assembled = "printf 'deploy with glpat-%s\\n' Zx9Qw8Er7Ty6Ui5Op4As";
  it('a whitelisted command whose output holds a token sends the model a redacted result', async () => {
    const token = 'glpat-Zx9Qw8Er7Ty6Ui5Op4As';
    const { workspace, env, server: scripted } = await setup([command(assembled), { text: 'ok' }]);
    const result = await runCli(['-p', '--output', 'stream-json', 'read the log'], { env, cwd: workspace });
    expect(sentToModel(scripted)).not.toContain(token);
    expect(sentToModel(scripted)).toContain('[withheld: a secret (gitlab-pat) — shown to the person only]');
    // The person's copy (the tool-result event) has it, and says what was withheld.
    const event = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((line) => line.type === 'tool-result');
    expect(event).toMatchObject({ forPerson: expect.stringContaining(token) });
  });

  it('headless text shows the person the original of a withheld result, with the mark', async () => {
    const token = 'glpat-Zx9Qw8Er7Ty6Ui5Op4As';
    const { workspace, env, server: scripted } = await setup([command(assembled), { text: 'ok' }]);
    const result = await runCli(['-p', 'read the log'], { env, cwd: workspace });
    expect(sentToModel(scripted)).not.toContain(token);
    expect(result.stderr).toContain(`deploy with ${token}`);
    expect(result.stderr).toContain('[withheld from the model: a secret (gitlab-pat)]');
  });

  it('asks before a cat of a file that holds a private key (the assessor reads the content)', async () => {
    const { workspace, env, server: scripted } = await setup([command('cat notes.txt'), { text: 'ok' }]);
    writeFileSync(
      join(workspace, 'notes.txt'),
      'todo\n-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretKeyBody\n-----END RSA PRIVATE KEY-----\n',
    );
    const result = await runCli(['-p', 'read my notes'], { env, cwd: workspace });
    expect(result.code).toBe(2);
    expect(sentToModel(scripted)).not.toContain('MIIEsecretKeyBody');
  });

  it('says once, on stderr, when the sandbox is off, and runs the command all the same', async () => {
    const { workspace, env } = await setup([command('echo hello'), { text: 'ok' }], { commands: { sandbox: 'off' } });
    const result = await runCli(['-p', 'say hello'], { env, cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/sandbox off \(commands\.sandbox\)/g)).toHaveLength(1);
  });

  it('says nothing about the sandbox when it works', async () => {
    if (!(await probeSandbox()).available) return;
    const { workspace, env } = await setup([command('echo hello'), { text: 'ok' }]);
    const result = await runCli(['-p', 'say hello'], { env, cwd: workspace });
    expect(result.stderr).not.toMatch(/sandbox/);
  });

  it('with commands.sandbox "always", a command run on the model\'s "low" cannot write the workspace either', async () => {
    if (!(await probeSandbox()).available) return;
    const {
      workspace,
      env,
      server: scripted,
    } = await setup([command('ls; touch made.txt', { risk_level: 'low' }), { text: 'ok' }], {
      commands: { sandbox: 'always' },
    });
    const result = await runCli(['-p', 'list'], { env, cwd: workspace });
    expect(result.code).toBe(0);
    expect(sentToModel(scripted)).toMatch(/Read-only file system/);
  });
});
