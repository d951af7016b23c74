import { type ProgramRow, row } from './table.js';

/**
 * Programs that only read what they are pointed at (or nothing at all). Their reads are
 * effects like any other: `cat ~/.ssh/id_rsa` is a read of a secret, which the judge asks
 * about; `cat README.md` is whitelisted. Options that write, run programs or read other
 * files are listed by use. See table.ts for the row format.
 */

/** Options common to GNU readers that name a file listing more files (wc, du, sort). */
const FILES0 = { '--files0-from': 'read' } as const;


/** grep reads its operands (the first is the pattern unless -e/-f gives it); -r reads whole trees. */
const GREP = row('read', { leading: 1, whenNoneRecursive: '.', options: { '-e': 'pattern', '--regexp': 'pattern', '-f': 'pattern-file', '--file': 'pattern-file', '-r': 'recursive', '-R': 'recursive', '--recursive': 'recursive', '--dereference-recursive': 'recursive', '-A': 'data', '-B': 'data', '-C': 'data', '-m': 'data', '--max-count': 'data', '--include': 'data', '--exclude': 'data', '--exclude-dir': 'data', '--exclude-from': 'read', '--label': 'data', '--color': 'flag', '--colour': 'flag', '-d': 'data', '-D': 'data', '--binary-files': 'data' } });

export const READ_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // Print files, whole or in part.
  cat: row('read'),
  tac: row('read'),
  nl: row('read', { options: { '-b': 'data', '-d': 'data', '-f': 'data', '-h': 'data', '-i': 'data', '-l': 'data', '-n': 'data', '-s': 'data', '-v': 'data', '-w': 'data' } }),
  head: row('read', { options: { '-n': 'data', '-c': 'data' } }),
  // tail -f / -F waits for more lines for ever.
  tail: row('read', { options: { '-n': 'data', '-c': 'data', '-s': 'data', '--pid': 'data', '-f': 'follow', '-F': 'follow', '--follow': 'follow', '--retry': 'flag' } }),
  // less and more copy the file when not on a terminal; a `+cmd` word runs a command in them.
  less: row('read', { options: { '-o': 'write', '--log-file': 'write', '-O': 'write', '--LOG-FILE': 'write', '-k': 'read', '--lesskey-file': 'read' } }),
  more: row('read'),
  wc: row('read', { options: { ...FILES0 } }),
  cut: row('read', { options: { '-b': 'data', '-c': 'data', '-d': 'data', '-f': 'data', '--output-delimiter': 'data' } }),
  paste: row('read', { options: { '-d': 'data' } }),
  join: row('read', { options: { '-t': 'data', '-1': 'data', '-2': 'data', '-j': 'data', '-o': 'data', '-e': 'data', '-a': 'data', '-v': 'data' } }),
  comm: row('read'),
  fold: row('read', { options: { '-w': 'data' } }),
  fmt: row('read', { options: { '-w': 'data', '-p': 'data' } }),
  pr: row('read', { options: { '-h': 'data', '-l': 'data', '-w': 'data' } }),
  expand: row('read', { options: { '-t': 'data' } }),
  unexpand: row('read', { options: { '-t': 'data' } }),
  rev: row('read'),
  column: row('read', { options: { '-s': 'data', '-c': 'data', '-o': 'data', '-N': 'data', '-t': 'flag' } }),
  // tr takes character sets, never files: it reads standard input only.
  tr: row('data'),
  diff: row('read', { options: { '--from-file': 'read', '--to-file': 'read', '-x': 'data', '-X': 'read', '--exclude-from': 'read', '-I': 'data', '-U': 'data', '-C': 'data', '-r': 'recursive', '--recursive': 'recursive', '-W': 'data', '--label': 'data', '-L': 'data' } }),
  cmp: row('read', { options: { '-i': 'data', '-n': 'data' } }),
  // Checksums and encodings read their files.
  ...Object.fromEntries(['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'base32', 'base64', 'basenc'].map((name) => [name, row('read', { options: { '-w': 'data' } })])),
  od: row('read', { options: { '-A': 'data', '-j': 'data', '-N': 'data', '-t': 'data', '-w': 'data', '-S': 'data' } }),
  hexdump: row('read', { options: { '-e': 'data', '-f': 'read', '-n': 'data', '-s': 'data' } }),
  // xxd: a second file name is where it writes.
  xxd: row('read', { last: 'write', options: { '-c': 'data', '-g': 'data', '-l': 'data', '-s': 'data', '-o': 'data', '-n': 'data' } }),
  strings: row('read', { options: { '-n': 'data', '-t': 'data', '-e': 'data' } }),
  // uniq: a second file name is where it writes.
  uniq: row('read', { last: 'write', options: { '-f': 'data', '-s': 'data', '-w': 'data' } }),
  // sort -o writes; --compress-program runs a program; -T puts temporary files in a directory.
  sort: row('read', { options: { '-o': 'write', '--output': 'write', '--compress-program': 'run', '-T': 'write', '--temporary-directory': 'write', '-k': 'data', '-t': 'data', '-S': 'data', '--parallel': 'data', '--batch-size': 'data', '--random-source': 'read', ...FILES0 } }),
  shuf: row('read', { options: { '-o': 'write', '--output': 'write', '--random-source': 'read', '-n': 'data', '-i': 'data' } }),
  iconv: row('read', { options: { '-f': 'data', '-t': 'data', '-o': 'write', '--output': 'write' } }),
  // file -C compiles a magic file (writes); -m names the magic file it reads; -f a list of names.
  file: row('read', { options: { '-C': 'unknown', '--compile': 'unknown', '-m': 'read', '--magic-file': 'read', '-f': 'read', '--files-from': 'read', '-F': 'data', '-P': 'data', '-e': 'data' } }),
  // Metadata only: names, sizes, times.
  stat: row('list', { options: { '-c': 'data', '--format': 'data', '--printf': 'data' } }),
  ls: row('list', { whenNone: '.', options: { '-R': 'recursive', '--recursive': 'recursive', '-I': 'data', '--ignore': 'data', '-w': 'data', '-T': 'data', '--hide': 'data', '--block-size': 'data', '--sort': 'data', '--time': 'data', '--time-style': 'data', '--format': 'data', '--color': 'flag', '--quoting-style': 'data', '--indicator-style': 'data' } }),
  dir: row('list', { whenNone: '.', options: { '-R': 'recursive' } }),
  du: row('list', { whenNone: '.', recursive: true, options: { '-d': 'data', '--max-depth': 'data', '-B': 'data', '-t': 'data', '--threshold': 'data', '--exclude': 'data', '-X': 'read', '--exclude-from': 'read', '--time-style': 'data', ...FILES0 } }),
  // tree -o writes its listing; -R with -H writes 00Tree.html into every directory; --fromfile reads listings.
  tree: row('list', { whenNone: '.', recursive: true, options: { '-o': 'write', '-R': 'writes', '--fromfile': 'unknown', '-L': 'data', '-P': 'data', '-I': 'data', '-H': 'data', '-T': 'data', '--charset': 'data', '--filelimit': 'data', '--timefmt': 'data', '--sort': 'data', '-a': 'hidden' }, skipsHidden: true }),
  // Names and paths as text: nothing is read.
  ...Object.fromEntries(['basename', 'dirname', 'realpath', 'readlink', 'pathchk'].map((name) => [name, row('data')])),
  // Text from the words themselves.
  ...Object.fromEntries(['echo', 'printf', 'seq', 'expr', 'true', 'false', 'test', '[', 'sleep', 'factor', 'numfmt'].map((name) => [name, row('data')])),
  // Facts about the machine and the user, no secrets among them.
  ...Object.fromEntries(
    ['ss', 'netstat', 'lsof', 'pwd', 'whoami', 'id', 'groups', 'uname', 'nproc', 'uptime', 'free', 'arch', 'tty', 'locale', 'which', 'whereis', 'type', 'cal', 'df', 'lscpu', 'lsblk', 'lsb_release', 'getconf', 'logname', 'users', 'who', 'w', 'last', 'vmstat', 'iostat', 'mpstat', 'nice', 'ulimit', 'tput', 'clear', 'hostid', 'lsmod', 'dmesg'].map((name) => [name, row('data')]),
  ),
  // hostname NAME sets the machine's name.
  hostname: row('data', { last: 'data', options: { '-F': 'unknown', '--file': 'unknown', '-b': 'unknown', '--boot': 'unknown' } }),
  // getent shadow reads password hashes.
  getent: row('data'),
  // The process list; `ps e`/`ps -E` add each process's environment (custom in programs.ts).
  ps: row('data'),
  pgrep: row('data'),
  pidof: row('data'),
  // Searches: the first operand is the pattern unless -e/-f gives it; -r reads whole trees (of . by default).
  grep: GREP,
  // egrep and fgrep are grep -E and grep -F.
  egrep: GREP,
  fgrep: GREP,
  // ripgrep searches . by default, skipping dotfiles unless --hidden/-./-uu; --pre and --hostname-bin run programs.
  rg: row('read', { leading: 1, whenNone: '.', recursive: true, skipsHidden: true, options: {
    '-e': 'pattern', '--regexp': 'pattern', '-f': 'pattern-file', '--file': 'pattern-file', '--files': 'no-pattern', '--type-list': 'no-pattern',
    '--pre': 'run', '--pre-glob': 'data', '--hostname-bin': 'run', '--hidden': 'hidden', '-.': 'hidden', '-u': 'hidden', '--unrestricted': 'hidden', '--no-ignore': 'hidden',
    '-z': 'runs', '--search-zip': 'runs', '--ignore-file': 'read', '-A': 'data', '-B': 'data', '-C': 'data', '-m': 'data', '-g': 'data', '--glob': 'data', '--iglob': 'data', '-t': 'data', '-T': 'data', '--type': 'data', '--type-not': 'data', '--type-add': 'data', '-M': 'data', '--max-columns': 'data', '-r': 'data', '--replace': 'data', '-j': 'data', '--threads': 'data', '--max-depth': 'data', '-d': 'data', '--sort': 'data', '--sortr': 'data', '--color': 'data', '--colors': 'data', '-E': 'data', '--encoding': 'data', '--max-filesize': 'data', '--path-separator': 'data', '--engine': 'data', '-L': 'flag', '--follow': 'flag',
  } }),
  // fd lists names below . (dotfiles skipped unless -H); -x/-X run a program on every match.
  fd: row('list', { leading: 1, whenNone: '.', recursive: true, skipsHidden: true, options: { '-x': 'run', '--exec': 'run', '-X': 'run', '--exec-batch': 'run', '-H': 'hidden', '--hidden': 'hidden', '-e': 'data', '-t': 'data', '-E': 'data', '-d': 'data', '--max-depth': 'data', '-S': 'data', '--changed-within': 'data', '--changed-before': 'data' } }),
  // Builtins that read files into variables are judged in builtins.ts; these are their program forms.
  printenv: row('data'),
};
