import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool, evaluateToolCall, probeSandbox, runCommand } from '../src/index.js';
import { LONG_TAIL_COMMANDS } from '../src/long-tail-commands.js';
import { SANDBOX_ONLY_COMMANDS } from '../src/sandbox-only-commands.js';

// Verification by the operating system: every example of the widened whitelist runs inside the
// real sandbox under strace, and the kernel's record of its system calls must show no attempt to
// write, connect or start a program outside an allowed set. Attempts count, not only successes:
// the sandbox would stop a write anyway; the row is wrong if the command even tries.
const sandboxWorks = (await probeSandbox()).available;
// What the rows promise must hold in any environment, not thanks to this machine's settings.
delete process.env.PIP_DISABLE_PIP_VERSION_CHECK;
const hasStrace = existsSync('/usr/bin/strace');
const workspace = mkdtempSync('/var/tmp/riskgate-strace-');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
writeFileSync(join(workspace, 'notes.txt'), 'a b c\n');

const onMachine = (program: string) => {
  try {
    execFileSync('bash', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** The programs a command line names: the first word of each pipeline part, after VAR=value. */
function programsOf(line: string): string[] {
  return line
    .split(/\|\||&&|[|;]/)
    .map(
      (part) =>
        part
          .trim()
          .split(/\s+/)
          .find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '',
    )
    .filter((word) => word !== '' && !['true', 'false'].includes(word));
}

const rows = [...SANDBOX_ONLY_COMMANDS, ...LONG_TAIL_COMMANDS].flatMap((row) =>
  row.examples.map((example) => ({ row, example, programs: programsOf(example) })),
);

/** Paths a read-only command may open for writing: its private /tmp and the terminal devices. */
const WRITABLE = /^(\/tmp(\/|$)|\/dev\/(null|tty|pts\/\d+|stdout|stderr)$|\/proc\/self\/(fd|attr)\/)/;
const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;
const WRITE_CALLS =
  /^(mkdir|mkdirat|unlink|unlinkat|rmdir|rename|renameat2?|link|linkat|symlink|symlinkat|chmod|fchmodat2?|chown|lchown|fchownat|truncate|mknod|mknodat|utime|utimes|utimensat|futimesat|setxattr|lsetxattr|removexattr|lremovexattr)$/;
/** Reaching out: any attempt counts (netlink excepted: it asks the sandbox's own network namespace). */
const CONNECT_CALLS = /^(connect|sendto|sendmsg|sendmmsg)$/;
/** Listening: only on the sandbox's own loopback (Python probes IPv6 by binding ::1). */
const LISTEN_CALLS = /^(bind|listen|accept4?)$/;
/** Sockets that are made at all: raw and packet sockets read the network below IP. */
const RAW_SOCKETS = /^(AF_PACKET|SOCK_RAW)/;

interface Finding {
  readonly kind: 'write' | 'network' | 'exec';
  readonly line: string;
}

function findings(trace: string, allowedPrograms: ReadonlySet<string>, caches: readonly string[] = []): Finding[] {
  const found: Finding[] = [];
  const started = (program: string) =>
    allowedPrograms.has(program) ||
    [...allowedPrograms].some((allowed) => allowed.endsWith('*') && program.startsWith(allowed.slice(0, -1)));
  const cache = (path: string) => caches.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  for (const line of trace.split('\n')) {
    const call = /^\d+\s+([a-z_0-9]+)\((.*)$/.exec(line);
    if (call === null) continue;
    const [, name, rest] = call as unknown as [string, string, string];
    const paths = [...rest.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
    if (
      (name === 'open' || name === 'openat' || name === 'openat2' || name === 'creat') &&
      (name === 'creat' || WRITE_FLAGS.test(rest))
    ) {
      if (!paths.slice(0, 1).every((path) => WRITABLE.test(path) || cache(path))) found.push({ kind: 'write', line });
    } else if (WRITE_CALLS.test(name)) {
      if (!paths.every((path) => path.startsWith('/tmp/') || cache(path))) found.push({ kind: 'write', line });
    } else if (CONNECT_CALLS.test(name)) {
      if (!/AF_NETLINK|nlmsg/.test(rest)) found.push({ kind: 'network', line });
    } else if (LISTEN_CALLS.test(name)) {
      if (/sa_family=AF_INET/.test(rest) && !/"(::1|127\.0\.0\.1)"/.test(rest)) found.push({ kind: 'network', line });
    } else if (name === 'socket') {
      // Netlink sockets are SOCK_RAW too, and stay in the sandbox's own network namespace. The
      // sandbox refuses every other socket (seccomp.ts): a refused one (Python probing IPv6) did nothing.
      const made = !/= -1 E/.test(rest);
      if (
        made &&
        !rest.startsWith('AF_NETLINK') &&
        (RAW_SOCKETS.test(rest) || /SOCK_RAW/.test(rest) || /^AF_INET6?,/.test(rest))
      )
        found.push({ kind: 'network', line });
    } else if ((name === 'execve' || name === 'execveat') && !/= -1 ENOENT/.test(rest)) {
      // A PATH search tries directories first (ENOENT): only a program that starts counts.
      const program = basename(paths[0] ?? '');
      if (!started(program) && !/^(bash|sh|dash)$/.test(program)) found.push({ kind: 'exec', line });
    }
  }
  return found;
}

describe.runIf(sandboxWorks && hasStrace)('the widened whitelist, verified by strace in the sandbox', () => {
  it.each(rows.map((entry) => [entry.example, entry] as const))(
    '%s writes, connects and starts nothing outside the allowed set',
    { timeout: 60_000 },
    async (_example, { row, example, programs }) => {
      if (!programs.every(onMachine)) return; // not installed here: nothing to verify
      const result = await runCommand(
        `strace -f -qq -e trace=%file,%network,%process,%desc -o /tmp/trace -- bash --noprofile --norc -c ${JSON.stringify(example).replace(/\$/g, '\\$')} >/dev/null 2>&1; cat /tmp/trace`,
        {
          cwd: workspace,
          signal: new AbortController().signal,
          maxOutputBytes: 16 * 1024 * 1024,
          timeoutMs: 60_000,
          sandbox: true,
        },
      );
      expect(result.output).toMatch(/execve\(/);
      const allowed = new Set([...programs, ...(row.starts ?? []), row.program]);
      const caches = (row.writes ?? []).map((path) => (path.startsWith('~/') ? join(homedir(), path.slice(2)) : path));
      expect(findings(result.output, allowed, caches)).toEqual([]);
    },
  );

  it('sees an attempt: the check finds a write and a start it was not told about; the socket is refused', async () => {
    const trace = (
      await runCommand(
        "strace -f -qq -e trace=%file,%network,%process,%desc -o /tmp/trace -- bash -c 'touch made.txt; exec 3<>/dev/tcp/127.0.0.1/9; ls' >/dev/null 2>&1; cat /tmp/trace",
        {
          cwd: workspace,
          signal: new AbortController().signal,
          maxOutputBytes: 4 * 1024 * 1024,
          timeoutMs: 30_000,
          sandbox: true,
        },
      )
    ).output;
    const kinds = findings(trace, new Set(['touch'])).map((finding) => finding.kind);
    expect(kinds).toEqual(expect.arrayContaining(['write', 'exec']));
    // The connection never got as far as connect(): the sandbox refused the socket itself.
    expect(trace).toMatch(/socket\(AF_INET, SOCK_STREAM[^)]*\) = -1 EACCES/);
    expect(trace).not.toMatch(/connect\(/);
  });
});

describe.runIf(sandboxWorks)(
  'commands that wrote before cannot write in the sandbox, whatever the assessor says',
  () => {
    function snapshot(): string {
      const entries: string[] = [];
      const walk = (directory: string) => {
        for (const name of readdirSync(directory).sort()) {
          const path = join(directory, name);
          const stats = statSync(path);
          entries.push(`${path} ${stats.size} ${stats.mtimeMs}`);
          if (stats.isDirectory()) walk(path);
        }
      };
      walk(workspace);
      return entries.join('\n');
    }

    it.each([
      ['find … 2>/dev/null -exec rm', 'find . -name "*.txt" 2>/dev/null -exec rm {} \\;'],
      ['find -delete', 'find . -type f -delete'],
      ['tree -o', 'tree -o listing.txt .'],
      ['tree -R -H writes 00Tree.html in every directory', 'tree -R -H . .'],
      ['git help -w (a browser)', 'git help -w ls; git init -q'],
      ['sed -i', "sed -i 's/a/b/' notes.txt"],
      ['awk with a redirection', 'awk \'{print > "out.txt"}\' notes.txt'],
      ['awk system()', 'awk \'BEGIN{system("touch made")}\''],
      ['tar x', 'tar cf /tmp/a.tar -C /etc hostname && tar xf /tmp/a.tar'],
      [
        'unzip extracting',
        'cd /tmp && echo x > f && python3 -m zipfile -c a.zip f && cd - >/dev/null && unzip -o /tmp/a.zip',
      ],
      ['man writing its cache', 'man -w ls >/dev/null; mandb -q 2>/dev/null; ls'],
    ])('%s', async (_what, command) => {
      mkdirSync(join(workspace, 'sub'), { recursive: true });
      const before = snapshot();
      await runCommand(command, {
        cwd: workspace,
        signal: new AbortController().signal,
        maxOutputBytes: 65_536,
        timeoutMs: 30_000,
        sandbox: true,
      });
      expect(snapshot()).toBe(before);
    });
  },
);

describe('the sandbox-only rows in the assessor table', () => {
  const tool = createExecuteCommandTool();
  const decide = async (command: string, sandbox: boolean) =>
    (
      await evaluateToolCall(
        tool,
        { command },
        { cwd: workspace, ...(sandbox ? { sandbox: true } : {}) },
        { mode: 'smart', rules: [] },
      )
    ).decision.action;

  // Each row: a read-only form of a program the table knows only inside the sandbox.
  it.each([
    'ag -l root /etc/passwd',
    'ag -i todo src',
    'ack -l root /etc/passwd',
    'fdfind -t f . /etc/apt',
    'lspci',
    'lspci -v -nn',
    'lsusb -t',
    'whatis ls',
    'apropos directory',
    'pstree -p',
    'bat -p --paging=never notes.txt',
    'batcat -n notes.txt',
    'eza -l',
    'exa -la --tree -L 2 .',
    'shasum -a 256 notes.txt',
    "dpkg-query -W -f='${Package}\\n' bash",
  ])('runs %s unasked in the sandbox, and asks without it', async (command) => {
    expect(await decide(command, true)).toBe('execute');
    expect(await decide(command, false)).toBe('confirm');
  });

  // Each row: a form of the same programs that runs a program, writes or reads a secret: asked even in the sandbox.
  it.each([
    ["ag --pager 'sh -c id' root /etc/passwd"],
    ["ack --output='`id`' x notes.txt"],
    ['fdfind -x rm -f'],
    ['fdfind . -X rm'],
    ['bat --pager=vim notes.txt'],
    ['bat cache --build'],
    ['eza -l ~/.ssh'],
    ['bat ~/.aws/credentials'],
    ['ag secret ~/.ssh'],
    ['shasum -a 256 notes.txt > sums.txt'],
    ['lspci; rm -rf ~'],
    ['pstree -p | sh'],
  ])('asks about %s even in the sandbox', async (command) => {
    expect(await decide(command, true)).toBe('confirm');
  });
});
