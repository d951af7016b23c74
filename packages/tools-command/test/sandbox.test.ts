import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bubblewrapArguments,
  describeBounds,
  hiddenPaths,
  probeSandbox,
  runCommand,
  splitHostReader,
} from '../src/index.js';

// Outside /tmp on purpose: the sandbox empties /tmp, which would make every "cannot see" pass for free.
const root = mkdtempSync('/var/tmp/riskgate-sandbox-');
const home = join(root, 'home');
const workspace = join(root, 'workspace');
const sandboxWorks = (await probeSandbox()).available;
if (process.env.CI !== undefined && !sandboxWorks) throw new Error('CI must run the real sandbox: install bubblewrap');

const originalHome = process.env.HOME;
let loopback: Server;
let loopbackHits = 0;
let unixSocket: Server;
let unixHits = 0;
let victim: ChildProcess;

beforeAll(async () => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-ssh\n');
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key = secret-aws\n');
  writeFileSync(join(home, '.netrc'), 'machine example.com password secret-netrc\n');
  writeFileSync(join(home, '.pgpass'), '*:*:*:*:secret-pgpass\n');
  mkdirSync(join(home, '.config', 'riskgate'), { recursive: true });
  writeFileSync(join(home, '.config', 'riskgate', 'config.json'), '{"apiKey":"secret-config"}\n');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'plain notes\n');
  writeFileSync(join(workspace, '.env'), 'DB_PASSWORD=secret-dotenv\n');
  writeFileSync(join(workspace, 'server.pem'), '-----BEGIN PRIVATE KEY-----\nsecret-pem\n');
  chmodSync(join(workspace, 'notes.txt'), 0o644);
  mkdirSync(join(workspace, 'deep', 'a', 'b'), { recursive: true });
  writeFileSync(join(workspace, 'deep', 'a', 'b', '.env'), 'API_TOKEN=deep-dotenv-marker-9f2\n');
  writeFileSync(
    join(workspace, 'deep', 'a', 'wp-config.php'),
    "<?php\ndefine( 'DB_PASSWORD', 'deep-wp-marker-77' );\n",
  );
  writeFileSync(join(workspace, 'deep', '.dev.vars'), 'CF_API_TOKEN=deep-devvars-marker-31\n');
  writeFileSync(
    join(workspace, 'deep', 'a', 'b', 'kubeconfig.yaml'),
    'users:\n- name: admin\n  user:\n    token: deep-kube-marker-4c1\n',
  );
  writeFileSync(join(workspace, 'deep', 'a', 'b', 'plain.txt'), 'deep plain\n');
  process.env.HOME = home;
  loopback = createServer((socket) => {
    loopbackHits++;
    socket.end('HTTP/1.0 200 OK\r\n\r\nreached');
  });
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  // A Unix socket in the (read-only) workspace: a read-only mount does not stop connect().
  unixSocket = createServer((socket) => {
    unixHits++;
    socket.end('reached');
  });
  await new Promise<void>((resolve) => unixSocket.listen(join(workspace, 'daemon.sock'), resolve));
  victim = spawn('sleep', ['300.424242'], { stdio: 'ignore' });
});

afterAll(async () => {
  process.env.HOME = originalHome;
  victim.kill('SIGKILL');
  await new Promise((resolve) => loopback.close(resolve));
  await new Promise((resolve) => unixSocket.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const port = () => (loopback.address() as { port: number }).port;
const run = (command: string, timeoutMs = 10_000) =>
  runCommand(command, {
    cwd: workspace,
    signal: new AbortController().signal,
    maxOutputBytes: 16_384,
    timeoutMs,
    sandbox: true,
  });

function snapshot(): string {
  const entries: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name);
      const stats = statSync(path);
      entries.push(`${path} ${stats.mode.toString(8)} ${stats.size} ${stats.mtimeMs}`);
      if (stats.isDirectory()) walk(path);
    }
  };
  walk(root);
  return entries.join('\n');
}

describe.runIf(sandboxWorks)('the sandbox (real bubblewrap)', () => {
  // Each row: a way a command that slipped past an assessor could write. None may change anything.
  it.each([
    ['a new file', 'touch made.txt'],
    ['a redirection', 'echo x > made.txt'],
    ['an append to an existing file', 'echo x >> notes.txt'],
    ['noclobber override', 'echo x >| notes.txt'],
    ['cp', 'cp notes.txt made.txt'],
    ['mv', 'mv notes.txt moved.txt'],
    ['rm', 'rm -f notes.txt'],
    ['rm -rf of the workspace', 'rm -rf ./*'],
    ['find -delete', 'find . -name notes.txt -delete'],
    ['find -exec rm, errors hidden', 'find . -name "*.txt" 2>/dev/null -exec rm {} +'],
    ['tree -o writes its listing', 'tree -o made.txt . || true'],
    ['sed -i', "sed -i 's/plain/changed/' notes.txt"],
    ['truncate', 'truncate -s 0 notes.txt'],
    ['chmod', 'chmod 777 notes.txt'],
    ['touch -d of an existing file', 'touch -d 2001-01-01 notes.txt'],
    ['mkdir', 'mkdir made'],
    ['ln -s', 'ln -s notes.txt link'],
    ['dd', 'dd if=/dev/zero of=made.bin count=1'],
    ['tee', 'echo x | tee made.txt'],
    // curl's own ways to write, each of which writes outside the sandbox (the judge asks about them
    // since 444c967; the sandbox held before). `-w '%output{f}'` needs curl 8.3, newer than CI's.
    ['curl -T uploads into a file:// URL', 'curl -s -T notes.txt "file://$PWD/made.txt"'],
    ['curl -T over an existing file', 'echo x > /tmp/up; curl -s -T /tmp/up "file://$PWD/notes.txt"'],
    [
      'curl -K: a config file names the output',
      'printf \'url = "file:///etc/hostname"\\noutput = "made.txt"\\n\' > /tmp/c; curl -s -K /tmp/c',
    ],
    ['curl -o through a URL glob', 'curl -s "file:///etc/{hostname,hosts}" -o "made_#1.txt"'],
    ['python', "python3 -c \"open('made.txt','w').write('x')\""],
    ['perl', 'perl -e \'open(F,">made.txt"); print F 1\''],
    ['git init', 'git init -q .'],
    ['sqlite3 creates a database', 'sqlite3 made.db "create table t(x)"'],
    ['through /proc/self/root', 'echo x > /proc/self/root$PWD/made.txt'],
    ['through /proc/1/cwd', 'echo x > /proc/1/cwd/made.txt'],
    ['remount read-write first', 'mount -o remount,bind,rw / ; mount -o remount,rw "$PWD"; touch made.txt'],
    ['a new user namespace with all capabilities', 'unshare -rm sh -c "mount -o remount,bind,rw $PWD; touch made.txt"'],
    ['the home directory', 'echo x >> "$HOME/.bashrc"; touch "$HOME/made"'],
    ['a hidden directory (tmpfs, read-only)', 'touch "$HOME/.ssh/made"'],
    ['a write by a process left behind', '(sleep 0.3; touch made.txt) & disown; exit 0'],
  ])('cannot write: %s', async (_what, command) => {
    const before = snapshot();
    await run(command);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(snapshot()).toBe(before);
  });

  it('has a private, writable /tmp that is gone afterwards', async () => {
    const result = await run(
      `echo kept > /tmp/riskgate-private-${process.pid} && cat /tmp/riskgate-private-${process.pid}`,
    );
    expect(result.output).toBe('kept\n');
    expect(existsSync(`/tmp/riskgate-private-${process.pid}`)).toBe(false);
  });

  it.each([
    ['bash /dev/tcp', () => `exec 3<>/dev/tcp/127.0.0.1/${port()} && echo open`],
    ['curl to 127.0.0.1', () => `curl -s --max-time 2 http://127.0.0.1:${port()}/`],
    ['curl to localhost by name', () => `curl -s --max-time 2 http://localhost:${port()}/`],
    ['curl to ::1 (IPv6 loopback)', () => `curl -s --max-time 2 'http://[::1]:${port()}/'`],
    [
      'python socket',
      () => `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port()}), 2); print('open')"`,
    ],
    [
      'the Unix socket in the workspace (python)',
      () => `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('daemon.sock'); print(s.recv(9))"`,
    ],
    ['the Unix socket in the workspace (curl)', () => 'curl -s --max-time 2 --unix-socket daemon.sock http://x/'],
    ['PostgreSQL over its Unix socket', () => 'psql -h /var/run/postgresql -U postgres -Atc "select 42"'],
    ['PostgreSQL over TCP', () => 'psql -h 127.0.0.1 -U postgres -Atc "select 42"'],
    ['MariaDB over its Unix socket', () => 'mysql -uroot -N -e "select 42"'],
    ['MariaDB over TCP', () => 'mysql -h127.0.0.1 -uroot -N -e "select 42"'],
    ['a name lookup', () => 'getent hosts example.com && echo resolved'],
  ])('cannot connect: %s', async (_what, command) => {
    const hits = [loopbackHits, unixHits];
    const result = await run(command());
    expect(result.output).not.toMatch(/\bopen\b|reached|^42$|resolved/m);
    expect([loopbackHits, unixHits]).toEqual(hits);
  });

  it.each([
    ['~/.ssh (listing)', 'ls -A "$HOME/.ssh"'],
    ['~/.ssh (a key by name)', 'cat "$HOME/.ssh/id_ed25519"'],
    ['~/.ssh (a glob)', 'cat "$HOME"/.ss?/*'],
    ['~/.aws', 'cat "$HOME/.aws/credentials"'],
    ['~/.netrc (a file row)', 'cat "$HOME/.netrc"'],
    ['~/.pgpass (a name row, in the home directory)', 'cat "$HOME/.pgpass"'],
    ["riskgate's own configuration", 'cat "$HOME/.config/riskgate/config.json"'],
    ['.env in the workspace', 'cat .env'],
    ['a .pem in the workspace', 'cat server.pem'],
    ['a recursive grep of the home directory', 'grep -r secret "$HOME" 2>/dev/null'],
    ['a recursive grep of the workspace', 'grep -r secret . 2>/dev/null'],
    ['tar of the home directory to stdout', 'tar cf - -C "$HOME" . 2>/dev/null | strings'],
    ['/etc/shadow', 'cat /etc/shadow'],
    ["another process's environment", `cat /proc/${process.pid}/environ`],
  ])('cannot see: %s', async (_what, command) => {
    const result = await run(command);
    expect(result.output).not.toMatch(/secret-(ssh|aws|netrc|pgpass|config|dotenv|pem)|root:/);
  });

  it('reads the workspace and the allowlisted home files; the rest of the home is not there', async () => {
    writeFileSync(join(home, 'readme.txt'), 'home readme\n');
    writeFileSync(join(home, '.ssh', 'id_ed25519.pub'), 'ssh-ed25519 AAAAC3Nza public-key\n');
    writeFileSync(join(home, '.ssh', 'known_hosts'), 'github.com ssh-ed25519 AAAAC3Nza known-host\n');
    writeFileSync(
      join(home, '.ssh', 'disguised.pub'),
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWdisguised\n-----END OPENSSH PRIVATE KEY-----\n',
    );
    const result = await run(
      'cat notes.txt "$HOME/.ssh/id_ed25519.pub" "$HOME/.ssh/known_hosts"; ls; cat "$HOME/readme.txt"; ls -a "$HOME"',
    );
    expect(result.output).toContain(
      'plain notes\nssh-ed25519 AAAAC3Nza public-key\ngithub.com ssh-ed25519 AAAAC3Nza known-host\n',
    );
    expect(result.output).toContain('notes.txt');
    expect(result.output).not.toContain('home readme');
    // A private key saved under a public key's name is not bound in.
    expect((await run('cat "$HOME/.ssh/disguised.pub"')).output).not.toContain('ZWdisguised');
    expect(result.output).toMatch(/readme\.txt: No such file/);
  });

  it.each([
    ['a nested .env', 'cat deep/a/b/.env'],
    ['base64 of a config with a password', 'base64 deep/a/wp-config.php | base64 -d'],
    ['xxd of wrangler secrets', 'xxd deep/.dev.vars'],
    ['rev of a kubeconfig', 'rev deep/a/b/kubeconfig.yaml | rev'],
    ['find -exec cat', 'find . -type f -exec cat {} +'],
    ['grep -r', 'grep -r . .'],
    ['tar of the workspace', 'tar -cf - . | tar -xOf -'],
  ])('cannot see a secret file deep in the workspace: %s', async (_what, command) => {
    const result = await run(command);
    expect(result.output).not.toMatch(/deep-(dotenv|wp|devvars|kube)-marker/);
  });

  it('still reads an ordinary file deep in the workspace', async () => {
    expect((await run('cat deep/a/b/plain.txt')).output).toContain('deep plain');
  });

  it.each([
    ['kill -9 by process id', () => `kill -9 ${victim.pid}`],
    ['pkill by name', () => 'pkill -9 -f 300.424242'],
    // Guarded by `$$ -lt 10` (bash is PID 2 in the sandbox): were the sandbox ever missing, this row
    // must not kill every process of the machine (it did once, in a check run without the sandbox).
    ['kill every process it can see', () => '[ $$ -lt 10 ] && kill -9 -1'],
  ])('cannot signal a process outside: %s', async (_what, command) => {
    await run(command());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(victim.exitCode).toBeNull();
    expect(victim.signalCode).toBeNull();
  });

  it('sees only its own processes', async () => {
    const result = await run('ps -e -o comm= | sort | uniq');
    expect(result.output).not.toMatch(/node|vitest|sleep/);
  });

  it('gives the host view to a lone reader only, and the rest of its line runs fully sandboxed', async () => {
    const options = {
      cwd: workspace,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
      maxOutputBytes: 1_000_000,
      sandbox: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    };
    const line = `ps -e -o comm= | cat - ${join(home, '.ssh', 'id_ed25519')}; touch ${join(workspace, 'host-view-write')}`;
    const reader = await splitHostReader('ps -e -o comm= | sort');
    const processes = await runCommand('ps -e -o comm= | sort', {
      ...options,
      ...(reader === undefined ? {} : { hostReader: reader }),
    });
    expect(processes.output).toMatch(/node/);
    const mixed = await runCommand(line, {
      ...options,
      ...((await splitHostReader(line)) === undefined ? {} : { hostReader: (await splitHostReader(line))! }),
    });
    expect(existsSync(join(workspace, 'host-view-write'))).toBe(false);
    expect(mixed.output).not.toContain('secret-ssh');
    expect(mixed.output).not.toMatch(/node/);
  });

  it('hides the secret files of the workspace at any depth, and empties the home', () => {
    const hidden = hiddenPaths({ cwd: workspace, home });
    expect(hidden).toEqual(
      expect.arrayContaining([
        { path: join(workspace, '.env'), kind: 'file' },
        { path: join(workspace, 'server.pem'), kind: 'file' },
        { path: join(workspace, 'deep', 'a', 'b', '.env'), kind: 'file' },
        { path: join(workspace, 'deep', 'a', 'wp-config.php'), kind: 'file' },
        { path: join(workspace, 'deep', '.dev.vars'), kind: 'file' },
        { path: join(workspace, 'deep', 'a', 'b', 'kubeconfig.yaml'), kind: 'file' },
      ]),
    );
    const paths = hidden.map((entry) => entry.path);
    expect(paths).not.toContain(join(workspace, 'notes.txt'));
    expect(paths).not.toContain(join(workspace, 'deep', 'a', 'b', 'plain.txt'));
    // Nothing in the home needs hiding one by one: it is empty but for the allowlist.
    expect(paths.filter((path) => path.startsWith(`${home}/`))).toEqual([]);
    const args = bubblewrapArguments({ cwd: workspace, home }, hidden).join(' ');
    expect(args).toContain(`--tmpfs ${home}`);
    expect(args).toContain(`--remount-ro ${home}`);
    expect(args).toContain(`--ro-bind /dev/null ${join(workspace, 'deep', '.dev.vars')}`);
  });

  it('reads the path table through the one matcher: brace groups that hold a slash are whole rows', () => {
    // With the workspace holding the home, nothing is private: the named rows must hide what they name.
    const stores = [
      '.config/composer/auth.json',
      '.composer/auth.json',
      '.config/ngrok/ngrok.yml',
      '.local/share/fish/fish_history',
      '.config/.wrangler/config/default.toml',
    ];
    for (const store of stores) {
      mkdirSync(join(home, store, '..'), { recursive: true });
      writeFileSync(join(home, store), 'x\n');
    }
    const paths = hiddenPaths({ cwd: home, workspace: home, home }).map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        join(home, '.config/composer/auth.json'),
        join(home, '.composer/auth.json'),
        join(home, '.config/ngrok'),
        join(home, '.local/share/fish/fish_history'),
        join(home, '.config/.wrangler/config'),
      ]),
    );
  });

  it('does not hide the home directory itself when a secret row holds it (/root when riskgate runs as root)', () => {
    const hidden = hiddenPaths({ cwd: workspace, home: '/root' });
    expect(hidden.map((entry) => entry.path)).not.toContain('/root');
  });
});

describe('without a working sandbox', () => {
  it('says bubblewrap is missing, once, with what to do', async () => {
    const status = await probeSandbox({ bwrap: join(root, 'no-such-bwrap') });
    expect(status.available).toBe(false);
    expect(status.message).toMatch(/bubblewrap is not installed \(apt-get install bubblewrap\)/);
  });

  it('says bubblewrap cannot create namespaces, with its own words', async () => {
    const fake = join(root, 'failing-bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const status = await probeSandbox({ bwrap: fake });
    expect(status).toEqual({
      available: false,
      message: expect.stringMatching(
        /cannot create its namespaces here \(bwrap: No permissions to create new namespace\)/,
      ),
    });
  });

  it.runIf(sandboxWorks)(
    'works with a bubblewrap older than 0.8 (no --size), its tmpfs unsized, and says so',
    async () => {
      const old = join(root, 'old-bwrap');
      // Refuses --size as bubblewrap 0.6 does, else the real one.
      writeFileSync(
        old,
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = --size ] && { echo "bwrap: Unknown option --size" >&2; exit 1; }; done\nexec bwrap "$@"\n',
        { mode: 0o755 },
      );
      try {
        expect((await probeSandbox({ bwrap: old })).available).toBe(true);
        expect(bubblewrapArguments({ cwd: workspace }, [])).not.toContain('--size');
        expect(describeBounds()).toMatch(/\/tmp unsized \(bubblewrap before 0\.8 has no --size/);
      } finally {
        await probeSandbox({ fresh: true });
      }
      expect(bubblewrapArguments({ cwd: workspace }, [])).toContain('--size');
    },
  );
});
