import type { SandboxOnlyRow } from './sandbox-only-commands.js';

/**
 * Verification data for the long tail's rows (src/assess/long-tail.ts, help-version.ts): examples
 * that test/sandbox-only-commands.test.ts runs in the real sandbox under `strace -f`, failing on
 * any attempted write, connection or program start outside the allowed set — the operating
 * system's word that these forms only read. Examples of programs missing on a machine are
 * skipped there; the ones below cover every row kind whose program this project's CI image has.
 */
/** A repository made by hand in the sandbox's /tmp, with one commit, then entered. */
const SCRATCH_REPOSITORY = [
  'mkdir /tmp/r /tmp/r/.git /tmp/r/.git/objects /tmp/r/.git/refs /tmp/r/.git/refs/heads',
  'echo ref: refs/heads/main > /tmp/r/.git/HEAD',
  'GIT_DIR=/tmp/r/.git git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x',
  'cd /tmp/r && ',
].join(' && ');

export const LONG_TAIL_COMMANDS: readonly SandboxOnlyRow[] = [
  // --help / --version of programs riskgate has no row for.
  {
    program: '*',
    forms: ['--help', '-h', '--version', '-V'],
    why: 'usage or version of any program, in the sandbox',
    starts: ['rustc', 'rustup', 'cmake'],
    examples: [
      'cmake --help',
      'cmake -h',
      'bwrap --help',
      'tmux -V',
      'rustc --version',
      'make --version',
      'gcc --version',
    ],
  },
  // util-linux listers of /proc and /sys (the sandbox's own namespaces).
  {
    program: 'ipcs',
    forms: ['...'],
    options: ['-a', '-m', '-q', '-s', '-b', '-c', '-p', '-t', '-u', '-l'],
    why: 'System V IPC tables from /proc/sysvipc',
    examples: ['ipcs -a', 'ipcs -m -p'],
  },
  { program: 'lsipc', forms: ['...'], options: ['-g', '-J', '-m'], why: 'IPC tables', examples: ['lsipc', 'lsipc -J'] },
  {
    program: 'lsns',
    forms: ['...'],
    options: ['-J', '-t', '-o'],
    why: 'namespaces from /proc',
    examples: ['lsns', 'lsns -J -t pid'],
  },
  {
    program: 'lslocks',
    forms: ['...'],
    options: ['-J', '-o', '-p'],
    why: 'file locks from /proc/locks',
    examples: ['lslocks', 'lslocks -J'],
  },
  {
    program: 'lsfd',
    forms: ['...'],
    options: ['-J', '-p', '-o'],
    why: 'open files from /proc',
    examples: ['lsfd -p 1'],
  },
  {
    program: 'lsmem',
    forms: ['...'],
    options: ['-a', '-J', '--summary'],
    why: 'memory blocks from /sys',
    examples: ['lsmem', 'lsmem -J'],
  },
  {
    program: 'findmnt',
    forms: ['...'],
    options: ['-l', '-J', '-t', '-o', '-D', '-s'],
    why: 'mounts from /proc/self/mountinfo; --poll is left out',
    examples: ['findmnt -l', 'findmnt -J -t proc', 'findmnt -D'],
  },
  {
    program: 'namei',
    forms: ['*'],
    options: ['-l', '-m', '-o'],
    why: 'each component of a path',
    examples: ['namei -l /etc/hostname'],
  },
  {
    program: 'lsattr',
    forms: ['*'],
    options: ['-d', '-a'],
    why: 'file attributes (an ioctl that reads)',
    examples: ['lsattr notes.txt', 'lsattr -d .'],
  },
  // Object files.
  {
    program: 'objdump',
    forms: ['* *'],
    options: ['-f', '-h', '-x', '-d', '-t', '-T', '-s'],
    why: 'headers, symbols and disassembly',
    examples: ['objdump -f /bin/ls', 'objdump -h /bin/ls', 'objdump -d /bin/true | head -n 20'],
  },
  {
    program: 'readelf',
    forms: ['* *'],
    options: ['-a', '-h', '-S', '-s', '-d'],
    why: 'ELF headers and tables',
    examples: ['readelf -h /bin/ls', 'readelf --symbols /bin/true | head -n 5'],
  },
  {
    program: 'nm',
    forms: ['* *'],
    options: ['-D', '-C', '-g', '-u'],
    why: 'symbol tables',
    examples: ['nm -D /bin/true | head -n 5'],
  },
  { program: 'size', forms: ['*'], options: ['-A', '-t'], why: 'section sizes', examples: ['size /bin/ls'] },
  {
    program: 'c++filt',
    forms: ['*'],
    why: 'demangles names given as words',
    examples: ['c++filt _ZNSt6vectorIiSaIiEE9push_backERKi'],
  },
  {
    program: 'addr2line',
    forms: ['-e * *'],
    options: ['-f', '-C'],
    why: 'addresses to source lines',
    examples: ['addr2line -e /bin/true -f 0x1000'],
  },
  {
    program: 'zipinfo',
    forms: ['*'],
    options: ['-1', '-l'],
    why: 'lists an archive',
    examples: ['zipinfo /dev/null 2>&1 || true'],
  },
  {
    program: '7z',
    forms: ['l *'],
    options: ['-slt', '-ba', '-t'],
    why: 'lists an archive; the other commands write',
    examples: ['7z l /dev/null 2>&1 || true'],
  },
  // Diff viewers and word lists.
  {
    program: 'sdiff',
    forms: ['* *'],
    options: ['-s', '-w'],
    why: 'side-by-side diff to stdout (-o and --diff-program left out)',
    starts: ['diff'],
    examples: ['sdiff -s notes.txt notes.txt'],
  },
  {
    program: 'diff3',
    forms: ['* * *'],
    options: ['-m', '-e'],
    why: 'three-way diff to stdout',
    starts: ['diff'],
    examples: ['diff3 notes.txt notes.txt notes.txt'],
  },
  {
    program: 'look',
    forms: ['* *'],
    options: ['-f'],
    why: 'prefix search in a sorted file',
    examples: ['look a notes.txt'],
  },
  // git reads the overlay lets through (a scratch repository in the sandbox's own /tmp).
  {
    program: 'git',
    forms: [
      'bisect log',
      'notes list|show',
      'reflog REF',
      'branch --contains REV',
      'hash-object FILE',
      'check-ref-format',
      'verify-pack FILE',
    ],
    // Each builds a scratch repository by hand in the sandbox's own /tmp (absolute paths, which the
    // check allows; `git init` probes symlinks with a relative name), then reads it. git bisect is a
    // shell script on some versions: its helpers are listed.
    why: 'reads of the repository; the same subcommands write in other forms',
    starts: ['git', 'cd', 'mkdir', 'echo', 'git-bisect', 'basename', 'sed', 'gettext', 'envsubst', 'uname'],
    examples: [
      `${SCRATCH_REPOSITORY}git notes list`,
      `${SCRATCH_REPOSITORY}git reflog HEAD --max-count 5`,
      `${SCRATCH_REPOSITORY}git branch --all --contains HEAD`,
      'git hash-object notes.txt',
      'git check-ref-format --branch main',
      'git bisect log 2>&1 || true',
    ],
    // The same reads without the scratch repository the strace run builds first (its mkdir and commit write).
    match: [
      'git notes list',
      'git reflog HEAD --max-count 5',
      'git branch --all --contains HEAD',
      'git hash-object notes.txt',
      'git check-ref-format --branch main',
      'git bisect log 2>&1 || true',
    ],
    notMatch: ['git hash-object -w notes.txt', 'git notes add -m x'],
  },
  // Package queries of the local database.
  {
    program: 'dpkg',
    forms: ['-l *', '-L *', '-S *', '-s *', '--print-architecture'],
    why: 'reads the dpkg database',
    starts: ['dpkg-query'],
    examples: ['dpkg -l bash', 'dpkg --listfiles bash | head -n 3', 'dpkg -S /bin/ls', 'dpkg --print-architecture'],
  },
];
