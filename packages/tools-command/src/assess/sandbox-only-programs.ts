import { READ_PROGRAMS } from './read-programs.js';
import { type ProgramRow, row } from './table.js';

/**
 * Programs that read only, in the forms below, but that riskgate whitelists ONLY inside its
 * sandbox (issue 12: a whitelist people do not fight). Each was run under strace -f in the
 * sandbox (test/sandbox-only-commands.test.ts, examples in sandbox-only-commands.ts) and tried
 * no write, connection or program start outside its row's allowed set. The sandbox is what
 * makes them safe to whitelist without reading every option of theirs: a form this table gets
 * wrong fails on the read-only filesystem instead of doing harm.
 */
const DIGITS = '-0123456789';
/** ack's file-type filters (`--ts`, `--nopython`): the common ones; any other long option is asked about. */
const ACK_TYPES = [
  'ts',
  'js',
  'python',
  'ruby',
  'perl',
  'cc',
  'cpp',
  'java',
  'go',
  'rust',
  'shell',
  'html',
  'css',
  'json',
  'yaml',
  'markdown',
  'md',
  'php',
  'sql',
  'xml',
  'csharp',
  'kotlin',
  'swift',
]
  .flatMap((type) => [`--${type}`, `--no${type}`])
  .join(' ');

export const SANDBOX_ONLY_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // The silver searcher and ack search files like grep: the first operand is the pattern.
  // --pager starts a program; ack's --output takes a Perl expression.
  ag: row('read', {
    leading: 1,
    whenNone: '.',
    recursive: true,
    skipsHidden: true,
    sandboxOnly: true,
    flags: `${DIGITS} -iIsSvwxlLcQfzUaDnNHoqt0 --ignore-case --case-sensitive --smart-case --invert-match --word-regexp --files-with-matches --files-without-matches --count --literal --follow --search-zip --all-text --all-types --nocolor --color --nogroup --group --noheading --heading --numbers --nonumbers --column --filename --nofilename --only-matching --print-long-lines --silent --stats --null --one-device --vimgrep --ackmate --no-pager --nopager`,
    options: {
      '--pager': 'run',
      '--hidden': 'hidden',
      '-u': 'hidden',
      '--unrestricted': 'hidden',
      '-G': 'data',
      '--ignore': 'data',
      '-A': 'data',
      '-B': 'data',
      '-C': 'data',
      '-m': 'data',
      '-p': 'read',
      '--path-to-ignore': 'read',
    },
    match: ['ag -i todo src', 'ag a.txt'],
    notMatch: ['ag --pager ./x a.txt'],
  }),
  ack: row('read', {
    leading: 1,
    whenNone: '.',
    recursive: true,
    skipsHidden: true,
    sandboxOnly: true,
    flags: `${DIGITS} -iIsvwxlLcQfhHnokr1 --ignore-case --smart-case --invert-match --word-regexp --line-regexp --files-with-matches --files-without-matches --count --literal --follow --nofollow --nocolor --color --noheading --heading --nofilter --filter --column --nocolumn --with-filename --no-filename --break --nobreak --group --nogroup --sort-files --nopager --noenv --recurse --no-recurse --known-types ${ACK_TYPES}`,
    options: {
      '--pager': 'run',
      '--output': 'unknown',
      '--type': 'data',
      '-A': 'data',
      '-B': 'data',
      '-C': 'data',
      '-m': 'data',
      '--ackrc': 'read',
    },
    match: ['ack a.txt', 'ack'],
    notMatch: ['ack --pager ./x a.txt'],
  }),
  // Debian's name for fd: the same row, in the sandbox only.
  fdfind: {
    ...READ_PROGRAMS.fd!,
    sandboxOnly: true,
    match: ['fdfind a.txt', 'fdfind'],
    notMatch: ['fdfind -x rm -f', 'fdfind . -X rm'],
  },
  // PCI and USB listings read /sys; -F reads a dump file, -i/-p name a database.
  lspci: row('data', {
    sandboxOnly: true,
    flags: '-mtvkxbDPnqQMJ --json',
    options: {
      '-F': 'read',
      '-i': 'read',
      '-p': 'read',
      '-s': 'data',
      '-d': 'data',
      '-A': 'data',
      '-O': 'data',
      '-H': 'unknown',
    },
    match: ['lspci', 'lspci -v -nn'],
  }),
  lsusb: row('data', {
    sandboxOnly: true,
    flags: '-vt --verbose --tree',
    options: { '-s': 'data', '-d': 'data', '-D': 'read' },
    match: ['lsusb -t', 'lsusb'],
  }),
  // The manual index.
  whatis: row('data', {
    sandboxOnly: true,
    flags: '-drwl --debug --regex --wildcard --long --verbose',
    options: { '-M': 'read', '-C': 'read', '-s': 'data', '-m': 'data', '-L': 'data' },
    match: ['whatis ls', 'whatis'],
  }),
  apropos: row('data', {
    sandboxOnly: true,
    flags: '-drwea --debug --regex --wildcard --exact --and --long --verbose',
    options: { '-M': 'read', '-C': 'read', '-s': 'data', '-m': 'data', '-L': 'data' },
    match: ['apropos directory', 'apropos'],
  }),
  // The process tree, from /proc (the sandbox's own processes only).
  pstree: row('data', {
    sandboxOnly: true,
    flags:
      '-aAcClgGhnNpsStTuUZ --arguments --ascii --compact-not --show-pgids --highlight-all --long --numeric-sort --show-pids --show-parents --thread-names --hide-threads --uid-changes --unicode --vt100 --security-context',
    match: ['pstree -p', 'pstree'],
  }),
  // bat prints files; `bat cache --build|--clear` writes its cache, --pager starts a program.
  ...Object.fromEntries(
    ['bat', 'batcat'].map((name) => [
      name,
      row('read', {
        sandboxOnly: true,
        flags:
          '-pnAPuSf --plain --number --show-all --no-paging --unbuffered --squeeze-blank --force-colorization --list-languages --list-themes --diagnostic --no-config --color --decorations --paging --italic-text',
        options: {
          '--pager': 'run',
          '--build': 'unknown',
          '-b': 'unknown',
          '--clear': 'unknown',
          '-c': 'unknown',
          '-l': 'data',
          '--language': 'data',
          '-r': 'data',
          '--line-range': 'data',
          '--style': 'data',
          '--theme': 'data',
          '-H': 'data',
          '--highlight-line': 'data',
          '--map-syntax': 'data',
          '--file-name': 'data',
          '--tabs': 'data',
          '--wrap': 'data',
          '--terminal-width': 'data',
          '--config-file': 'read',
        },
        match: [`${name} -p notes.txt`, `${name} -n a.txt`],
        notMatch: [`${name} --pager=vim notes.txt`, `${name} cache --build`],
      }),
    ]),
  ),
  // eza and exa list directories like ls.
  ...Object.fromEntries(
    ['eza', 'exa'].map((name) => [
      name,
      row('list', {
        whenNone: '.',
        sandboxOnly: true,
        flags:
          '-lhgHiSbBmuUxF1GdDrMnoOXZ@ --long --header --group --links --inode --blocks --bytes --binary --modified --accessed --created --changed --across --classify --oneline --grid --list-dirs --only-dirs --only-files --reverse --numeric --octal-permissions --no-permissions --no-filesize --no-user --no-time --git --git-repos --no-git --icons --no-icons --hyperlink --dereference --group-directories-first --extended --context --time-style --absolute --smart-group --color-scale --colour',
        options: {
          '-L': 'data',
          '--level': 'data',
          '-s': 'data',
          '--sort': 'data',
          '-I': 'data',
          '--ignore-glob': 'data',
          '--color': 'data',
          '--time-style': 'data',
          '-T': 'recursive',
          '--tree': 'recursive',
          '-R': 'recursive',
          '--recurse': 'recursive',
          '-a': 'hidden',
          '--all': 'hidden',
        },
        match: [`${name} -l`, `${name} -la src`],
      }),
    ]),
  ),
  // Perl's checksum tool: reads its operands (-c reads a list of sums).
  shasum: row('read', {
    sandboxOnly: true,
    flags: '-btUs0 --binary --text --UNIVERSAL --status --strict --warn --quiet --tag --check',
    options: { '-a': 'data', '--algorithm': 'data', '-c': 'flag' },
    match: ['shasum -a 256 notes.txt', 'shasum a.txt'],
  }),
  // The dpkg database by query; -f/--showformat is a format string.
  'dpkg-query': row('data', {
    sandboxOnly: true,
    flags: '-lWsLSp --list --show --status --listfiles --search --print-avail',
    options: { '-f': 'data', '--showformat': 'data', '--admindir': 'read', '--root': 'read', '--load-avail': 'flag' },
    match: ['dpkg-query', 'dpkg-query a.txt'],
  }),
};
