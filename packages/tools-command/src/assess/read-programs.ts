import { SYSTEM_PROGRAMS } from './system-programs.js';
import { type ProgramRow, row } from './table.js';

/**
 * Programs that only read what they are pointed at (or nothing at all). Their reads are
 * effects like any other: `cat ~/.ssh/id_rsa` is a read of a secret, which the judge asks
 * about; `cat README.md` is whitelisted. Options fail closed (issue 18): `flags` lists the
 * options that change nothing riskgate judges, `options` those that take a value, read,
 * write or run; any other option is asked about. `core: true` rows run unasked even without
 * the sandbox (table.ts). The lists are GNU coreutils 9 / grep 3 / ripgrep 14's own.
 */

/** Options common to GNU readers that name a file listing more files (wc, du, sort). */
const FILES0 = { '--files0-from': 'read' } as const;
const DIGITS = '-0123456789';

/** grep reads its operands (the first is the pattern unless -e/-f gives it); -r reads whole trees. */
const GREP = row('read', {
  leading: 1,
  whenNoneRecursive: '.',
  core: true,
  flags: `${DIGITS} -EFGPiyvwxclLoqsbHhnTZzaIU --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --count --files-with-matches --files-without-match --only-matching --quiet --silent --no-messages --byte-offset --with-filename --no-filename --line-number --no-line-number --initial-tab --null --null-data --text --binary --line-buffered --color --colour`,
  options: {
    '-e': 'pattern', '--regexp': 'pattern', '-f': 'pattern-file', '--file': 'pattern-file', '-r': 'recursive', '--recursive': 'recursive',
    // -R follows every symbolic link it meets below (-r only those on the command line).
    '-R': 'recursive-links', '--dereference-recursive': 'recursive-links', '-A': 'data', '-B': 'data', '-C': 'data', '--after-context': 'data', '--before-context': 'data', '--context': 'data',
    '-m': 'data', '--max-count': 'data', '--include': 'data', '--exclude': 'data', '--exclude-dir': 'data', '--exclude-from': 'read', '--label': 'data',
    '-d': 'data', '--directories': 'data', '-D': 'data', '--devices': 'data', '--binary-files': 'data',
  },
});

/** ls and its GNU siblings dir and vdir: names and metadata only; -R lists whole trees. */
const LS = row('list', {
  whenNone: '.',
  core: true,
  flags: '-aAbBcCdDfFgGhHiklLmnNopqQrsStuUvxXZ1 --all --almost-all --author --escape --ignore-backups --directory --dired --classify --file-type --full-time --group-directories-first --no-group --human-readable --si --dereference-command-line --dereference-command-line-symlink-to-dir --hyperlink --inode --kibibytes --dereference --literal --numeric-uid-gid --hide-control-chars --show-control-chars --quote-name --reverse --size --context --zero --color',
  options: {
    '-R': 'recursive', '--recursive': 'recursive', '-L': 'follows-links', '--dereference': 'follows-links', '-I': 'data', '--ignore': 'data', '-w': 'data', '--width': 'data', '-T': 'data', '--tabsize': 'data', '--hide': 'data',
    '--block-size': 'data', '--sort': 'data', '--time': 'data', '--time-style': 'data', '--format': 'data', '--quoting-style': 'data', '--indicator-style': 'data',
  },
});

/** Checksums: -c reads the files a list names (judged as the list's read: the names are data to it). */
const SUMS = row('read', { core: true, flags: '-bctzw --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn' });
/** Encoders: -w takes a column count. */
const ENCODER = row('read', { core: true, flags: '-di --decode --ignore-garbage --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85', options: { '-w': 'data', '--wrap': 'data' } });
/** Words that are never files or options (bash's own builtins of these names are judged in builtins.ts). */
const WORDS_ONLY = row('data', { core: true, custom: () => {} });

export const READ_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // Print files, whole or in part.
  cat: row('read', { core: true, flags: '-AbeEnstTuv --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs --show-nonprinting' }),
  tac: row('read', { core: true, flags: '-br --before --regex', options: { '-s': 'data', '--separator': 'data' } }),
  nl: row('read', { core: true, flags: '-p --no-renumber', options: { '-b': 'data', '-d': 'data', '-f': 'data', '-h': 'data', '-i': 'data', '-l': 'data', '-n': 'data', '-s': 'data', '-v': 'data', '-w': 'data', '--body-numbering': 'data', '--section-delimiter': 'data', '--footer-numbering': 'data', '--header-numbering': 'data', '--line-increment': 'data', '--join-blank-lines': 'data', '--number-format': 'data', '--number-separator': 'data', '--starting-line-number': 'data', '--number-width': 'data' } }),
  head: row('read', { core: true, flags: `${DIGITS} -qvz --quiet --silent --verbose --zero-terminated`, options: { '-n': 'data', '-c': 'data', '--lines': 'data', '--bytes': 'data' } }),
  // tail -f / -F waits for more lines for ever.
  tail: row('read', { core: true, flags: `${DIGITS} -qvz --quiet --silent --verbose --zero-terminated --retry`, options: { '-n': 'data', '-c': 'data', '--lines': 'data', '--bytes': 'data', '-s': 'data', '--sleep-interval': 'data', '--pid': 'data', '--max-unchanged-stats': 'data', '-f': 'follow', '-F': 'follow', '--follow': 'follow' } }),
  // less and more copy the file when not on a terminal; a `+cmd` word runs a command in them (custom-programs.ts).
  less: row('read', { flags: '-aBcCdeEfFgGiIJKLmMnNqQrRsSuUVwWXz --RAW-CONTROL-CHARS --raw-control-chars --chop-long-lines --LINE-NUMBERS --line-numbers --quit-if-one-screen --no-init --ignore-case --IGNORE-CASE --squeeze-blank-lines --quiet --silent', options: { '-o': 'write', '--log-file': 'write', '-O': 'write', '--LOG-FILE': 'write', '-k': 'read', '--lesskey-file': 'read', '-x': 'data', '--tabs': 'data', '-h': 'data', '-y': 'data', '-b': 'data', '-j': 'data', '-p': 'data', '-P': 'data', '-t': 'data', '-T': 'read' } }),
  more: row('read', { flags: '-dflcpsu --silent --logical --no-pause --print-over --clean-print --squeeze --plain', options: { '-n': 'data', '--lines': 'data' } }),
  wc: row('read', { core: true, flags: '-cmlLw --bytes --chars --lines --max-line-length --words --total', options: { ...FILES0 } }),
  cut: row('read', { core: true, flags: '-nsz --complement --only-delimited --zero-terminated', options: { '-b': 'data', '-c': 'data', '-d': 'data', '-f': 'data', '--bytes': 'data', '--characters': 'data', '--delimiter': 'data', '--fields': 'data', '--output-delimiter': 'data' } }),
  paste: row('read', { core: true, flags: '-sz --serial --zero-terminated', options: { '-d': 'data', '--delimiters': 'data' } }),
  join: row('read', { core: true, flags: '-iz --ignore-case --check-order --nocheck-order --header --zero-terminated', options: { '-t': 'data', '-1': 'data', '-2': 'data', '-j': 'data', '-o': 'data', '-e': 'data', '-a': 'data', '-v': 'data' } }),
  comm: row('read', { core: true, flags: '-123z --check-order --nocheck-order --total --zero-terminated', options: { '--output-delimiter': 'data' } }),
  fold: row('read', { core: true, flags: '-bs --bytes --spaces', options: { '-w': 'data', '--width': 'data' } }),
  fmt: row('read', { core: true, flags: `${DIGITS} -cstu --crown-margin --split-only --tagged-paragraph --uniform-spacing`, options: { '-w': 'data', '--width': 'data', '-p': 'data', '--prefix': 'data', '-g': 'data', '--goal': 'data' } }),
  pr: row('read', { flags: `${DIGITS} -adfFmrtTJ --across --double-space --form-feed --merge --no-file-warnings --omit-header --omit-pagination --join-lines`, options: { '-h': 'data', '--header': 'data', '-l': 'data', '--length': 'data', '-w': 'data', '--width': 'data', '-W': 'data', '--page-width': 'data', '-o': 'data', '--indent': 'data' } }),
  expand: row('read', { core: true, flags: '-i --initial', options: { '-t': 'data', '--tabs': 'data' } }),
  unexpand: row('read', { core: true, flags: '-a --all --first-only', options: { '-t': 'data', '--tabs': 'data' } }),
  rev: row('read', { core: true }),
  column: row('read', { core: true, flags: '-tJxneLR --table --json --fillrows --table-noextreme --keep-empty-lines --table-noheadings', options: { '-s': 'data', '--separator': 'data', '-c': 'data', '--output-width': 'data', '-o': 'data', '--output-separator': 'data', '-N': 'data', '--table-columns': 'data', '-R': 'data', '--table-right': 'data', '-W': 'data', '--table-wrap': 'data', '-H': 'data', '--table-hide': 'data', '-E': 'data', '-O': 'data', '-r': 'data', '-d': 'flag' } }),
  // tr takes character sets, never files: it reads standard input only.
  tr: row('data', { core: true, flags: '-cCdst --complement --delete --squeeze-repeats --truncate-set1' }),
  diff: row('read', {
    core: true,
    flags: '-qscuenyltTNabBEiwZdp --brief --report-identical-files --context --unified --ed --normal --rcs --side-by-side --left-column --suppress-common-lines --show-c-function --new-file --unidirectional-new-file --ignore-case --ignore-tab-expansion --ignore-trailing-space --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-file-name-case --no-ignore-file-name-case --text --strip-trailing-cr --minimal --speed-large-files --expand-tabs --initial-tab --suppress-blank-empty --no-dereference --color',
    options: {
      '--from-file': 'read', '--to-file': 'read', '-x': 'data', '--exclude': 'data', '-X': 'read', '--exclude-from': 'read', '-I': 'data', '--ignore-matching-lines': 'data',
      // -r follows the symbolic links it meets (GNU diff dereferences unless --no-dereference).
      '-U': 'data', '-C': 'data', '-r': 'recursive-links', '--recursive': 'recursive-links', '-W': 'data', '--width': 'data', '--label': 'data', '-L': 'data', '-F': 'data',
      '--show-function-line': 'data', '-S': 'data', '--starting-file': 'data', '-D': 'data', '--ifdef': 'data', '--tabsize': 'data', '--horizon-lines': 'data',
      '--palette': 'data', '--line-format': 'data', '--old-line-format': 'data', '--new-line-format': 'data', '--unchanged-line-format': 'data',
      '--old-group-format': 'data', '--new-group-format': 'data', '--changed-group-format': 'data', '--unchanged-group-format': 'data',
    },
  }),
  cmp: row('read', { core: true, flags: '-bls --print-bytes --verbose --quiet --silent', options: { '-i': 'data', '--ignore-initial': 'data', '-n': 'data', '--bytes': 'data' } }),
  // Checksums and encodings read their files.
  ...Object.fromEntries(['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum'].map((name) => [name, SUMS])),
  b2sum: row('read', { core: true, flags: '-bctzw --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn', options: { '-l': 'data', '--length': 'data' } }),
  cksum: row('read', { core: true, flags: '-cz --check --zero --base64 --raw --tag --untagged --debug --ignore-missing --quiet --status --strict --warn', options: { '-a': 'data', '--algorithm': 'data', '-l': 'data', '--length': 'data' } }),
  sum: row('read', { core: true, flags: '-rs --sysv' }),
  ...Object.fromEntries(['base32', 'base64', 'basenc'].map((name) => [name, ENCODER])),
  od: row('read', { core: true, flags: '-abcdfilosxv --output-duplicates --traditional', options: { '-A': 'data', '--address-radix': 'data', '-j': 'data', '--skip-bytes': 'data', '-N': 'data', '--read-bytes': 'data', '-t': 'data', '--format': 'data', '-w': 'optional', '--width': 'optional', '-S': 'data', '--strings': 'optional', '--endian': 'data' } }),
  hexdump: row('read', { core: true, flags: '-bcCdoxvL', options: { '-e': 'data', '-f': 'read', '-n': 'data', '-s': 'data' } }),
  // xxd: a second file name is where it writes.
  // xxd [options] [infile [outfile]]: options only before the first operand.
  xxd: row('read', { last: 'write', stopsAtOperand: true, core: true, flags: '-abCEeipruvdhR', options: { '-ps': 'flag', '-plain': 'flag', '-postscript': 'flag', '-include': 'flag', '-bits': 'flag', '-revert': 'flag', '-uppercase': 'flag', '-c': 'data', '-cols': 'data', '-g': 'data', '-groupsize': 'data', '-l': 'data', '-len': 'data', '-s': 'data', '-seek': 'data', '-o': 'data', '-offset': 'data', '-n': 'data', '-name': 'data' } }),
  strings: row('read', { core: true, flags: `${DIGITS} -adfwT --all --data --print-file-name --include-all-whitespace`, options: { '-n': 'data', '--bytes': 'data', '-t': 'data', '--radix': 'data', '-e': 'data', '--encoding': 'data', '-s': 'data', '--output-separator': 'data', '-U': 'data', '--unicode': 'data', '--target': 'data' } }),
  // uniq: a second file name is where it writes.
  uniq: row('read', { last: 'write', core: true, flags: '-cdDiuz --count --repeated --all-repeated --ignore-case --unique --zero-terminated --group', options: { '-f': 'data', '--skip-fields': 'data', '-s': 'data', '--skip-chars': 'data', '-w': 'data', '--check-chars': 'data' } }),
  // sort -o writes; --compress-program runs a program; -T puts temporary files in a directory.
  sort: row('read', {
    core: true,
    flags: '-bdfgihMnRrVcCmsuz --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --human-numeric-sort --month-sort --numeric-sort --random-sort --reverse --version-sort --check --merge --stable --unique --zero-terminated --debug',
    options: { '-o': 'write', '--output': 'write', '--compress-program': 'run', '-T': 'write', '--temporary-directory': 'write', '-k': 'data', '--key': 'data', '-t': 'data', '--field-separator': 'data', '-S': 'data', '--buffer-size': 'data', '--sort': 'data', '--parallel': 'data', '--batch-size': 'data', '--random-source': 'read', ...FILES0 },
  }),
  // shuf -r repeats for ever (unless -n bounds it).
  shuf: row('read', { core: true, flags: '-ez --echo --zero-terminated', options: { '-o': 'write', '--output': 'write', '--random-source': 'read', '-n': 'data', '--head-count': 'data', '-i': 'data', '--input-range': 'data', '-r': 'follow', '--repeat': 'follow' } }),
  iconv: row('read', { core: true, flags: '-cls --silent --list --verbose', options: { '-f': 'data', '--from-code': 'data', '-t': 'data', '--to-code': 'data', '-o': 'write', '--output': 'write' } }),
  // file -C compiles a magic file (writes); -m names the magic file it reads; -f a list of names; -p resets access times.
  file: row('read', { core: true, flags: '-bcdEhiklLNnrsvzZ0 --brief --checking-printout --debug --mime --mime-type --mime-encoding --keep-going --dereference --no-dereference --raw --special-files --uncompress --uncompress-noreport --no-buffer --no-pad --print0 --extension --apple', options: { '-C': 'unknown', '--compile': 'unknown', '-m': 'read', '--magic-file': 'read', '-f': 'read', '--files-from': 'read', '-F': 'data', '--separator': 'data', '-P': 'data', '--parameter': 'data', '-e': 'data', '--exclude': 'data', '--exclude-quiet': 'data' } }),
  // Metadata only: names, sizes, times.
  stat: row('list', { core: true, flags: '-Lft --dereference --file-system --terse', options: { '-c': 'data', '--format': 'data', '--printf': 'data', '--cached': 'data' } }),
  ls: LS,
  dir: LS,
  vdir: LS,
  du: row('list', { whenNone: '.', recursive: true, core: true, flags: '-0abcDhHklLmPsSx --null --all --apparent-size --bytes --total --dereference-args --human-readable --si --count-links --dereference --no-dereference --summarize --separate-dirs --one-file-system --inodes', options: { '-L': 'follows-links', '--dereference': 'follows-links', '-d': 'data', '--max-depth': 'data', '-B': 'data', '--block-size': 'data', '-t': 'data', '--threshold': 'data', '--exclude': 'data', '-X': 'read', '--exclude-from': 'read', '--time': 'optional', '--time-style': 'data', ...FILES0 } }),
  // tree -o writes its listing; -R with -H writes 00Tree.html into every directory; --fromfile reads listings.
  tree: row('list', { whenNone: '.', recursive: true, skipsHidden: true, core: true, flags: '-dlfxiqNQpugshDFvtcUrnCAS --noreport --dirsfirst --filesfirst --du --si --prune --inodes --device --matchdirs --ignore-case --gitignore -J -X --nolinks', options: { '-l': 'follows-links', '-a': 'hidden', '-o': 'write', '-R': 'writes', '--fromfile': 'unknown', '-L': 'data', '-P': 'data', '-I': 'data', '-H': 'data', '-T': 'data', '--charset': 'data', '--filelimit': 'data', '--timefmt': 'data', '--sort': 'data', '--hintro': 'read', '--houtro': 'read' } }),
  // Names and paths as text: nothing is read.
  basename: row('data', { core: true, flags: '-az --multiple --zero', options: { '-s': 'data', '--suffix': 'data' } }),
  dirname: row('data', { core: true, flags: '-z --zero' }),
  realpath: row('data', { core: true, flags: '-emLPqsz --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero', options: { '--relative-to': 'data', '--relative-base': 'data' } }),
  readlink: row('data', { core: true, flags: '-femnqsvz --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero' }),
  pathchk: row('data', { core: true, flags: '-pP --portability' }),
  // Text from the words themselves: /bin/echo prints unknown options as text, test takes -f as an operator.
  ...Object.fromEntries(['echo', 'printf', 'expr', 'true', 'false', 'test', '[', 'factor'].map((name) => [name, WORDS_ONLY])),
  seq: row('data', { core: true, flags: `${DIGITS} -w --equal-width`, options: { '-f': 'data', '--format': 'data', '-s': 'data', '--separator': 'data' } }),
  // sleep's words are durations (`sleep infinity` is for ever: bounded by the call's timeout).
  sleep: WORDS_ONLY,
  numfmt: row('data', { core: true, flags: '-z --debug --grouping --zero-terminated', options: { '-d': 'data', '--delimiter': 'data', '--field': 'data', '--format': 'data', '--from': 'data', '--from-unit': 'data', '--header': 'data', '--invalid': 'data', '--padding': 'data', '--round': 'data', '--suffix': 'data', '--to': 'data', '--to-unit': 'data' } }),
  // Searches: the first operand is the pattern unless -e/-f gives it; -r reads whole trees (of . by default).
  grep: GREP,
  // egrep and fgrep are grep -E and grep -F.
  egrep: GREP,
  fgrep: GREP,
  // ripgrep searches . by default, skipping dotfiles unless --hidden/-./-uu; --pre and --hostname-bin run programs.
  rg: row('read', {
    leading: 1,
    whenNone: '.',
    recursive: true,
    skipsHidden: true,
    core: true,
    flags: `${DIGITS} -iSsvwxclnNHIopqFUabLP --ignore-case --case-sensitive --smart-case --invert-match --word-regexp --line-regexp --count --count-matches --files-with-matches --files-without-match --line-number --no-line-number --with-filename --no-filename --only-matching --pretty --quiet --fixed-strings --multiline --multiline-dotall --text --byte-offset --null --null-data --heading --no-heading --vimgrep --json --stats --trim --column --no-column --no-messages --no-ignore-messages --no-ignore-vcs --no-ignore-parent --no-ignore-dot --no-ignore-global --no-ignore-exclude --no-ignore-files --one-file-system --follow --no-follow --crlf --passthru --passthrough --no-config --debug --trace --sort-files --auto-hybrid-regex --pcre2 --no-pcre2-unicode --no-unicode --binary --no-binary --include-zero --line-buffered --block-buffered --no-hidden --max-columns-preview --glob-case-insensitive --ignore-file-case-insensitive --no-require-git --ignore --mmap --no-mmap --color --no-search-zip`,
    options: {
      '-e': 'pattern', '--regexp': 'pattern', '-f': 'pattern-file', '--file': 'pattern-file', '--files': 'no-pattern', '--type-list': 'no-pattern',
      // -L follows symbolic links below the directories searched.
      '-L': 'follows-links', '--follow': 'follows-links',
      '--pre': 'run', '--pre-glob': 'data', '--hostname-bin': 'run', '--hidden': 'hidden', '-.': 'hidden', '-u': 'hidden', '--unrestricted': 'hidden', '--no-ignore': 'hidden',
      '-z': 'runs', '--search-zip': 'runs', '--ignore-file': 'read', '-A': 'data', '-B': 'data', '-C': 'data', '--after-context': 'data', '--before-context': 'data', '--context': 'data',
      '-m': 'data', '--max-count': 'data', '-g': 'data', '--glob': 'data', '--iglob': 'data', '-t': 'data', '-T': 'data', '--type': 'data', '--type-not': 'data', '--type-add': 'data', '--type-clear': 'data',
      '-M': 'data', '--max-columns': 'data', '-r': 'data', '--replace': 'data', '-j': 'data', '--threads': 'data', '--max-depth': 'data', '-d': 'data', '--sort': 'data', '--sortr': 'data',
      '--colors': 'data', '-E': 'data', '--encoding': 'data', '--max-filesize': 'data', '--path-separator': 'data', '--engine': 'data', '--context-separator': 'data',
      '--field-match-separator': 'data', '--field-context-separator': 'data', '--dfa-size-limit': 'data', '--regex-size-limit': 'data', '--generate': 'data', '--hyperlink-format': 'data',
    },
  }),
  // fd lists names below . (dotfiles skipped unless -H); -x/-X run a program on every match.
  fd: row('list', { leading: 1, whenNone: '.', recursive: true, skipsHidden: true, flags: '-IusigFaLpl01q --no-ignore --no-ignore-vcs --case-sensitive --ignore-case --glob --regex --fixed-strings --absolute-path --list-details --follow --full-path --print0 --quiet --show-errors --prune --no-hidden --one-file-system', options: { '-L': 'follows-links', '--follow': 'follows-links', '-x': 'run', '--exec': 'run', '-X': 'run', '--exec-batch': 'run', '-H': 'hidden', '--hidden': 'hidden', '-e': 'data', '--extension': 'data', '-t': 'data', '--type': 'data', '-E': 'data', '--exclude': 'data', '-d': 'data', '--max-depth': 'data', '--min-depth': 'data', '--exact-depth': 'data', '-S': 'data', '--size': 'data', '--changed-within': 'data', '--changed-before': 'data', '-o': 'data', '--owner': 'data', '-c': 'data', '--color': 'data', '-j': 'data', '--threads': 'data', '--max-results': 'data', '--format': 'data', '--ignore-file': 'read', '--search-path': 'list', '--base-directory': 'list' } }),
  bc: row('read', { core: true, flags: '-lqswi --mathlib --quiet --standard --warn --interactive', options: { '-f': 'read', '--file': 'read', '-e': 'data', '--expression': 'data' } }),
  ...SYSTEM_PROGRAMS,
};
