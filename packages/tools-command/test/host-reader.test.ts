import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool, probeSandbox, runCommand, splitHostReader } from '../src/index.js';
import { executeAssessed } from './gate-fixture.js';

describe('splitHostReader: only a lone, option-checked reader gets the host view', () => {
  it.each([
    ['ps aux', '/ps', ['aux'], undefined],
    ['ps aux | grep node', '/ps', ['aux'], 'grep node'],
    ['ps aux | grep node | awk "{print $2}"', '/ps', ['aux'], 'grep node | awk "{print $2}"'],
    ['ps -eo pid,comm | sort -k2', '/ps', ['-eo', 'pid,comm'], 'sort -k2'],
    ['ps -ef --forest | head', '/ps', ['-ef', '--forest'], 'head'],
    ["pgrep -a node | awk 'BEGIN{print 1}'", '/pgrep', ['-a', 'node'], "awk 'BEGIN{print 1}'"],
    ['pidof sshd', '/pidof', ['sshd'], undefined],
    ['ss -tln | grep 5432', '/ss', ['-tln'], 'grep 5432'],
    ['ss -tlnp state listening', '/ss', ['-tlnp', 'state', 'listening'], undefined],
    ['ip addr | head', '/ip', ['addr'], 'head'],
    ['ip -br a', '/ip', ['-br', 'a'], undefined],
    ['ip route show table main', '/ip', ['route', 'show', 'table', 'main'], undefined],
    ['ip -6 neigh', '/ip', ['-6', 'neigh'], undefined],
    ['netstat -tlnp | grep 80', '/netstat', ['-tlnp'], 'grep 80'],
    ["uptime -p | tr -d '\\n'", '/uptime', ['-p'], "tr -d '\\n'"],
    ["ps 'aux' | wc -l", '/ps', ['aux'], 'wc -l'],
    ['who | wc -l', '/who', [], 'wc -l'],
    ['ps aux --sort=-%mem | head', '/ps', ['aux', '--sort=-%mem'], 'head'],
    ['ps -eo pid,cmd --sort -rss | head -5', '/ps', ['-eo', 'pid,cmd', '--sort', '-rss'], 'head -5'],
    ['pgrep -af "node server"', '/pgrep', ['-af', 'node server'], undefined],
    ['top -bn1 | head -20', '/top', ['-bn1'], 'head -20'],
    ['lsof -i :5432', '/lsof', ['-i', ':5432'], undefined],
    ['lsof -iTCP -sTCP:LISTEN -P -n', '/lsof', ['-iTCP', '-sTCP:LISTEN', '-P', '-n'], undefined],
    ['ss -tulpn | grep LISTEN', '/ss', ['-tulpn'], 'grep LISTEN'],
    ['ip -br -c a', '/ip', ['-br', '-c', 'a'], undefined],
    ['hostname -I', '/hostname', ['-I'], undefined],
    // Who the person is, read as riskgate's own user (the sandbox's rest may run as nobody).
    ['id -u', '/id', ['-u'], undefined],
    ['id -un | tr a-z A-Z', '/id', ['-un'], 'tr a-z A-Z'],
    ['whoami', '/whoami', [], undefined],
    // Whatever the rest holds, it runs fully sandboxed: an interpreter there sees no host.
    ['ps aux | cat <(sh -c id)', '/ps', ['aux'], 'cat <(sh -c id)'],
  ])('%s → the reader alone, the rest sandboxed', async (line, program, args, rest) => {
    // Only the system's own programs are readers: a row whose program this machine lacks has nothing to run.
    if (!['/usr/bin', '/bin', '/usr/sbin', '/sbin'].some((directory) => existsSync(`${directory}${program}`))) return;
    const split = await splitHostReader(line);
    expect(split?.program.endsWith(program)).toBe(true);
    expect(split?.args).toEqual(args);
    expect(split?.rest).toBe(rest);
  });

  // Every row: no host view at all, the whole line runs fully unshared.
  it.each([
    ['a program off the table', 'cat /etc/hosts | grep x'],
    ['the reader is not first', 'echo x | ps aux'],
    ['two statements', 'ps aux; psql -c "DROP DATABASE app"'],
    ['and-list', 'ps aux && kill 1'],
    ['or-list', 'ps aux || true'],
    ['a background job', 'ps aux & kill 1'],
    ['a comment after it', 'ps aux # x'],
    ['an assignment', 'LD_PRELOAD=/tmp/x.so ps aux | cat'],
    ['a redirection', 'ps aux > /tmp/x | cat'],
    ['stderr into the pipe', 'ps aux |& cat'],
    ['a command substitution', 'ps $(echo aux) | cat'],
    ['a variable', 'ps $OPTS | cat'],
    ['a glob', 'ps a* | cat'],
    ['a backslash', 'ps a\\ux | cat'],
    ['a tilde', 'lsof ~/x | cat'],
    ['a double-quoted expansion', 'ps "$x" | cat'],
    ['a subshell', '(ps aux) | cat'],
    ['a path to the program', './ps aux | cat'],
    ['an absolute path', '/usr/bin/ps aux | cat'],
    ['BSD ps e prints environments', 'ps e'],
    ['ps auxe', 'ps auxe | grep TOKEN'],
    ['ps ewww', 'ps ewww'],
    ['ps with an operand', 'ps aux 1'],
    ['ps --format without a value', 'ps --format'],
    ['pgrep a pattern with a newline', 'pgrep "a\nb"'],
    ['ss -K kills sockets', 'ss -K dst 127.0.0.1'],
    ['ss -tlnK', 'ss -tlnK'],
    ['ss --kill', 'ss --kill'],
    ['ss -D writes a file', 'ss -D /tmp/x'],
    ['ss -N enters a namespace', 'ss -N other'],
    ['ip -b reads commands', 'ip -b /tmp/cmds'],
    ['ip -batch', 'ip -batch /tmp/cmds'],
    ['ip -force', 'ip -force -b x'],
    ['ip netns exec', 'ip netns exec x sh'],
    ['ip -n', 'ip -n x addr'],
    ['ip addr add', 'ip addr add 10.0.0.1/24 dev eth0'],
    ['ip link set', 'ip link set eth0 down'],
    ['ip route flush', 'ip route flush all'],
    ['ip monitor', 'ip monitor'],
    ['hostname sets', 'hostname evil'],
    ['hostname -F', 'hostname -F /etc/x'],
    ['ifconfig down', 'ifconfig eth0 down'],
    ['ifconfig address', 'ifconfig eth0 10.0.0.1'],
    ['top interactive keys', 'top -k'],
    ['lsof repeat', 'lsof -r 1'],
    ['pgrep an unlisted option', 'pgrep --signal KILL node'],
    ['pidof an unlisted option', 'pidof -k x'],
    ['kill is no reader', 'kill 1 | cat'],
    ['pkill is no reader', 'pkill node'],
    ['a function named ps', 'ps() { sh; }; ps aux'],
    ['a heredoc', 'ps aux <<EOF\nx\nEOF'],
    ['a syntax error', 'ps aux | | cat'],
  ])('no host view: %s', async (_name, line) => {
    expect(await splitHostReader(line)).toBeUndefined();
  });
});

const sandboxWorks = (await probeSandbox()).available;
const psqlWorks = (() => {
  try {
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'select 1'], { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
})();
if (process.env.CI !== undefined && !sandboxWorks) throw new Error('CI must run the real sandbox: install bubblewrap');

const root = mkdtempSync('/var/tmp/riskgate-hostview-');
const database = `riskgate_hostview_${process.pid}`;
const psql = (sql: string) =>
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', sql], {
    encoding: 'utf8',
    timeout: 10_000,
  }).trim();
const databaseExists = () => psql(`SELECT count(*) FROM pg_database WHERE datname = '${database}'`) === '1';
const drop = `psql -h 127.0.0.1 -U postgres -c \\"DROP DATABASE ${database}\\"`;
const victimMark = `300.${process.pid}`;
let victim: ChildProcess;
let tcp: Server;
let tcpHits = 0;
let unix: Server;
let unixHits = 0;
const socketPath = join(root, 'daemon.sock');

beforeAll(async () => {
  if (psqlWorks) psql(`CREATE DATABASE ${database}`);
  victim = spawn('sleep', [victimMark], { stdio: 'ignore', detached: true });
  tcp = createServer((socket) => {
    tcpHits++;
    socket.end('reached\n');
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  unix = createServer((socket) => {
    unixHits++;
    socket.end('reached\n');
  });
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
});

afterAll(async () => {
  if (psqlWorks) psql(`DROP DATABASE IF EXISTS ${database}`);
  victim.kill('SIGKILL');
  await new Promise((resolve) => tcp.close(resolve));
  await new Promise((resolve) => unix.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const port = () => (tcp.address() as { port: number }).port;
const tool = createExecuteCommandTool({ defaultTimeoutMs: 15_000 });
/**
 * Runs a line the way an unasked call runs, whatever the gate would have said of it: execute
 * with `readOnly` in a working sandbox. Containment must not depend on the assessor.
 */
async function unasked(command: string): Promise<string> {
  const result = await executeAssessed(
    tool,
    { command },
    { cwd: root, sandbox: true, readOnly: true, signal: new AbortController().signal },
  );
  return result.type === 'tool-success' ? result.forModel : result.message;
}

const victimAlive = () => {
  try {
    const state = readFileSync(`/proc/${victim.pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== undefined && state !== 'Z';
  } catch {
    return false;
  }
};

describe.runIf(sandboxWorks)(
  "the host view hands the rest of the line no secret of another program's arguments",
  () => {
    const token = 'ghp_R7sK2mQ9vX4nB8cD1eF6gH3jL5pT0wYzA9bC';
    const url = 'postgres://etl:Sx9-vQ2-mN7kL4@db.internal:5432/orders';
    let holder: ChildProcess;
    beforeAll(() => {
      // A program whose command line carries credentials, as `worker --github …` or a DSN does.
      holder = spawn('bash', ['-c', `exec -a "worker-${process.pid} --github ${token} --db ${url}" sleep 300`], {
        stdio: 'ignore',
        detached: true,
      });
    });
    afterAll(() => holder.kill('SIGKILL'));
    const reversed = (text: string) => [...text].reverse().join('');

    it.each([
      ['rev', `ps -eo args | grep worker-${process.pid} | rev`],
      ['xxd', `ps -eo args | grep worker-${process.pid} | xxd -p`],
      ['base32', `pgrep -af worker-${process.pid} | base32`],
      ['fold into pieces', `ps auxww | grep worker-${process.pid} | fold -w 5`],
      [
        'awk one character a line',
        `ps -ef | awk '/worker-${process.pid}/{n=split($0,c,""); for(i=n;i>0;i--) printf "%s", c[i]; print ""}'`,
      ],
      ['tr', `ps -eo args | tr a-z A-Z`],
    ])(
      '%s',
      async (_name, line) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const said = (await unasked(line)).replace(/\s/g, '');
        for (const secret of [token, 'Sx9-vQ2-mN7kL4']) {
          expect(said).not.toContain(secret.replace(/\s/g, ''));
          expect(said).not.toContain(reversed(secret));
          expect(said.toLowerCase()).not.toContain(Buffer.from(secret).toString('hex'));
          expect(said.toUpperCase()).not.toContain(secret.toUpperCase());
        }
      },
      30_000,
    );

    it('the rest still reads the process list (grep, wc)', async () => {
      const said = await unasked(`ps -eo args | grep -c worker-${process.pid}`);
      expect(Number(said.split('\n')[0])).toBeGreaterThanOrEqual(1);
    });
  },
);

describe.runIf(sandboxWorks)('the host view is no escape (real bubblewrap, real services)', () => {
  it.runIf(psqlWorks).each([
    ['awk pipes to sh in BEGIN', `pgrep -a node | awk 'BEGIN{print "${drop}" | "sh"}'`],
    ['awk system()', `ps aux | awk 'NR==1{system("${drop}")}'`],
    ['sh reads the command', `ps aux | head -0; echo "${drop}" | sh`],
    ['xargs runs psql', `ss -tln | head -1 | xargs -I{} sh -c "${drop}"`],
    ['sh -c after the reader', `ps aux | sh -c "${drop}"`],
    ['psql straight after ip', `ip addr | psql -h 127.0.0.1 -U postgres -c "DROP DATABASE ${database}"`],
    ['perl system', `pgrep node | perl -e 'system("${drop}")'`],
    ['python subprocess', `ps aux | python3 -c 'import os; os.system("${drop}")'`],
    ['bash /dev/tcp to the database port', `ss -tln | bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432 && echo open'`],
    ['the reader alone, then psql', `ps aux && psql -h 127.0.0.1 -U postgres -c "DROP DATABASE ${database}"`],
  ])(
    'the database survives: %s',
    async (_name, line) => {
      const said = await unasked(line);
      expect(databaseExists()).toBe(true);
      expect(said).not.toMatch(/DROP DATABASE\n|^open$/m);
    },
    30_000,
  );

  it.each([
    ['xargs kill', `ps aux | grep ${victimMark} | awk '{print $2}' | xargs kill -9`],
    ['pgrep into xargs', `pgrep -f ${victimMark} | xargs kill -9`],
    ['awk system kill', `ps aux | awk '/${victimMark}/{system("kill -9 " $2)}'`],
    ['a read loop', `pgrep -f ${victimMark} | while read p; do kill -9 $p; done`],
    ['kill of a substitution', `kill -9 $(pgrep -f ${victimMark})`],
    ['pkill', `pkill -9 -f ${victimMark}`],
    ['perl kill', `pgrep -f ${victimMark} | perl -ne 'kill 9, $_'`],
    ['the pid from ps, killed by sh', `ps -eo pid,args | awk '/${victimMark}/{print "kill -9", $1}' | sh`],
  ])(
    'the host process lives: %s',
    async (_name, line) => {
      await unasked(line);
      expect(victimAlive()).toBe(true);
    },
    30_000,
  );

  it.each([
    ['bash /dev/tcp', (p: number) => `ss -tln | bash -c 'echo x > /dev/tcp/127.0.0.1/${p}'`],
    ['curl', (p: number) => `ps aux | curl -s http://127.0.0.1:${p}/`],
    [
      'python socket',
      (p: number) => `ip addr | python3 -c "import socket; socket.create_connection(('127.0.0.1', ${p}))"`,
    ],
    ['socat', (p: number) => `ss -tln | socat - TCP:127.0.0.1:${p}`],
    [
      'perl IO::Socket',
      (p: number) => `ps | perl -MIO::Socket::INET -e 'IO::Socket::INET->new("127.0.0.1:${p}") or die'`,
    ],
    ['awk inet (gawk)', (p: number) => `ps | awk 'BEGIN{s="/inet/tcp/0/127.0.0.1/${p}"; print "x" |& s; close(s)}'`],
  ])(
    'no TCP connection reaches a loopback port: %s',
    async (_name, line) => {
      const before = tcpHits;
      const said = await unasked(line(port()));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(tcpHits).toBe(before);
      expect(said).not.toContain('reached');
    },
    30_000,
  );

  it.each([
    [
      'python AF_UNIX',
      `ps aux | python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(9))"`,
    ],
    ['socat UNIX-CONNECT', `ss -x | socat - UNIX-CONNECT:${socketPath}`],
    ['curl --unix-socket', `ps aux | curl -s --unix-socket ${socketPath} http://x/`],
    [
      'perl IO::Socket::UNIX',
      `pgrep node | perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => "${socketPath}") or die'`,
    ],
  ])(
    'nothing arrives at a Unix socket: %s',
    async (_name, line) => {
      const before = unixHits;
      const said = await unasked(line);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unixHits).toBe(before);
      expect(said).not.toContain('reached');
    },
    30_000,
  );

  it('refuses connect() to the reader itself, should one misbehave (its own seccomp filter)', async () => {
    const before = tcpHits;
    // No table row runs bash; this drives the reader's sandbox directly to prove the filter holds.
    const result = await runCommand('unused', {
      cwd: root,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      maxOutputBytes: 4_000,
      sandbox: true,
      hostReader: { program: '/bin/bash', args: ['-c', `echo x > /dev/tcp/127.0.0.1/${port()} && echo connected`] },
    });
    expect(tcpHits).toBe(before);
    expect(result.output).not.toContain('connected');
    expect(result.output).toMatch(/Permission denied/);
  });

  it.each([
    ['ps aux | grep node', /node/],
    ['ps -e -o comm= | sort | uniq', /node/],
    ['ss -tln | grep 5432', /127\.0\.0\.1:5432/],
    ['ip addr | head -20', /eth0|en[ops]\w+|wl\w+/],
    ['pgrep -a node | head -3', /node/],
  ])(
    'still gives the host view to the reader: %s',
    async (line, expected) => {
      // Only where the host has it to show: a PostgreSQL on 5432 and a network card.
      if (line.includes('5432') && !psqlWorks) return;
      if (line.startsWith('ip ') && !/eth0|en[ops]|wl/.test(execFileSync('ip', ['addr'], { encoding: 'utf8' }))) return;
      expect(await unasked(line)).toMatch(expected);
    },
    30_000,
  );
});
