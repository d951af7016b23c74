import { describe, expect, it } from 'vitest';
import { expandBraces, patternMayReach } from '../src/index.js';
import { expand, judge, read, useKnowledgeFixture } from './knowledge-fixture.js';

/** Attack and safe tables for patterns, trees and plain reads, and the glob-overlap function itself. */
useKnowledgeFixture();

describe('attacks: patterns that may reach a secret', () => {
  const rows: [string, RegExp][] = [
    ['~/.ss?/id_*', /SSH/],
    ['~/.ssh/id_*', /SSH/],
    ['~/.ssh/*', /SSH/],
    ['~/.[s]sh/id_rsa', /SSH/],
    ['~/.*/credentials', /AWS|credentials/],
    ['~/.a*/*', /AWS/],
    ['~/.*_history', /history/],
    ['~/.*hist*', /history/],
    ['~/.config/*/hosts.yml', /GitHub/],
    ['/proc/*/environ', /environment/],
    ['/proc/[0-9]*/environ', /environment/],
    ['/proc/*/task/*/environ', /environment/],
    ['/etc/shadow*', /password hashes/],
    ['/etc/*shadow*', /password hashes/],
    ['/etc/ssh/*key', /host keys/],
    ['/dev/sd?', /raw disk/],
    ['/dev/nvme*', /raw disk/],
    ['/run/secrets/*', /container secrets/],
    ['.env*', /environment file/],
    ['certs/*.pem', /private key/],
    ['*.txt', /private key/],
    ['keys/*', /SSH key|key/],
    ['*', /private key|AWS|key/],
  ];
  it.each(rows)('read %s', (pattern, reason) => {
    const judgement = read(pattern, { pattern: true });
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
});

describe('attacks: recursive reads of trees that hold secrets', () => {
  const rows: [string, boolean, RegExp][] = [
    ['~', false, /SSH|AWS|history/],
    ['~', true, /private key \(by its content/],
    ['.', false, /environment file|private key/],
    ['.', true, /private key|named pipe|AWS credentials/],
    ['keys', true, /SSH key|private key/],
    ['pipes', false, /named pipe/],
    ['/etc', false, /boto|password hashes|host keys|sudo/],
    ['/run', false, /secrets|credentials/],
    ['/proc', false, /environment|memory/],
    ['/', true, /boto|password hashes|memory|environment/],
  ];
  it.each(rows)('recursive read of %s (skips hidden: %s)', (path, skipsHidden, reason) => {
    const judgement = read(path, { recursive: true, skipsHidden });
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });
  it('a list of a secret directory asks', () => {
    for (const path of ['~/.ssh', '~/.aws', '~/.gnupg', '/run/secrets', 'link-dir']) {
      expect(judge({ kind: 'list-path', path: expand(path) }).whitelisted, path).toBe(false);
    }
  });
});

describe('safe: ordinary reads stay whitelisted', () => {
  const rows: string[] = [
    'README.md',
    'docs/tls.md',
    'docs/example.md',
    'package.json',
    'tsconfig.json',
    'src/index.ts',
    'src/keys.ts',
    'src/credentials/index.ts',
    'src/secret-santa.ts',
    '.env.example',
    '.env.sample',
    '.env.template',
    'plain/.npmrc',
    'plain/settings.xml',
    'plain/.docker/config.json',
    'certs/ca.pem',
    'certs/ca.crt',
    'keys/id_rsa.pub',
    '.gitignore',
    '.github/workflows/ci.yml',
    'Cargo.toml',
    'docs/credentials.md',
    'tokenizer.py',
    'link-safe',
    'missing-file.txt',
    '~/.ssh/id_rsa.pub',
    '~/.ssh/known_hosts',
    '/etc/hosts',
    '/etc/os-release',
    '/etc/passwd',
    '/etc/hostname',
    '/etc/resolv.conf',
    '/etc/group',
    '/proc/cpuinfo',
    '/proc/meminfo',
    '/proc/version',
    '/proc/loadavg',
    '/proc/self/status',
    '/dev/null',
  ];
  it.each(rows)('read %s', (path) => {
    const judgement = read(path);
    expect(judgement.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^only reads/)]));
    expect(judgement.whitelisted).toBe(true);
  });
  it.each(['src', 'docs', 'certs', '.', '~/.cargo/bin'])('list %s', (path) => {
    expect(judge({ kind: 'list-path', path: expand(path) }).whitelisted).toBe(true);
  });
  it.each([
    'src/*.ts',
    'docs/*',
    'docs/*.md',
    'plain/*',
    '~/.cargo/bin/*',
    '~/.ssh/*.pub',
    '/etc/host*',
    '/proc/cpu*',
  ])('pattern %s', (pattern) => {
    expect(read(pattern, { pattern: true }).whitelisted).toBe(true);
  });
  it.each(['src', 'docs'])('recursive read of %s', (path) => {
    expect(read(path, { recursive: true }).whitelisted).toBe(true);
  });
});

describe('patternMayReach: could a bash glob name a path the table lists?', () => {
  const H = '/home/u';
  const rows: [string, string | null][] = [
    ['/home/u/.ss?/id_*', 'SSH'],
    ['/home/u/.ssh/*', 'SSH'],
    ['/home/u/.s*/*', 'SSH'],
    ['/home/u/.*/*', 'SSH'],
    ['/home/u/.[a-z]sh/config', 'SSH'],
    ['/home/u/.*/credentials', 'AWS'],
    ['/home/u/.a?s/config', 'AWS'],
    ['/home/u/.config/*/hosts.yml', 'GitHub'],
    ['/home/u/.config/g*', 'Google Cloud'],
    ['/home/u/.local/share/fish/fish_*', 'history'],
    ['/home/u/.local/share/fish/*', 'history'],
    ['/proc/*/environ', 'environment'],
    ['/proc/[0-9]*/environ', 'environment'],
    ['/proc/self/task/*/environ', 'environment'],
    ['/proc/*/root/etc/passwd', 'root'],
    ['/etc/shad*', 'password hashes'],
    ['/etc/*shadow*', 'password hashes'],
    ['/etc/ssh/ssh_host_*', 'host keys'],
    ['/run/secrets/*', 'container secrets'],
    ['/var/run/secrets/*/*/token', 'Kubernetes'],
    ['/dev/sd?', 'raw disk'],
    ['/dev/nvme*', 'raw disk'],
    ['/dev/m?m', 'physical memory'],
    ['/*/shadow', 'password hashes'],
    ['/ro*/.ssh', 'root'],
    // bash's `*` does not match a leading dot: these cannot reach dotfiles
    ['/home/u/*/credentials', null],
    ['/home/u/*', null],
    ['/home/u/notes/*', null],
    ['/etc/host*', null],
    ['/etc/os-*', null],
    ['/proc/cpu*', null],
    ['/proc/self/stat*', null],
    ['/usr/share/doc/*', null],
    ['/dev/null*', null],
  ];
  it.each(rows)('%s → %s', (pattern, what) => {
    const facts = patternMayReach(pattern, { home: H }).filter((fact) => fact.class !== 'machine');
    if (what === null) expect(facts).toEqual([]);
    else expect(facts.map((fact) => fact.what).join('; ')).toMatch(new RegExp(what));
  });

  it('expands brace groups that hold a slash into whole rows', () => {
    expect(expandBraces('~/.{a,b/c}/x')).toEqual(['~/.a/x', '~/.b/c/x']);
    expect(expandBraces('/etc/{shadow,gshadow}{,-}')).toEqual([
      '/etc/shadow',
      '/etc/shadow-',
      '/etc/gshadow',
      '/etc/gshadow-',
    ]);
    expect(expandBraces('.env.!(example|sample)')).toEqual(['.env.!(example|sample)']);
  });
});

describe('the home is private outside the workspace', () => {
  it.each([
    '~/.config/psi/profiles/default/accounts.xml',
    '~/other-project/README.md',
    '~/notes/todo.txt',
    '~/.ssh-notes.txt',
    '~',
  ])('read %s asks, with the reason', (path) => {
    const judgement = read(path);
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.knownDanger).toBe(true);
    // Found by its content or only by the home rule: either way it asks.
    expect(judgement.reasons.join('\n')).toMatch(
      /outside the workspace in your home \(private unless allowlisted\)|by its content/,
    );
  });
  it('names the rule when nothing else knows the file', () => {
    expect(read('~/other-project/README.md').reasons).toContain(
      'reads ~/other-project/README.md, outside the workspace in your home (private unless allowlisted)',
    );
  });
  it('finds a password store nobody named by its content too', () => {
    expect(read('~/.msmtprc').reasons.join('\n')).toMatch(/saved password/);
  });
  it.each(['~/notes', '~', '~/.config'])('list %s asks', (path) => {
    expect(judge({ kind: 'list-path', path: expand(path) }).whitelisted).toBe(false);
  });
  it.each(['~/.*rc', '~/*/README.md', '~/.ssh/*', '~/.config/*/*/*/accounts.xml'])('pattern %s asks', (pattern) => {
    expect(read(pattern, { pattern: true }).whitelisted).toBe(false);
  });
  it('a recursive read of a directory that holds the home asks', () => {
    expect(read(expand('~/..'), { recursive: true }).reasons.join('\n')).toMatch(/private|SSH|AWS/);
  });
  it.each(['~/.ssh/id_rsa.pub', '~/.ssh/known_hosts', '~/.cargo/bin/rg'])('read %s on the allowlist runs', (path) => {
    expect(read(path).whitelisted).toBe(true);
  });
});
