import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Effect, judgeEffects } from '../src/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-judge-')));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
const context = { cwd: workspace, home };
const judge = (...effects: Effect[]) => judgeEffects(effects, context);
const inWorkspace = (path: string) => join(workspace, path);
const inHome = (path: string) => join(home, path);

beforeAll(() => {
  for (const directory of [join(home, '.ssh'), join(home, '.aws'), join(workspace, 'src'), join(workspace, 'keys')])
    mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(home, '.ssh', 'id_ed25519'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  writeFileSync(join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key = x\n');
  writeFileSync(inWorkspace('README.md'), '# hello\nA PRIVATE KEY is mentioned here in prose only.\n');
  writeFileSync(inWorkspace('src/a.ts'), 'export const a = 1;\n');
  writeFileSync(
    inWorkspace('keys/backup.txt'),
    '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n',
  );
  symlinkSync(join(home, '.aws', 'credentials'), inWorkspace('settings.ini'));
  execFileSync('mkfifo', [inWorkspace('pipe')]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('judgeEffects: reads of non-secret resources are whitelisted', () => {
  it.each<[string, Effect]>([
    ['a workspace file', { kind: 'read-path', path: inWorkspace('README.md') }],
    ['a workspace directory listing', { kind: 'list-path', path: inWorkspace('src') }],
    ['a recursive read of a tree without secrets', { kind: 'read-path', path: inWorkspace('src'), recursive: true }],
    ['a file that does not exist', { kind: 'read-path', path: inWorkspace('missing.txt') }],
    ['a glob that matches ordinary files', { kind: 'read-path', path: inWorkspace('src/*.ts'), pattern: true }],
    ['a plain environment variable', { kind: 'read-env', names: ['HOME', 'PATH'] }],
    ['a database table', { kind: 'read-db', object: 'orders' }],
    [
      'a GET to a public address',
      { kind: 'connect', host: '93.184.215.14', port: 443, scheme: 'https', method: 'GET' },
    ],
    [
      'a HEAD to a name resolved to a public address',
      { kind: 'connect', host: 'example.com', method: 'HEAD', addressClass: 'public' },
    ],
    ['a write to /dev/null (2>/dev/null)', { kind: 'write-path', path: '/dev/null' }],
  ])('%s', (_name, effect) => {
    const judgement = judge(effect);
    expect(judgement.whitelisted).toBe(true);
    expect(judgement.level).toBe('low');
    expect(judgement.knownDanger).toBe(false);
  });

  it('whitelists an empty list (nothing to do) and says so', () => {
    expect(judge()).toMatchObject({ whitelisted: true, reasons: ['does nothing riskgate needs to check'] });
  });
});

describe('judgeEffects: secrets, side effects and unknowns are never whitelisted', () => {
  it.each<[string, Effect, 'secret' | 'side-effect' | 'unknown', RegExp]>([
    [
      'a private key in ~/.ssh',
      { kind: 'read-path', path: inHome('.ssh/id_ed25519') },
      'secret',
      /reads ~\/\.ssh\/id_ed25519 \(SSH keys/,
    ],
    ['AWS credentials', { kind: 'read-path', path: inHome('.aws/credentials') }, 'secret', /AWS credentials/],
    [
      'a renamed private key, by content',
      { kind: 'read-path', path: inWorkspace('keys/backup.txt') },
      'secret',
      /private key \(by its content\)/,
    ],
    [
      'a symlink to a secret, by its target',
      { kind: 'read-path', path: inWorkspace('settings.ini') },
      'secret',
      /AWS credentials/,
    ],
    [
      'a glob that could reach ~/.ssh keys',
      { kind: 'read-path', path: inHome('.ss?/id_*'), pattern: true },
      'secret',
      /SSH keys/,
    ],
    [
      'a recursive read of a tree holding a key',
      { kind: 'read-path', path: workspace, recursive: true },
      'secret',
      /keys\/backup\.txt/,
    ],
    [
      'a recursive read of the home directory',
      { kind: 'read-path', path: home, recursive: true },
      'secret',
      /reads ~ and everything below it/,
    ],
    ['a listing of ~/.ssh', { kind: 'list-path', path: inHome('.ssh') }, 'secret', /lists ~\/\.ssh/],
    ['/etc/shadow', { kind: 'read-path', path: '/etc/shadow' }, 'secret', /password hashes/],
    [
      'the process environment through /proc',
      { kind: 'read-path', path: '/proc/self/environ' },
      'secret',
      /environment/,
    ],
    ['physical memory', { kind: 'read-path', path: '/dev/mem' }, 'secret', /physical memory/],
    ['a named pipe (blocks forever)', { kind: 'read-path', path: inWorkspace('pipe') }, 'side-effect', /named pipe/],
    ['/dev/zero (never ends)', { kind: 'read-path', path: '/dev/zero' }, 'side-effect', /never ends/],
    ['the whole environment', { kind: 'read-env', names: 'all' }, 'secret', /whole environment/],
    ['a secret-named variable', { kind: 'read-env', names: ['GITHUB_TOKEN'] }, 'secret', /GITHUB_TOKEN/],
    [
      'a secret database object',
      { kind: 'read-db', object: 'pg_authid', secret: 'password hashes' },
      'secret',
      /pg_authid/,
    ],
    [
      'a write in the workspace',
      { kind: 'write-path', path: inWorkspace('out.txt') },
      'side-effect',
      /writes out\.txt/,
    ],
    [
      'a write to a shell start-up file',
      { kind: 'write-path', path: inHome('.bashrc') },
      'side-effect',
      /shell start-up/,
    ],
    [
      'a write to a repository hook',
      { kind: 'write-path', path: inWorkspace('.git/hooks/pre-commit') },
      'side-effect',
      /hooks/,
    ],
    [
      'a write outside the workspace',
      { kind: 'write-path', path: join(root, 'elsewhere.txt') },
      'side-effect',
      /outside the workspace/,
    ],
    [
      'a delete',
      { kind: 'delete-path', path: inWorkspace('src'), recursive: true },
      'side-effect',
      /deletes src and everything below it/,
    ],
    ['a program run', { kind: 'run-program', program: 'python3' }, 'side-effect', /runs python3/],
    ['a POST', { kind: 'connect', host: '93.184.215.14', method: 'POST' }, 'side-effect', /sends POST/],
    [
      'a GET to loopback',
      { kind: 'connect', host: '127.0.0.1', port: 8080, method: 'GET' },
      'side-effect',
      /this machine/,
    ],
    [
      'a GET to a metadata service',
      { kind: 'connect', host: '169.254.169.254', method: 'GET' },
      'side-effect',
      /metadata/,
    ],
    [
      'a GET to IPv4-compatible loopback',
      { kind: 'connect', host: '[::7f00:1]', method: 'GET' },
      'side-effect',
      /this machine/,
    ],
    [
      'a GET to NAT64-wrapped metadata',
      { kind: 'connect', host: '64:ff9b::a9fe:a9fe', method: 'GET' },
      'side-effect',
      /metadata/,
    ],
    [
      'a GET carrying a credential',
      { kind: 'connect', host: '93.184.215.14', method: 'GET', carriesSecret: 'a bearer token' },
      'secret',
      /bearer token/,
    ],
    [
      'a GET to an unresolved name',
      { kind: 'connect', host: 'example.invalid', method: 'GET' },
      'unknown',
      /not resolved/,
    ],
    [
      'a connection without a method (nc)',
      { kind: 'connect', host: '93.184.215.14', port: 4444 },
      'side-effect',
      /connects to 93\.184\.215\.14:4444/,
    ],
    ['a process signal', { kind: 'control-process', detail: 'kills process 1234' }, 'side-effect', /kills/],
    ['a privilege change', { kind: 'change-privilege', detail: 'runs as root (sudo)' }, 'side-effect', /root/],
    [
      'a session change',
      { kind: 'change-session', detail: 'changes standard_conforming_strings' },
      'side-effect',
      /standard_conforming/,
    ],
    ['a lock', { kind: 'hold-lock', detail: 'takes an advisory lock' }, 'side-effect', /advisory/],
    [
      'unbounded memory',
      { kind: 'unbounded', resource: 'memory', detail: 'allocates a 1 GB blob' },
      'side-effect',
      /1 GB/,
    ],
    ['what could not be read', { kind: 'unknown', detail: 'init is not a command riskgate knows' }, 'unknown', /init/],
  ])('%s', (_name, effect, verdict, text) => {
    const judgement = judge(effect);
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.effects[0]?.verdict).toBe(verdict);
    expect(judgement.knownDanger).toBe(verdict !== 'unknown');
    expect(judgement.reasons.join('\n')).toMatch(text);
  });

  it('is whitelisted only when every effect is: one secret among reads spoils the lot', () => {
    const judgement = judge(
      { kind: 'read-path', path: inWorkspace('README.md') },
      { kind: 'read-path', path: inHome('.aws/credentials') },
    );
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.level).toBe('high');
  });

  it('takes a read whose severity the assessor raised off the whitelist (COPY FROM a server file)', () => {
    const judgement = judge({
      kind: 'read-path',
      path: '/etc/passwd',
      severity: 'high',
      note: 'COPY reads the server file /etc/passwd',
    });
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.knownDanger).toBe(true);
  });

  it('lets the assessor raise a level, never lower it', () => {
    expect(judge({ kind: 'write-path', path: inWorkspace('x'), severity: 'high' }).level).toBe('high');
    expect(judge({ kind: 'unknown', detail: 'x' }).level).toBe('medium');
    expect(judge({ kind: 'unknown', detail: 'x', severity: 'high' }).knownDanger).toBe(true);
  });

  it('lets the network policy open loopback for reads, never metadata', () => {
    const open = { ...context, network: { allowLoopback: true, allowPrivate: true } };
    expect(judgeEffects([{ kind: 'connect', host: '127.0.0.1', method: 'GET' }], open).whitelisted).toBe(true);
    expect(judgeEffects([{ kind: 'connect', host: '10.0.0.1', method: 'GET' }], open).whitelisted).toBe(true);
    expect(judgeEffects([{ kind: 'connect', host: '169.254.169.254', method: 'GET' }], open).whitelisted).toBe(false);
  });

  it('marks network reads and reads outside the workspace as untrusted content', () => {
    expect(judge({ kind: 'connect', host: '93.184.215.14', method: 'GET' }).untrusted).toMatch(/93\.184\.215\.14/);
    expect(judge({ kind: 'read-path', path: '/etc/hosts' }).untrusted).toMatch(/\/etc\/hosts/);
    expect(judge({ kind: 'read-path', path: inWorkspace('README.md') }).untrusted).toBeUndefined();
  });
});

describe('judgeEffects: a recursive read that follows symbolic links is judged where they lead', () => {
  beforeAll(() => {
    mkdirSync(inWorkspace('linked'), { recursive: true });
    mkdirSync(join(root, 'shared'), { recursive: true });
    // Open to others, as the directories above a person's workspace are (mkdtemp makes it private).
    chmodSync(root, 0o755);
    writeFileSync(join(root, 'shared', 'notes.txt'), 'hello\n');
    symlinkSync(join(home, '.ssh'), inWorkspace('linked/keys'));
    symlinkSync(join(root, 'shared'), inWorkspace('src/shared'));
  });

  it.each<[string, Effect]>([
    [
      'a read that follows a link to ~/.ssh',
      { kind: 'read-path', path: inWorkspace('linked'), recursive: true, followsLinks: true },
    ],
    [
      'a listing that follows a link to ~/.ssh',
      { kind: 'list-path', path: inWorkspace('linked'), recursive: true, followsLinks: true },
    ],
  ])('asks about %s', (_name, effect) => {
    const [judged] = judge(effect).effects;
    expect(judged?.verdict).toBe('secret');
    expect(judged?.text).toMatch(/symbolic link/);
  });

  it.each<[string, Effect]>([
    ['the same read that does not follow links', { kind: 'read-path', path: inWorkspace('linked'), recursive: true }],
    [
      'a read that follows a link to a harmless tree',
      { kind: 'read-path', path: inWorkspace('src'), recursive: true, followsLinks: true },
    ],
  ])('whitelists %s', (_name, effect) => {
    expect(judge(effect).effects[0]?.verdict).toBe('read');
  });
});
