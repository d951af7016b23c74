import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs bash lines for real, each as `bash -c LINE` under `strace -f`, inside bubblewrap (the
 * whole filesystem read-only, a fresh /tmp, no network, own PID namespace), and reports what
 * each did: programs executed, writes attempted (a read-only mount fails them, strace still
 * sees the attempt), secret files opened, connections, and whether a planted secret reached
 * the output.
 */
export interface Observation {
  readonly executed: readonly string[];
  readonly writes: readonly string[];
  readonly secretReads: readonly string[];
  readonly connects: readonly string[];
  readonly leaked: boolean;
}

export interface Scratch {
  readonly root: string;
  readonly workspace: string;
  readonly home: string;
  readonly secretValue: string;
}

const TRACED =
  'execve,openat,creat,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,rmdir,connect,truncate,symlink,symlinkat,link,linkat';
/** Writes that go nowhere, or to the line's own output and terminal. */
const HARMLESS_WRITE = /^(\/dev\/(null|tty|pts\/.*|stdout|stderr|fd\/\d+)|\/proc\/self\/fd\/\d+|\/tmp\/sh-thd.*)$/;
const SECRET_PATH = /\/\.ssh\/|\/environ$|\/\.aws\//;

const DRIVER = `
out="$1"; lines="$2"; first="$3"
i=$first
while IFS= read -r -d '' line; do
  timeout -s KILL 3 strace -f -qq -s 256 -e trace=${TRACED} -o "$out/$i.trace" /bin/bash -c "$line" </dev/null >"$out/$i.out" 2>&1
  i=$((i+1))
done < "$lines"
`;

export function runLines(scratch: Scratch, lines: readonly string[], workers = 2): Promise<Observation[]> {
  const traces = join(scratch.root, 'traces');
  mkdirSync(traces, { recursive: true });
  writeFileSync(join(scratch.root, 'driver.sh'), DRIVER);
  const size = Math.ceil(lines.length / workers);
  const runs: Promise<void>[] = [];
  for (let worker = 0; worker < workers; worker++) {
    const part = lines.slice(worker * size, (worker + 1) * size);
    if (part.length === 0) continue;
    const file = join(scratch.root, `lines-${worker}.bin`);
    writeFileSync(file, part.map((line) => `${line}\0`).join(''));
    runs.push(runWorker(scratch, [join(scratch.root, 'driver.sh'), traces, file, String(worker * size)]));
  }
  return Promise.all(runs).then(() => lines.map((_, index) => observe(scratch, traces, index)));
}

function runWorker(scratch: Scratch, args: readonly string[]): Promise<void> {
  const bubblewrap = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    join(scratch.root, 'traces'),
    join(scratch.root, 'traces'),
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--chdir',
    scratch.workspace,
    '--setenv',
    'HOME',
    scratch.home,
    '--setenv',
    'PATH',
    '/usr/local/bin:/usr/bin:/bin',
    '--setenv',
    'GITHUB_TOKEN',
    scratch.secretValue,
    '--unsetenv',
    'BASH_ENV',
    '--unsetenv',
    'ENV',
    '/bin/bash',
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', bubblewrap, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`bwrap exited ${code}: ${errors.slice(0, 500)}`)),
    );
  });
}

function observe(scratch: Scratch, traces: string, index: number): Observation {
  const file = join(traces, `${index}.trace`);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const executed: string[] = [];
  const writes: string[] = [];
  const secretReads: string[] = [];
  const connects: string[] = [];
  let first = true;
  for (const line of text.split('\n')) {
    const call = /^\d+\s+(\w+)\((.*)$/.exec(line);
    if (call === null) continue;
    const [, name, rest] = call;
    const path = /"((?:[^"\\]|\\.)*)"/.exec(rest!)?.[1] ?? '';
    if (name === 'execve') {
      if (!/\) = 0$/.test(line)) continue;
      if (first) first = false;
      else executed.push(path.split('/').pop()!);
    } else if (name === 'openat') {
      if (/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(rest!) && !HARMLESS_WRITE.test(path)) writes.push(path);
      else if (SECRET_PATH.test(path) && !/ENOENT/.test(rest!)) secretReads.push(path);
    } else if (name === 'connect') {
      if (!/nscd/.test(rest!)) connects.push(rest!.slice(0, 80));
    } else if (!HARMLESS_WRITE.test(path)) writes.push(`${name} ${path}`);
  }
  const outFile = join(traces, `${index}.out`);
  const output = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  return {
    executed,
    writes,
    secretReads,
    connects,
    leaked: output.includes(scratch.secretValue) || output.includes('PRIVATE KEY'),
  };
}
