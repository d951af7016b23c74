import { closedRow, flags, values } from './closed-row.js';
import { type ProgramRow, withExamples } from './table.js';

/**
 * Listers and inspectors of the long tail (issue 18, item 5): programs that print what they read —
 * kernel tables, file metadata, object files, media headers, line counts — whitelisted only in
 * the sandbox and only with the options below (closedRow: any other option asks). Options that
 * write (`-o FILE`, `--report-file`), run a program (`--pager`, cloc's `--vcs`, sdiff's
 * `--diff-program`), loop for ever (`findmnt --poll`) or change state (`sensors -s`) are left out
 * on purpose. Each program's examples run under strace in src/long-tail-commands.ts.
 *
 * The sandbox has its own PID and IPC namespaces: ipcs, lsipc, lsns, lslocks and lsfd there see
 * the sandbox's own processes and IPC objects, not the host's (docs/commands.md, "The long tail").
 */

const HELP = flags('-h', '--help', '-V', '--version');
const JSON_TABLE = {
  ...flags('-J --json -n --noheadings -r --raw -u --notruncate -b --bytes --output-all'),
  ...values('-o --output'),
};

export const LISTER_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // System V IPC objects (/proc/sysvipc) and the util-linux listers of /proc: tables to stdout.
  ipcs: withExamples(
    closedRow('data', {
      ...HELP,
      ...flags('-a --all -m --shmems -q --queues -s --semaphores -b --bytes -c --creator -p --pid -t'),
      ...flags('--time -u --summary -l --limits --human'),
      ...values('-i --id'),
    }),
    { judged: 'read', match: ['ipcs -a', 'ipcs -m -p'] },
  ),
  lsipc: withExamples(
    closedRow('data', {
      ...HELP,
      ...JSON_TABLE,
      ...flags('-g --global -l --list -e --export -c --creator -m --shmems -q --queues -s'),
      ...flags('--semaphores -t --time -P --numeric-perms -y --shell'),
      ...values('-i --id --time-format'),
    }),
    { judged: 'read', match: ['lsipc -g', 'lsipc'] },
  ),
  lsns: withExamples(
    closedRow('data', {
      ...HELP,
      ...JSON_TABLE,
      ...flags('-l --list -W --nowrap -T --tree -P --persistent'),
      ...values('-p --task -t --type'),
    }),
    { judged: 'read', match: ['lsns -J -t pid', 'lsns'] },
  ),
  lslocks: withExamples(
    closedRow('data', { ...HELP, ...JSON_TABLE, ...flags('-i --noinaccessible'), ...values('-p --pid') }),
    { judged: 'read', match: ['lslocks --json', 'lslocks'] },
  ),
  lsfd: withExamples(
    closedRow('data', {
      ...HELP,
      ...JSON_TABLE,
      ...flags('-l --threads --summary'),
      ...values('-p --pid -Q --filter --counter'),
    }),
    { judged: 'read', match: ['lsfd -p 1', 'lsfd'] },
  ),
  lsmem: withExamples(
    closedRow('data', {
      ...HELP,
      ...JSON_TABLE,
      ...flags('-a --all -P --pairs --summary'),
      ...values('-S --split'),
    }),
    { judged: 'read', match: ['lsmem --summary', 'lsmem'] },
  ),
  // Mounted filesystems from /proc/self/mountinfo (or /etc/fstab with -s); --poll never ends.
  findmnt: withExamples(
    closedRow('data', {
      ...HELP,
      ...JSON_TABLE,
      ...flags('-a --all -A -D --df -f --first-only -l --list -s --fstab -m --mtab -k --kernel -v'),
      ...flags('--nofsroot -e --evaluate -c --canonicalize -R --submounts -P --pairs -i --invert'),
      ...flags('--real --pseudo --shadowed'),
      ...values('-t --types -O --options -S --source -T --target -M --mountpoint -N --task -d'),
      ...values('--direction'),
    }),
    { judged: 'read', match: ['findmnt -l -t ext4', 'findmnt -l'], notMatch: ['findmnt --poll', 'findmnt -p'] },
  ),
  // File metadata: attributes, ACLs, each component of a path.
  lsattr: withExamples(closedRow('list', { ...flags('-a -d -l -p -v -V'), '-R': 'recursive' }, { whenNone: '.' }), {
    judged: 'read',
    match: ['lsattr -d .', 'lsattr notes.txt'],
  }),
  getfacl: withExamples(
    closedRow('list', {
      ...HELP,
      ...flags('-a --access -d --default -c --omit-header -e --all-effective -E --no-effective -s'),
      ...flags('--skip-base -L --logical -P --physical -t --tabular -n --numeric -p --absolute-names'),
      '-R': 'recursive',
      '--recursive': 'recursive',
    }),
    { judged: 'read', match: ['getfacl notes.txt', 'getfacl a.txt'] },
  ),
  namei: withExamples(
    closedRow('list', {
      ...HELP,
      ...flags('-l --long -m --modes -n --nosymlinks -o --owners -v --vertical -x --mountpoints -Z'),
      ...flags('--context'),
    }),
    { judged: 'read', match: ['namei -l notes.txt', 'namei a.txt'] },
  ),
  // Hardware sensors from /sys; -s sets limits and is left out.
  sensors: withExamples(
    closedRow('data', {
      ...HELP,
      ...flags('-A --no-adapter -u -j -f --fahrenheit'),
      '-c': 'read',
      '--config-file': 'read',
    }),
    { judged: 'read', match: ['sensors', 'sensors a.txt'], notMatch: ['sensors -s'] },
  ),
  // Object files: headers, symbols, disassembly.
  objdump: withExamples(
    closedRow(
      'read',
      {
        ...HELP,
        ...flags('-a --archive-headers -f --file-headers -p --private-headers -h --section-headers'),
        ...flags('--headers -x --all-headers -d --disassemble -D --disassemble-all -S --source -s'),
        ...flags('--full-contents -t --syms -T --dynamic-syms -r --reloc -R --dynamic-reloc -C'),
        ...flags('--demangle -l --line-numbers -w --wide -g --debugging -e -G --stabs -W --dwarf -z'),
        ...flags('--disassemble-zeroes -i --info --no-show-raw-insn --prefix-addresses'),
        ...flags('--visualize-jumps --disassembler-color'),
        ...values('-M --disassembler-options -j --section --start-address --stop-address -b --target -m'),
        ...values('--architecture --insn-width'),
      },
      { whenNone: 'a.out' },
    ),
    { judged: 'read', match: ['objdump -d notes.txt', 'objdump -x -M intel notes.txt'] },
  ),
  readelf: withExamples(
    closedRow('read', {
      ...flags('-H --help -v --version -a --all -h --file-header -l --program-headers --segments -S'),
      ...flags('--section-headers --sections -g --section-groups -t --section-details -e --headers'),
      ...flags('-s --syms --symbols --dyn-syms -n --notes -r --relocs -u --unwind -d --dynamic -V'),
      ...flags('--version-info -A --arch-specific -c --archive-index -D --use-dynamic -I --histogram'),
      ...flags('-W --wide -C --demangle -w --debug-dump'),
      ...values('-x --hex-dump -p --string-dump -R --relocated-dump'),
    }),
    { judged: 'read', match: ['readelf -all notes.txt', 'readelf -h /bin/ls'] },
  ),
  nm: withExamples(
    closedRow(
      'read',
      {
        ...flags('-h --help -V --version -a --debug-syms -A -o --print-file-name -B -C --demangle -D'),
        ...flags('--dynamic -g --extern-only -l --line-numbers -n -v --numeric-sort -p --no-sort -P'),
        ...flags('--portability -r --reverse-sort -S --print-size -s --print-armap -u --undefined-only'),
        ...flags('-U --defined-only --size-sort --special-syms --synthetic -j'),
        ...values('-f --format -t --radix -X'),
      },
      { whenNone: 'a.out' },
    ),
    { judged: 'read', match: ['nm -C --extern-only notes.txt', 'nm a.txt'] },
  ),
  size: withExamples(
    closedRow(
      'read',
      { ...HELP, ...flags('-A -B -G -d -o -x -t --totals --common'), ...values('--format --radix') },
      { whenNone: 'a.out' },
    ),
    { judged: 'read', match: ['size -A notes.txt', 'size /bin/ls'] },
  ),
  'c++filt': withExamples(
    closedRow('data', {
      ...HELP,
      ...flags('-_ --strip-underscore -n --no-strip-underscore -p --no-params -t --types -i'),
      ...flags('--no-verbose -r --no-recurse-limit'),
      ...values('-s --format'),
    }),
    { judged: 'read', match: ['c++filt _ZN3foo3barEv', 'c++filt _ZNSt6vectorIiSaIiEE9push_backERKi'] },
  ),
  addr2line: withExamples(
    closedRow('data', {
      ...HELP,
      ...flags('-a --addresses -f --functions -C --demangle -i --inlines -p --pretty-print -s'),
      ...flags('--basenames'),
      ...values('-j --section'),
      '-e': 'read',
      '--exe': 'read',
    }),
    { judged: 'read', match: ['addr2line -e notes.txt -f 0x401000', 'addr2line -e /bin/true -f 0x1000'] },
  ),
  hexyl: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-p --plain -v --no-squeezing --no-characters --no-position'),
      ...values('-n --length -c --bytes -s --skip --color --border -o --display-offset --panels'),
      ...values('--group-size --endianness --base'),
    }),
    { judged: 'read', match: ['hexyl -n 5 notes.txt', 'hexyl a.txt'] },
  ),
  // Media and document headers; mediainfo --LogFile writes, ffprobe -report writes a log.
  mediainfo: withExamples(
    closedRow('read', { ...HELP, ...flags('-f --Full'), ...values('--Output --Language --Inform') }),
    {
      judged: 'read',
      match: ['mediainfo --Output=JSON notes.txt', 'mediainfo a.txt'],
      notMatch: ['mediainfo --LogFile=log.txt notes.txt'],
    },
  ),
  ffprobe: withExamples(
    closedRow('read', {
      ...flags('-h -version -hide_banner -show_streams -show_format -show_frames -show_packets'),
      ...flags('-show_chapters -show_programs -show_error -show_data -count_frames -count_packets'),
      ...flags('-pretty -sexagesimal -unit -prefix -byte_binary_prefix'),
      ...values('-v -loglevel -show_entries -select_streams -of -output_format -print_format'),
      ...values('-read_intervals -f'),
      '-i': 'read',
    }),
    {
      judged: 'read',
      match: ['ffprobe -v error -show_streams notes.txt', 'ffprobe a.txt'],
      notMatch: ['ffprobe -report notes.txt'],
    },
  ),
  pdfinfo: withExamples(
    closedRow('read', {
      ...flags('-h -help --help -v -box -meta -js -rawdates -struct -struct-text -isodates -dests'),
      ...flags('-listenc -url -custom'),
      ...values('-f -l -enc -opw -upw'),
    }),
    { judged: 'read', match: ['pdfinfo a.txt', 'pdfinfo'] },
  ),
  zipinfo: withExamples(closedRow('read', { ...flags('-1 -2 -s -m -l -v -h -t -T -z -C') }), {
    judged: 'read',
    match: ['zipinfo -1 notes.txt', 'zipinfo a.txt'],
  }),
  // ls-like listers and disk-usage viewers; -R/--tree read whole trees, -a/--all include dotfiles.
  lsd: withExamples(
    closedRow(
      'list',
      {
        ...HELP,
        ...flags('-1 --oneline -F --classify -l --long -r --reverse -S --sizesort -t --timesort -d'),
        ...flags('--directory-only -X --extensionsort -v --versionsort --group-directories-first'),
        ...flags('--no-symlink --total-size --header --classic --ignore-config -i --inode -g --git -Z'),
        ...flags('--context -N --literal -h --human-readable'),
        ...values('--depth --group-dirs --blocks --color --icon --icon-theme --date --size --permission'),
        ...values('-I --ignore-glob --hyperlink --sort'),
        '-a': 'hidden',
        '--all': 'hidden',
        '-A': 'hidden',
        '--almost-all': 'hidden',
        '-R': 'recursive',
        '--recursive': 'recursive',
        '--tree': 'recursive',
      },
      { whenNone: '.', skipsHidden: true },
    ),
    { judged: 'read', match: ['lsd -la', 'lsd --tree -d'] },
  ),
  dust: withExamples(
    closedRow(
      'list',
      {
        ...HELP,
        ...flags('-r --reverse -b --no-percent-bars -x --limit-filesystem -s --apparent-size -p'),
        ...flags('--full-paths -c --no-colors -f --filecount -i --ignore_hidden -t --file_types -H'),
        ...flags('--si -D --only-dir -F --only-file -j --output-json -P --no-progress --skip-total -B'),
        ...flags('--bars-on-right -L --dereference-links'),
        ...values('-d --depth -n --number-of-lines -X --ignore-directory -e --filter -v --invert-filter'),
        ...values('-z --min-size -w --terminal_width -o --output-format -S --stack-size -T --threads'),
      },
      { whenNone: '.', recursive: true },
    ),
    { judged: 'read', match: ['dust -d 3', 'dust -n 30 .'] },
  ),
  duf: withExamples(
    closedRow('list', {
      ...HELP,
      ...flags('--all --inodes --json --warnings'),
      ...values('--only --hide --only-fs --hide-fs --only-mp --hide-mp --output --sort --style'),
      ...values('--theme --width --avail-threshold --usage-threshold'),
    }),
    { judged: 'read', match: ['duf --only-fs tmpfs', 'duf a.txt'] },
  ),
  // Diff viewers: read both sides (directories as trees); --pager, --paging and --diff-program start programs.
  difft: withExamples(
    closedRow(
      'read',
      {
        ...HELP,
        ...flags('--check-only --ignore-comments --skip-unchanged --list-languages --exit-code'),
        ...flags('--sort-paths --missing-as-empty'),
        ...values('--display --syntax-highlight --color --background --width --tab-width --context'),
        ...values('--language --override --strip-cr --byte-limit --graph-limit --parse-error-limit'),
      },
      { recursive: true },
    ),
    { judged: 'read', match: ['difft --check-only notes.txt notes.txt', 'difft a.txt'] },
  ),
  delta: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-n --line-numbers -s --side-by-side --no-gitconfig --hyperlinks --show-config'),
      ...flags('--list-languages --list-syntax-themes --light --dark --color-only --diff-so-fancy'),
      ...flags('--raw'),
      ...values('--syntax-theme --features --width --tabs --max-line-length --wrap-max-lines'),
    }),
    {
      judged: 'read',
      match: ['delta -s notes.txt notes.txt', 'delta a.txt'],
      notMatch: ['delta --paging always notes.txt notes.txt'],
    },
  ),
  colordiff: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-y --side-by-side -i --ignore-case -s --report-identical-files -u -c -w'),
      ...flags('--ignore-all-space -b -B -q --brief -N -a -E -Z -t -p'),
      ...values('-U -C -W --width --color'),
      '-r': 'recursive',
      '--recursive': 'recursive',
    }),
    { judged: 'read', match: ['colordiff a.txt', 'colordiff'] },
  ),
  sdiff: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-l --left-column -s --suppress-common-lines -i --ignore-case -b -W -B -E -Z -a -t'),
      ...flags('--expand-tabs -d --minimal -H --speed-large-files --strip-trailing-cr'),
      ...values('-w --width -I --ignore-matching-lines --tabsize'),
    }),
    {
      judged: 'read',
      match: ['sdiff -s notes.txt notes.txt', 'sdiff a.txt'],
      notMatch: ['sdiff -o merged.txt notes.txt notes.txt', 'sdiff --diff-program=sh notes.txt notes.txt'],
    },
  ),
  wdiff: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-1 --no-deleted -2 --no-inserted -3 --no-common -i --ignore-case -n --avoid-wraps -s'),
      ...flags('--statistics -l --less-mode -p --printer -t --terminal'),
      ...values('-w --start-delete -x --end-delete -y --start-insert -z --end-insert'),
    }),
    { judged: 'read', match: ['wdiff a.txt', 'wdiff'], notMatch: ['wdiff -a notes.txt notes.txt'] },
  ),
  diff3: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-e --ed -E --show-overlap -m --merge -A --show-all -x --overlap-only -X -3'),
      ...flags('--easy-only -i -T --initial-tab -a --text --strip-trailing-cr'),
      ...values('-L --label'),
    }),
    { judged: 'read', match: ['diff3 notes.txt notes.txt notes.txt', 'diff3 a.txt'] },
  ),
  // Line counters: whole trees; tokei skips dotfiles and ignored files unless told;
  // scc -o writes, cloc --vcs runs a command.
  tokei: withExamples(
    closedRow(
      'list',
      {
        ...HELP,
        ...flags('-f --files -l --languages -C --compact --no-ignore-parent --no-ignore-dot'),
        ...flags('--no-ignore-vcs -v --verbose'),
        ...values('-e --exclude -o --output -s --sort -t --type -n --num-format -c --columns'),
        '--hidden': 'hidden',
        '--no-ignore': 'hidden',
      },
      { whenNone: '.', recursive: true, skipsHidden: true },
    ),
    { judged: 'read', match: ['tokei .', 'tokei a.txt'] },
  ),
  scc: withExamples(
    closedRow(
      'list',
      {
        ...HELP,
        ...flags('--by-file -w --wide --no-cocomo -c --no-complexity --no-gitignore --no-ignore'),
        ...flags('--dryness --uloc -d --no-duplicates -l --languages --no-size --ci'),
        ...values('-f --format -s --sort -M --not-match -i --include-ext -x --exclude-ext --exclude-dir'),
        ...values('--count-as --large-byte-count -a --avg-wage'),
      },
      { whenNone: '.', recursive: true },
    ),
    {
      judged: 'read',
      match: ['scc --by-file', 'scc a.txt'],
      notMatch: ['scc -o report.txt', 'scc --format-multi "json:out.json"'],
    },
  ),
  cloc: withExamples(
    closedRow(
      'list',
      {
        ...HELP,
        ...flags('--diff --by-file --by-file-by-lang --quiet --json --yaml --csv --md --sum-one'),
        ...flags('--hide-rate --skip-uniqueness --3'),
        ...values('--exclude-dir --exclude-ext --include-ext --include-lang --exclude-lang --force-lang'),
        ...values('--max-file-size --timeout'),
      },
      { recursive: true },
    ),
    { judged: 'read', match: ['cloc --by-file .', 'cloc a.txt'], notMatch: ["cloc --vcs 'touch pwned' ."] },
  ),
  // CSV, JSON and lint readers (csvkit, gron, hadolint, shellcheck, yamllint, xmllint): they print what they read.
  ...Object.fromEntries(
    ['csvlook', 'csvstat', 'csvcut'].map((name) => [
      name,
      withExamples(
        closedRow('read', {
          ...HELP,
          ...flags('-t --tabs -H --no-header-row -S --skipinitialspace -v --verbose -l --linenumbers -I'),
          ...flags('--no-inference --zero -n --names -x --delete-empty-rows --csv --json --type --nulls'),
          ...flags('--non-nulls --unique --min --max --sum --mean --median --stdev --len --max-precision'),
          ...flags('--freq --count --no-number-ellipsis'),
          ...values('-d --delimiter -q --quotechar -e --encoding -K --skip-lines -z --maxfieldsize -u'),
          ...values('--quoting -y --snifflimit -c --columns -C --not-columns --freq-count -i --indent'),
          ...values('--max-rows --max-columns --max-column-width'),
        }),
        { judged: 'read', match: [`${name} data.csv`] },
      ),
    ]),
  ),
  gron: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('--no-sort -v --values -u --ungron -s --stream -c --colorize -m --monochrome -j'),
      ...flags('--json'),
    }),
    { judged: 'read', match: ['gron notes.txt', 'gron a.txt'] },
  ),
  hadolint: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('--no-color --strict-labels --no-fail --verbose'),
      ...values('-f --format --ignore -t --failure-threshold --trusted-registry'),
      '-c': 'read',
      '--config': 'read',
    }),
    { judged: 'read', match: ['hadolint notes.txt', 'hadolint a.txt'] },
  ),
  shellcheck: withExamples(
    closedRow('read', {
      ...HELP,
      ...flags('-a --check-sourced -x --external-sources --norc --list-optional'),
      ...values('-s --shell -e --exclude -i --include -f --format -S --severity -C --color -o'),
      ...values('--enable -W --wiki-link-count -P --source-path'),
      '--rcfile': 'read',
    }),
    { judged: 'read', match: ['shellcheck -o all notes.txt', 'shellcheck a.txt'] },
  ),
  yamllint: withExamples(
    closedRow(
      'read',
      {
        ...HELP,
        ...flags('-s --strict --no-warnings --list-files'),
        ...values('-d --config-data -f --format'),
        '-c': 'read',
        '--config-file': 'read',
      },
      { recursive: true },
    ),
    { judged: 'read', match: ['yamllint -s .', 'yamllint a.txt'] },
  ),
  xmllint: withExamples(
    closedRow('read', {
      ...flags('--help --version --noout --format --valid --html --recover --nonet --c14n --debug'),
      ...flags('--nowarning --noblanks --timing --stream --auto --xinclude --dropdtd --nocdata'),
      ...flags('--nsclean'),
      ...values('--xpath --encode --pretty --maxmem --path'),
      '--schema': 'read',
      '--dtdvalid': 'read',
      '--relaxng': 'read',
      '--schematron': 'read',
    }),
    {
      judged: 'read',
      match: ['xmllint --noout notes.txt', 'xmllint a.txt'],
      notMatch: ['xmllint --output out.xml notes.txt', 'xmllint --shell notes.txt'],
    },
  ),
  // 7-Zip: only `l` (list) — a, x, e, d, u and the rest write; -o names where to extract.
  ...Object.fromEntries(
    ['7z', '7za', '7zz', '7zr'].map((name): [string, ProgramRow] => [
      name,
      {
        operands: 'data',
        sandboxOnly: true,
        subcommands: { l: closedRow('read', { ...flags('-slt -ba -r -y'), ...values('-t -p') }) },
        judged: 'read',
        match: [`${name} l x.7z`, `${name} l -slt x.7z`],
        // x extracts, -o names where: written.
        notMatch: [`${name} x x.7z`, `${name} l -o/tmp/out x.7z`],
      },
    ]),
  ),
  // A word list lookup: the first operand is the prefix, the second the list it reads.
  look: withExamples(
    closedRow(
      'read',
      { ...HELP, ...flags('-a --alternative -b --binary -d --alphanum -f --ignore-case'), ...values('-t --terminate') },
      { leading: 1 },
    ),
    { judged: 'read', match: ['look a notes.txt', 'look a.txt'] },
  ),
};
