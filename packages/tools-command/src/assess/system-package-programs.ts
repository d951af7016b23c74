import { applyOperands } from './apply.js';
import { always, type CallSite, connects, type OptionUse, type ProgramRow, row, runs, withExamples } from './table.js';

/**
 * The system's package managers as tables of verbs (issue 18, see package-programs.ts): the
 * read verbs with their options; any other verb installs, removes or refreshes (asked). The
 * local package databases are what the read forms read: `apt-cache policy`, `apt show`,
 * `dpkg -L`, `pacman -Q`, `apk info` need no network; `dnf list|info` refresh repository
 * metadata from the network unless -C/--cacheonly; `apt changelog`, `brew info|search` (install
 * counts), `snap find|info`, `conda search` ask a server. None is core: they need the sandbox.
 */

const reads = (flags = '', options: Record<string, OptionUse> = {}): ProgramRow => row('data', { flags, options });
const queries = (where: string, flags = '', options: Record<string, OptionUse> = {}): ProgramRow =>
  row('data', { flags, options, effects: [connects(where)] });
const installs = (name: string): ProgramRow =>
  always(
    runs(`the install scripts of what ${name} installs, or a change of the system's packages`, undefined, 'high'),
    connects('a package repository'),
  );
const runsVerb = row('data', {
  custom: (site: CallSite) => site.emit({ kind: 'run-program', program: site.name, via: site.name }),
});
const verbs = (names: readonly string[], value: ProgramRow): Record<string, ProgramRow> =>
  Object.fromEntries(names.map((verb) => [verb, value]));
/** Any verb not read is a change of the system's packages (high). */
const manager = (
  name: string,
  global: { flags?: string; options?: Record<string, OptionUse> },
  table: Record<string, ProgramRow>,
): ProgramRow => row('data', { ...global, subcommands: table, otherSubcommands: installs(name) });

// APT: -o and -c set configuration, which can name hooks that run programs.
const APT =
  '-a -i -q -qq -n --installed --upgradable --all-versions --no-all-versions --manual-installed --names-only --full --important --recurse --quiet --no-pre-depends --no-depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances --installed';
const APT_OPTIONS: Record<string, OptionUse> = {
  '-o': 'unknown',
  '--option': 'unknown',
  '-c': 'unknown',
  '--config-file': 'unknown',
  '-t': 'data',
  '--target-release': 'data',
};
const APT_READ = reads(APT, APT_OPTIONS);
const ABOUT = reads('-v -h --version --help');

const apt = withExamples(
  manager(
    'apt',
    {},
    {
      '': ABOUT,
      ...verbs(['list', 'show', 'search', 'policy', 'depends', 'rdepends', 'showsrc', 'help'], APT_READ),
      changelog: queries('the Debian changelog server', APT, APT_OPTIONS),
    },
  ),
  {
    judged: 'read',
    match: ['apt list --installed bash', 'apt show bash'],
    notMatch: ['apt list -o APT::Update::Pre-Invoke::=touch'],
  },
);
const aptCache = row('data', {
  subcommands: {
    '': ABOUT,
    ...verbs(
      [
        'show',
        'showpkg',
        'policy',
        'search',
        'depends',
        'rdepends',
        'madison',
        'stats',
        'pkgnames',
        'showsrc',
        'dump',
        'dumpavail',
        'unmet',
        'showauto',
      ],
      APT_READ,
    ),
  },
  otherSubcommands: runsVerb,
  judged: 'read',
  match: ['apt-cache policy bash', 'apt-cache depends bash'],
});
const aptGet = withExamples(
  manager('apt-get', {}, { '': ABOUT, changelog: queries('the Debian changelog server', APT, APT_OPTIONS) }),
  { judged: 'read', match: ['apt-get'], notMatch: ['apt-get install -y curl'] },
);

/** dpkg: the action is an option; only the query actions read. */
const DPKG_READ =
  /^(-l|--list|-L|--listfiles|-s|--status|-S|--search|-p|--print-avail|--print-architecture|--print-foreign-architectures|--get-selections|-c|--contents|-I|--info|--compare-versions|-C|--audit|-V|--verify|--version|--help|-W|--show|-f|--field)$/;
// Not --admindir/--root: another database is another program's state, asked like any unlisted option.
const DPKG_FLAGS = /^(--no-pager|-a|--showformat=.*)$/;
const dpkg = row('data', {
  custom: (site) => {
    const options = site.args
      .map((word) => word.value ?? '\u0000')
      .filter((word) => word.startsWith('-') || word === '\u0000');
    if (
      options.length > 0 &&
      options.some((option) => DPKG_READ.test(option)) &&
      options.every((option) => DPKG_READ.test(option) || DPKG_FLAGS.test(option))
    )
      return;
    for (const effect of installs('dpkg').effects ?? []) site.emit({ ...effect, via: 'dpkg' });
  },
  judged: 'read',
  match: ['dpkg -l bash', 'dpkg --listfiles bash'],
  notMatch: ['dpkg -i x.deb', 'dpkg -l --force-all'],
});

// dnf and yum: reads refresh the repository metadata over the network unless -C.
const DNF =
  '-C --cacheonly -q --quiet -v --verbose --installed --available --updates --upgrades --extras --obsoletes --recent --all --showduplicates --assumeno --userinstalled';
const DNF_OPTIONS: Record<string, OptionUse> = {
  '--disablerepo': 'data',
  '--enablerepo': 'data',
  '--repo': 'data',
  '--repoid': 'data',
  '--releasever': 'data',
  '--setopt': 'unknown',
  '-c': 'unknown',
  '--config': 'unknown',
  '--installroot': 'list',
  '--color': 'data',
  '--qf': 'data',
  '--queryformat': 'data',
};
const dnfRead = row('data', {
  custom: (site) => {
    applyOperands(site, reads(DNF, DNF_OPTIONS));
    if (!site.args.some((word) => word.value === '-C' || word.value === '--cacheonly'))
      site.emit({ kind: 'connect', host: 'the package repositories (dnf refreshes its metadata)', via: site.name });
  },
});
const dnfLike = (name: string): ProgramRow =>
  manager(
    name,
    { flags: DNF, options: DNF_OPTIONS },
    {
      '': ABOUT,
      help: ABOUT,
      ...verbs(
        [
          'list',
          'info',
          'search',
          'repolist',
          'repoinfo',
          'provides',
          'whatprovides',
          'repoquery',
          'check-update',
          'deplist',
        ],
        dnfRead,
      ),
      history: row('data', {
        subcommands: {
          '': reads(DNF, DNF_OPTIONS),
          list: reads(DNF, DNF_OPTIONS),
          info: reads(DNF, DNF_OPTIONS),
          summary: reads(DNF, DNF_OPTIONS),
        },
        otherSubcommands: installs(name),
      }),
    },
  );

/** pacman: -Q (the local database), -Ss/-Si/-Sl/-Sg (the sync database, without -y), -F without -y, -T read. */
const pacman = row('data', {
  custom: (site) => {
    const options = site.args
      .map((word) => word.value ?? '\u0000')
      .filter((word) => word.startsWith('-') || word === '\u0000');
    const letters = options
      .filter((option) => /^-[a-zA-Z]+$/.test(option))
      .join('')
      .replace(/-/g, '');
    const longs = options.filter((option) => option.startsWith('--'));
    const operation = letters.match(/[QSFTDURV]/g) ?? [];
    const query = operation.length === 1 && operation[0] === 'Q' && /^[Qbcdegiklmnopqstuv]*$/.test(letters);
    // -S with a search, info, list or group query and no -y/-u (which refresh and upgrade).
    const sync =
      operation.length === 1 && operation[0] === 'S' && /^[Ssilgqv]+$/.test(letters) && /[silg]/.test(letters);
    const files = operation.length === 1 && operation[0] === 'F' && /^[Flqsxv]*$/.test(letters);
    const about =
      letters === 'V' ||
      letters === 'h' ||
      (longs.every((option) => /^--(version|help)$/.test(option)) && letters === '');
    const longsRead = longs.every((option) =>
      /^--(query|info|list|search|owns|groups|explicit|deps|native|foreign|unrequired|upgrades|quiet|color=.*|noconfirm|help|version)$/.test(
        option,
      ),
    );
    if ((query || sync || files || letters === 'T' || about) && longsRead) return;
    for (const effect of installs('pacman').effects ?? []) site.emit({ ...effect, via: 'pacman' });
  },
  judged: 'read',
  match: ['pacman -Qe', 'pacman -Qi bash'],
  notMatch: ['pacman -Syu', 'pacman -S x'],
});

// Homebrew: list and the like read; info and search fetch install counts; home opens a browser.
const BREW =
  '-v --verbose -d --debug -q --quiet --formula --formulae --cask --casks -1 -l -r -t --versions --pinned --full-name --multiple --json --installed --tree --annotate --include-build --include-optional --include-test --recursive --eval-all --union -s --search -n --name --desc --topological --direct --installed-on-request --installed-as-dependency';
const BREW_READ = reads(BREW);
const brew = row('data', {
  subcommands: {
    '': reads('-v -h --version --help --prefix --cellar --repository --repo --cache --env --caskroom'),
    ...verbs(
      [
        'list',
        'ls',
        'leaves',
        'deps',
        'uses',
        'config',
        'doctor',
        'dr',
        'help',
        'commands',
        'desc',
        'cat',
        'log',
        'shellenv',
        'outdated',
        '--prefix',
        '--cellar',
        '--repository',
        '--cache',
        '--env',
      ],
      BREW_READ,
    ),
    ...verbs(['info', 'abv', 'search', '-S'], queries('formulae.brew.sh', BREW)),
    tap: row('data', { subcommands: { '': BREW_READ }, otherSubcommands: installs('brew') }),
    services: row('data', { subcommands: { list: BREW_READ, info: BREW_READ }, otherSubcommands: installs('brew') }),
  },
  otherSubcommands: installs('brew'),
  judged: 'read',
  match: ['brew ls', 'brew ls --cask'],
});

const snap = withExamples(
  manager(
    'snap',
    {},
    {
      '': ABOUT,
      ...verbs(
        ['list', 'version', 'services', 'changes', 'connections', 'aliases', 'help', 'get'],
        reads('--all --unicode --color --abs-time'),
      ),
      ...verbs(['find', 'info', 'search'], queries('the Snap Store', '--verbose --narrow')),
    },
  ),
  { judged: 'read', match: ['snap', 'snap list'] },
);
const apk = withExamples(
  manager(
    'apk',
    { flags: '-q -v --quiet --verbose --no-cache --no-network' },
    {
      '': ABOUT,
      ...verbs(
        ['info', 'search', 'list', 'policy', 'version', 'stats', 'dot'],
        reads(
          '-q -v -a -d -s -L -R -W -e -r -w -x -I --quiet --verbose --all --description --size --contents --depends --rdepends --who-owns --installed --available --upgradable --origin --exact --no-network',
        ),
      ),
    },
  ),
  { judged: 'read', match: ['apk', 'apk list'] },
);
const conda = withExamples(
  manager(
    'conda',
    {},
    {
      '': ABOUT,
      list: reads('--json -e --export --explicit --revisions -f --full-name --show-channel-urls', {
        '-n': 'data',
        '--name': 'data',
        '-p': 'list',
        '--prefix': 'list',
      }),
      info: reads('--json -e --envs --base'),
      search: queries('the conda channels', '--json --info -i'),
      env: row('data', { subcommands: { list: reads('--json') }, otherSubcommands: installs('conda') }),
    },
  ),
  { judged: 'read', match: ['conda', 'conda list'] },
);

export const SYSTEM_PACKAGE_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  apt,
  'apt-get': aptGet,
  'apt-cache': aptCache,
  dpkg,
  dnf: withExamples(dnfLike('dnf'), { judged: 'read', match: ['dnf'] }),
  yum: withExamples(dnfLike('yum'), { judged: 'read', match: ['yum'] }),
  pacman,
  brew,
  snap,
  apk,
  conda,
};
