/**
 * Commands that are read-only in the forms below and may run unasked ONLY inside the sandbox
 * (AssessContext.sandbox): the forms people use most and riskgate asked about (issue 12), each
 * with the options that keep it read-only and a comment saying why it needs the sandbox. A
 * form is the program followed by a fixed sequence of words; `*` stands for one argument of the
 * person's choosing (a path, a unit, a package), `...` for any further arguments that are not
 * options. Anything not listed — another option, another subcommand — is not whitelisted here.
 *
 * Wiring: the assessor's table (src/assess/) holds the rows; since issue 18 every row not marked
 * `core` needs the sandbox (those added for issue 12 are in src/assess/sandbox-only-programs.ts,
 * marked `sandboxOnly`, and the package managers in package-programs.ts). This
 * file is the verification data: test/sandbox-only-commands.test.ts runs every example whose
 * program exists on the machine inside the sandbox under strace and checks that it writes,
 * connects and starts nothing outside an allowed set.
 *
 * Left out on purpose (asked about even with the sandbox):
 * - `docker ps|images|logs|inspect`, `systemctl status|show|…`: they talk to a daemon over a
 *   Unix socket (the Docker socket is root; D-Bus can start and stop units). The sandbox refuses
 *   Unix sockets, so they could only run outside it — and then nothing contains an assessor's
 *   mistake. They stay asked; a person who wants them unasked writes an allow rule.
 * - `ip a|r|link`, `ss`, `netstat`, `lsof -i`: inside the sandbox's own network namespace they
 *   would report its empty loopback, a wrong answer. They belong in the unsandboxed table (they
 *   only read) if anywhere.
 */
export interface SandboxOnlyRow {
  readonly program: string;
  /** Read-only forms: words after the program; `*` one argument, `...` the rest. */
  readonly forms: readonly string[];
  /** Options that keep it read-only (any may be added to a form). */
  readonly options?: readonly string[];
  /** Why it is read-only, and why it still needs the sandbox. */
  readonly why: string;
  /** Programs it may start (a helper, a wrapper's real program; `x*` a prefix), checked by the strace test. */
  readonly starts?: readonly string[];
  /** Caches it tries to write (`~/` the home directory): the sandbox refuses them, the command goes on. */
  readonly writes?: readonly string[];
  /** Command lines for the strace verification (run where the program exists). */
  readonly examples: readonly string[];
  /**
   * Lines the assessor runs unasked in the sandbox, when they are not the `examples` (a form the
   * strace test cannot run here); test/program-row-examples.test.ts checks them.
   */
  readonly match?: readonly string[];
  /** Forms left out: asked even in the sandbox (test/program-row-examples.test.ts). */
  readonly notMatch?: readonly string[];
}

/** What formatting a manual page starts: man itself, its helpers and groff's pipeline. */
const MAN_PAGES = [
  'man',
  'whatis',
  'locale',
  'nroff',
  'groff',
  'troff',
  'grotty',
  'tbl',
  'preconv',
  'col',
  'zsoelim',
  'manconv',
  'cat',
  'less',
  'pager',
  'gzip',
];

export const SANDBOX_ONLY_COMMANDS: readonly SandboxOnlyRow[] = [
  // Help and version output of any program is read-only by convention, but a program may do
  // anything with any argument: only the sandbox makes "X --help" safe for every X.
  {
    program: '*',
    forms: ['--help', '-h', '--version', '-V', 'help'],
    why: 'prints usage or version; the sandbox contains a program that does more',
    examples: ['ls --help', 'grep --version', 'tar --help', 'git --version', 'seq --help'],
  },
  // journalctl reads the journal files; --follow never ends, --vacuum-*, --rotate, --flush write.
  {
    program: 'journalctl',
    forms: ['-u *', '--unit *', '-b', '--list-boots', '-p *', '--since *'],
    options: ['-n', '--lines', '--no-pager', '-o', '--output', '-r', '--reverse', '-q', '--utc'],
    why: 'reads journal files; without --follow, --vacuum-*, --rotate, --flush, --setup-keys',
    examples: ['journalctl -u ssh -n 5 --no-pager', 'journalctl --list-boots --no-pager'],
    notMatch: ['journalctl -f', 'journalctl --vacuum-size=1M'],
  },
  {
    program: 'pip',
    forms: ['list', 'show *', 'freeze', 'cache dir', 'config list'],
    options: ['--format', '--outdated', '-v', '--not-required', '--user'],
    why: 'reads installed metadata; its update check goes to the network (the sandbox switches it off: SANDBOX_ENVIRONMENT), --outdated too (refused there)',
    // pyenv's shim is a tree of shell scripts that find the real pip.
    starts: [
      'pyenv*',
      'readlink',
      'basename',
      'dirname',
      'python*',
      'pip*',
      'cat',
      'head',
      'sed',
      'grep',
      'tr',
      'sort',
      'uname',
      'mkdir',
      'ls',
    ],
    examples: ['pip list', 'pip show pip', 'pip freeze', 'pip cache dir', 'pip config list'],
    notMatch: ['pip install requests'],
  },
  {
    program: 'npm',
    forms: ['ls', 'ls *', 'list', 'config list', 'config get *', 'version', 'root', 'prefix'],
    options: ['--depth', '--all', '--json', '--long', '-g', '--global'],
    why: 'reads node_modules and package.json; npm tries to write its logs, which the sandbox refuses',
    starts: ['node'],
    writes: ['~/.npm'],
    examples: ['npm ls --depth=0', 'npm config list', 'npm config get registry', 'npm version', 'npm root -g'],
    notMatch: ['npm install left-pad'],
  },
  {
    program: 'apt',
    forms: ['list', 'list *', 'show *', 'policy', 'policy *', 'search *'],
    options: ['--installed', '--upgradable', '-a'],
    why: 'reads the package lists (apt warns its CLI is unstable, nothing more)',
    starts: ['dpkg'],
    examples: ['apt list --installed bash', 'apt show bash', 'apt policy bash'],
  },
  {
    program: 'apt-cache',
    forms: ['show *', 'policy *', 'search *', 'depends *', 'rdepends *', 'madison *'],
    why: 'reads the package cache',
    starts: ['dpkg'],
    examples: ['apt-cache policy bash', 'apt-cache depends bash'],
  },
  {
    program: 'dpkg',
    forms: ['-l', '-l *', '-L *', '-s *', '-S *', '--get-selections'],
    why: 'reads the dpkg database (other options install or remove)',
    starts: ['dpkg-query'],
    examples: ['dpkg -l bash', 'dpkg -L bash', 'dpkg -S /bin/ls'],
    notMatch: ['dpkg -i x.deb'],
  },
  {
    program: 'dpkg-query',
    forms: ['-l', '-W', '-W *', '-L *', '-s *', '-S *'],
    options: ['-f', '--showformat'],
    why: 'reads the dpkg database',
    examples: ["dpkg-query -W -f='${Package}\\n' bash"],
  },
  {
    program: 'getent',
    forms: ['passwd', 'passwd *', 'group', 'group *', 'hosts *', 'services *', 'protocols *'],
    why: 'reads name databases; shadow and gshadow are left out (password hashes)',
    examples: ['getent passwd root', 'getent group', 'getent services ssh'],
  },
  { program: 'w', forms: [''], options: ['-h', '-s', '-i'], why: 'reads utmp and /proc', examples: ['w', 'w -h'] },
  { program: 'who', forms: [''], options: ['-a', '-b', '-q', '-r', '-H'], why: 'reads utmp', examples: ['who -b'] },
  {
    program: 'last',
    forms: ['', '*'],
    options: ['-n', '-x', '-F', '-w', '-i'],
    why: 'reads wtmp',
    examples: ['last -n 3'],
  },
  {
    program: 'fd',
    forms: ['...'],
    options: ['-H', '-I', '-t', '-e', '-d', '--max-depth', '-a', '-l', '-g', '-i', '-s', '-E'],
    why: 'finds files; -x/--exec and -X/--exec-batch run programs and are left out',
    examples: ['fd -t f .txt', 'fdfind -t f . /etc/apt'],
    notMatch: ['fd -x rm'],
  },
  {
    program: 'ag',
    forms: ['...'],
    options: ['-i', '-l', '-L', '-c', '-w', '-Q', '--hidden', '-G', '--ignore', '-A', '-B', '-C', '--nocolor'],
    why: 'searches files; --pager starts a program and is left out',
    examples: ['ag -l root /etc/passwd'],
    notMatch: ['ag --pager=less x'],
  },
  {
    program: 'ack',
    forms: ['...'],
    options: ['-i', '-l', '-c', '-w', '-Q', '--type', '-A', '-B', '-C', '--nocolor'],
    why: 'searches files; --pager and --output (a Perl expression) are left out',
    examples: ['ack -l root /etc/passwd'],
  },
  {
    program: 'zgrep',
    forms: ['...'],
    options: ['-i', '-c', '-l', '-n', '-E', '-F', '-w', '-v'],
    why: 'grep over compressed files (a gzip pipeline)',
    starts: ['gzip', 'grep', 'sed'],
    examples: ['zgrep -c Package /usr/share/doc/bash/changelog.Debian.gz'],
    // The assessor's zgrep row lists no option yet (src/assess/programs.ts): -c is asked there.
    match: ['zgrep Package /usr/share/doc/bash/changelog.Debian.gz'],
  },
  {
    program: 'zcat',
    forms: ['*', '...'],
    why: 'decompresses to stdout',
    starts: ['gzip'],
    examples: ['zcat /usr/share/doc/bash/changelog.Debian.gz | head -n 3'],
  },
  {
    program: 'lsblk',
    forms: ['', '*'],
    options: ['-f', '-o', '-J', '-l', '-b', '-d', '-p'],
    why: 'reads /sys and udev data',
    examples: ['lsblk', 'lsblk -J'],
  },
  {
    program: 'lscpu',
    forms: [''],
    options: ['-J', '-e', '-p'],
    why: 'reads /proc/cpuinfo and /sys',
    examples: ['lscpu', 'lscpu -J'],
  },
  {
    program: 'lspci',
    forms: [''],
    options: ['-v', '-k', '-nn', '-t', '-mm'],
    why: 'reads /sys/bus/pci',
    examples: ['lspci'],
  },
  { program: 'lsusb', forms: [''], options: ['-v', '-t'], why: 'reads /sys/bus/usb', examples: ['lsusb'] },
  {
    program: 'man',
    forms: ['*', '* *'],
    options: ['-f', '-k', '-w', '-a'],
    why: 'formats a manual page (PAGER=cat); man tries to keep a formatted copy in its cache, which the sandbox refuses',
    writes: ['/var/cache/man'],
    starts: [...MAN_PAGES, 'mandb'],
    examples: ['man -w ls', 'man -f ls', 'MANWIDTH=80 man ls | head -n 5'],
  },
  { program: 'whatis', forms: ['*'], why: 'reads the manual index', starts: ['locale'], examples: ['whatis ls'] },
  {
    program: 'apropos',
    forms: ['*'],
    why: 'reads the manual index',
    starts: ['locale', 'whatis'],
    examples: ['apropos directory | head -n 3'],
  },
  {
    program: 'pgrep',
    forms: ['*'],
    options: ['-a', '-l', '-f', '-u', '-x', '-c', '-n', '-o'],
    why: 'reads /proc; sees only the sandbox own processes',
    examples: ['pgrep -a bash'],
  },
  {
    program: 'pstree',
    forms: ['', '*'],
    options: ['-p', '-a', '-u', '-l'],
    why: 'reads /proc',
    examples: ['pstree -p'],
  },
  // awk with a program that only prints: no system(), no getline from a command, no redirection.
  {
    program: 'awk',
    forms: ["'{print ...}' ...", "-F * '{print ...}' ..."],
    why: 'a print-only program (no system(), |, >, getline)',
    examples: ["awk '{print $1}' /etc/hostname", "awk -F: '{print $1}' /etc/passwd | head -n 2"],
    notMatch: ['awk \'BEGIN{system("id")}\''],
  },
  // sed with substitutions to stdout: no -i, no w/W/e/r commands.
  {
    program: 'sed',
    forms: ["'s/*/*/' ...", "-n '*p' ...", "-E 's/*/*/' ..."],
    why: 'substitutions printed to stdout (no -i, w, W, e, r)',
    examples: ["sed 's/root/ROOT/' /etc/hostname", "sed -n '1,2p' /etc/passwd"],
    notMatch: ["sed -i 's/a/b/' notes.txt"],
  },
  {
    program: 'tar',
    forms: ['tf *', '-tf *', 'tvf *', '-tvf *', 'tzf *', '--list -f *'],
    why: 'lists an archive; x/c/r/u write',
    starts: ['gzip', 'xz', 'bzip2', 'zstd'],
    examples: ['tar tf /dev/null 2>&1 || true'],
    notMatch: ['tar xf x.tar'],
  },
  {
    program: 'unzip',
    forms: ['-l *', '-v *', '-Z *', '-t *'],
    why: 'lists or tests an archive without extracting',
    examples: ['unzip -l /dev/null 2>&1 || true'],
    notMatch: ['unzip x.zip'],
  },
  {
    program: 'hostname',
    forms: [''],
    options: ['-f', '-s', '-d', '-I', '-i'],
    why: 'prints the name; "hostname NAME" sets it and is left out (the sandbox also has its own UTS namespace)',
    examples: ['hostname', 'hostname -s'],
    notMatch: ['hostname newname'],
  },
  {
    program: 'hostnamectl',
    forms: ['', 'status'],
    why: 'prints the host names (D-Bus: fails in the sandbox, falls back to nothing)',
    // Not run under strace: its D-Bus call is a connection attempt the sandbox refuses.
    examples: [],
    match: ['hostnamectl', 'hostnamectl status'],
    notMatch: ['hostnamectl set-hostname x'],
  },
  {
    program: 'bat',
    forms: ['...'],
    options: ['-p', '-n', '-l', '-A', '--paging=never', '--style', '-r', '--color=never'],
    why: 'prints files; bat cache --build writes and is left out',
    examples: ['batcat -p --paging=never /etc/hostname'],
    notMatch: ['bat cache --build'],
  },
  {
    program: 'eza',
    forms: ['...'],
    options: ['-l', '-a', '-T', '-L', '--git', '-h', '-1', '-s'],
    why: 'lists directories',
    examples: ['eza -l /etc/apt'],
  },
  {
    program: 'exa',
    forms: ['...'],
    options: ['-l', '-a', '-T', '-L', '-h', '-1'],
    why: 'lists directories (eza before its rename)',
    examples: ['exa -l /etc/apt'],
  },
  {
    program: 'shasum',
    forms: ['...'],
    options: ['-a', '-c', '-b', '-t'],
    why: 'checksums (a Perl script)',
    examples: ['shasum -a 256 /etc/hostname'],
  },
  {
    program: 'b2sum',
    forms: ['...'],
    options: ['-l', '-c', '--tag'],
    why: 'checksums',
    examples: ['b2sum /etc/hostname'],
  },
  {
    program: 'sha1sum',
    forms: ['...'],
    options: ['-c', '-b', '--tag'],
    why: 'checksums',
    examples: ['sha1sum /etc/hostname'],
  },
  { program: 'cksum', forms: ['...'], options: ['-a'], why: 'checksums', examples: ['cksum /etc/hostname'] },
  {
    program: 'date',
    forms: ['', '-d *', '+*', '-u', '-I*', '-R'],
    why: 'prints a date; "date -s" sets the clock and is left out',
    examples: ['date -d @1473305798', 'date -u +%Y'],
    notMatch: ['date -s 2020-01-01'],
  },
  {
    program: 'tree',
    forms: ['...'],
    options: ['-a', '-d', '-L', '-f', '-i', '-h', '-s', '-D', '-C', '-I', '-P', '--noreport', '-J', '-X'],
    why: 'lists a tree; -o writes a file and -R with -H writes per-directory pages: the sandbox stops both',
    examples: ['tree -L 1 /etc/apt'],
    notMatch: ['tree -o listing.txt .'],
  },
  {
    program: 'git',
    forms: ['help *'],
    why: 'help pages; git help -w starts a browser, which the sandbox contains',
    starts: ['git', ...MAN_PAGES],
    examples: ['git help -g'],
  },
];
