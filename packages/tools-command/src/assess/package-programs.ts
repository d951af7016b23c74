import { applyOperands } from './apply.js';
import { always, type CallSite, connects, type OptionUse, type ProgramRow, row, runs, withExamples } from './table.js';

/**
 * Package managers and toolchains as tables of verbs (issue 18): a verb is a read only in the
 * forms listed here, with the options listed; any other verb runs something (`npm version
 * patch` runs the package's scripts, commits and tags), installs (high: packages' install
 * scripts), or asks a registry (a connection). Every row needs the sandbox: these tools write
 * logs and caches on every run and read configuration a checkout can carry.
 *
 * Checked against each tool's documentation:
 * - `npm view|outdated|search|ping|audit`, `pnpm outdated|view`, `pip index`, `pip list -o`,
 *   `cargo search|info`, `gem search|outdated`, `poetry show -o` ask a registry: connections.
 * - `apt-cache policy|show|search|depends` and `apt list|show` read the local package lists.
 * - `cargo metadata|tree|pkgid` run the rustc a checkout's `.cargo/config.toml` or
 *   `rust-toolchain.toml` names and may write Cargo.lock: program runs.
 * - `bundle` evaluates the Gemfile (Ruby) and `composer` loads the project's plugins on every
 *   verb: program runs (composer reads only with --no-plugins).
 * - `go list` loads packages without building them (no cgo, no compiler) unless -export,
 *   -compiled or -toolexec (not listed); -u, -versions and -retracted ask the module proxy.
 * - `go env NAME`, `npm config get NAME`, `pip cache dir` print settings; `go env -w`,
 *   `npm config set`, `pip cache purge`, `pnpm store prune` change them.
 */

/** A verb that only reads (local files and databases), with its options. */
const reads = (flags = '', options: Record<string, OptionUse> = {}, operands: 'data' | 'read' = 'data'): ProgramRow =>
  row(operands, { flags, options });
/** A verb that asks a registry or index over the network. */
const queries = (where: string, flags = '', options: Record<string, OptionUse> = {}): ProgramRow =>
  row('data', { flags, options, effects: [connects(where)] });
/** Any verb not listed: it runs what the tool runs for it. */
const runsVerb = row('data', {
  custom: (site: CallSite) => site.emit({ kind: 'run-program', program: site.name, via: site.name }),
});
/** Verbs that install packages: their install scripts run. */
const installs = (name: string): ProgramRow =>
  always(runs(`the install scripts of what ${name} installs`, undefined, 'high'), connects('a package registry'));
/** yarn and bundle alone install: only asking about the tool itself reads. */
const installsAlone = (name: string): ProgramRow =>
  row('data', {
    custom: (site) => {
      if (site.args.length > 0 && site.args.every((word) => /^(-v|--version|-h|--help)$/.test(word.value ?? '')))
        return;
      for (const effect of installs(name).effects ?? []) site.emit({ ...effect, via: name });
    },
  });
const verbs = (names: readonly string[], value: ProgramRow): Record<string, ProgramRow> =>
  Object.fromEntries(names.map((verb) => [verb, value]));

/** A tool by verbs: read verbs by name, installing verbs, the rest run. `''` is the call without a verb. */
function manager(
  name: string,
  global: { flags?: string; options?: Record<string, OptionUse> },
  table: Record<string, ProgramRow>,
  installing: readonly string[],
): ProgramRow {
  return row('data', {
    ...global,
    subcommands: { ...verbs(installing, installs(name)), ...table },
    otherSubcommands: runsVerb,
  });
}

/**
 * A tool whose own options are the same before a verb and alone (`pnpm -r`, `pip -V`): alone, with
 * them, it only reads.
 */
function managerAlone(
  name: string,
  global: { flags: string; options: Record<string, OptionUse> },
  table: Record<string, ProgramRow>,
  installing: readonly string[],
): ProgramRow {
  return manager(name, global, { '': reads(global.flags, global.options), ...table }, installing);
}

/** `npm config get KEY`: a key that holds a credential reads the credential store. */
const npmConfigGet = (common: string): ProgramRow =>
  row('data', {
    flags: common,
    custom: (site) => {
      applyOperands(site, row('data', { flags: common }));
      if (site.args.some((word) => word.value === undefined || /auth|token|pass|cert|key|_/i.test(word.value))) {
        site.emit({
          kind: 'read-db',
          object: 'the npm configuration',
          secret: `${site.name} prints registry tokens and passwords`,
        });
      }
    },
  });

// npm: config flags allowed anywhere on the line.
const NPM =
  '-g --global --json -l --long -p --parseable -s --silent -q --quiet -d --dd --ddd --no-color --color -a --all --workspaces --include-workspace-root --no-workspaces --offline --unicode --no-unicode --production --dev --prod --link --package-lock-only';
const NPM_OPTIONS: Record<string, OptionUse> = {
  '--loglevel': 'data',
  '-w': 'data',
  '--workspace': 'data',
  '--prefix': 'data',
  '-C': 'data',
  '--omit': 'data',
  '--include': 'data',
  '--depth': 'data',
  '--registry': 'data',
  '--userconfig': 'read',
  '--location': 'data',
};
const NPM_READ = reads(NPM, NPM_OPTIONS);
const NPM_REGISTRY = queries('the npm registry', NPM, NPM_OPTIONS);

const npm = withExamples(
  managerAlone(
    'npm',
    { flags: `${NPM} -v -h`, options: NPM_OPTIONS },
    {
      ...verbs(
        ['ls', 'list', 'll', 'la', 'why', 'explain', 'help', 'help-search', 'root', 'prefix', 'query', 'sbom'],
        NPM_READ,
      ),
      ...verbs(
        ['view', 'v', 'info', 'show', 'outdated', 'search', 's', 'se', 'find', 'ping', 'audit', 'doctor'],
        NPM_REGISTRY,
      ),
      // `npm run` alone lists the scripts; `npm run X` runs one.
      ...verbs(['run', 'run-script'], row('data', { subcommands: { '': NPM_READ }, otherSubcommands: runsVerb })),
      // `npm version` alone prints versions; `npm version patch` runs scripts, commits and tags.
      version: row('data', { subcommands: { '': NPM_READ }, otherSubcommands: runsVerb }),
      config: row('data', {
        subcommands: { get: npmConfigGet(NPM), list: NPM_READ, ls: NPM_READ },
        otherSubcommands: runsVerb,
      }),
      get: npmConfigGet(NPM),
      cache: row('data', { subcommands: { ls: NPM_READ }, otherSubcommands: runsVerb }),
      pkg: row('data', { subcommands: { get: NPM_READ }, otherSubcommands: runsVerb }),
    },
    [
      'install',
      'i',
      'in',
      'add',
      'ci',
      'install-test',
      'it',
      'install-ci-test',
      'uninstall',
      'remove',
      'rm',
      'r',
      'un',
      'update',
      'up',
      'upgrade',
      'exec',
      'x',
      'publish',
      'link',
      'ln',
      'rebuild',
      'rb',
      'dedupe',
      'ddp',
      'prune',
      'init',
      'create',
    ],
  ),
  {
    judged: 'read',
    match: ['npm ls', 'npm ls --depth=0'],
    notMatch: ['npm version minor -f', 'npm --prefix . version patch'],
  },
);

const PNPM =
  '-r --recursive -g --global --json --long --parseable -P --prod -D --dev --no-optional --only-projects -w --workspace-root -s --silent --color --no-color --aggregate-output --stream --frozen-lockfile --offline';
const PNPM_OPTIONS: Record<string, OptionUse> = {
  '--filter': 'data',
  '-F': 'data',
  '-C': 'data',
  '--dir': 'data',
  '--depth': 'data',
  '--reporter': 'data',
  '--loglevel': 'data',
};
const PNPM_READ = reads(PNPM, PNPM_OPTIONS);
const pnpm = withExamples(
  managerAlone(
    'pnpm',
    { flags: `${PNPM} -v -h`, options: PNPM_OPTIONS },
    {
      ...verbs(['ls', 'list', 'll', 'la', 'why', 'root', 'bin', 'help'], PNPM_READ),
      ...verbs(
        ['outdated', 'view', 'info', 'show', 'audit', 'search'],
        queries('the npm registry', PNPM, PNPM_OPTIONS),
      ),
      run: row('data', { subcommands: { '': PNPM_READ }, otherSubcommands: runsVerb }),
      licenses: row('data', { subcommands: { list: PNPM_READ, ls: PNPM_READ }, otherSubcommands: runsVerb }),
      // `pnpm store path|status` read the store; `store prune|add` change it.
      store: row('data', { subcommands: { path: PNPM_READ, status: PNPM_READ }, otherSubcommands: runsVerb }),
      config: row('data', { subcommands: { get: npmConfigGet(PNPM), list: PNPM_READ }, otherSubcommands: runsVerb }),
    },
    [
      'install',
      'i',
      'add',
      'remove',
      'rm',
      'uninstall',
      'un',
      'update',
      'up',
      'upgrade',
      'dlx',
      'exec',
      'publish',
      'link',
      'ln',
      'unlink',
      'rebuild',
      'rb',
      'dedupe',
      'prune',
      'import',
      'create',
      'fetch',
      'deploy',
      'env',
      'setup',
      'self-update',
      'patch',
      'patch-commit',
    ],
  ),
  { judged: 'read', match: ['pnpm', 'pnpm list'], notMatch: ['pnpm env use --global 20'] },
);

// yarn alone installs: only -v/--version/-h/--help read.
const YARN = '--json --silent --no-progress --recursive -R --all -A --verbose';
const YARN_READ = reads(YARN);
const yarn = withExamples(
  manager(
    'yarn',
    {},
    {
      '': installsAlone('yarn'),
      ...verbs(['list', 'why', 'bin', 'help', 'versions'], YARN_READ),
      ...verbs(['info', 'outdated', 'npm'], queries('the npm registry', YARN)),
      run: row('data', { subcommands: { '': YARN_READ }, otherSubcommands: runsVerb }),
      config: row('data', {
        subcommands: { '': YARN_READ, get: npmConfigGet(YARN), list: YARN_READ },
        otherSubcommands: runsVerb,
      }),
      workspaces: row('data', { subcommands: { info: YARN_READ, list: YARN_READ }, otherSubcommands: runsVerb }),
    },
    ['install', 'add', 'remove', 'upgrade', 'up', 'dlx', 'publish', 'link', 'create', 'import'],
  ),
  { judged: 'read', match: ['yarn -v', 'yarn list'], notMatch: ['yarn --frozen-lockfile', 'yarn versions --bump'] },
);

// pip: general options are accepted after any verb; --log and --cache-dir write, --python runs another interpreter.
const PIP =
  '-v -q --verbose --quiet --isolated --no-color --disable-pip-version-check --no-input --require-virtualenv --no-python-version-warning --no-cache-dir --debug';
const PIP_OPTIONS: Record<string, OptionUse> = {
  '--log': 'write',
  '--log-file': 'write',
  '--local-log': 'write',
  '--cache-dir': 'write',
  '--python': 'run',
  '--proxy': 'data',
  '--retries': 'data',
  '--timeout': 'data',
  '--exists-action': 'data',
  '--trusted-host': 'data',
  '--cert': 'read',
  '--client-cert': 'read',
  '--use-feature': 'data',
  '--use-deprecated': 'data',
  '--progress-bar': 'data',
  '--root-user-action': 'data',
  '-i': 'data',
  '--index-url': 'data',
  '--extra-index-url': 'data',
  '-f': 'data',
  '--find-links': 'data',
  '--path': 'list',
  '--exclude': 'data',
};
const PIP_READ = reads(PIP, PIP_OPTIONS);
const pipRow = withExamples(
  managerAlone(
    'pip',
    { flags: `${PIP} -V -h`, options: PIP_OPTIONS },
    {
      list: reads(
        `${PIP} -e -l --editable --local --user --pre --not-required --exclude-editable --include-editable --no-index`,
        {
          ...PIP_OPTIONS,
          '--format': 'data',
          '-o': 'connects',
          '--outdated': 'connects',
          '-u': 'connects',
          '--uptodate': 'connects',
        },
      ),
      show: reads(`${PIP} -f --files`, PIP_OPTIONS),
      freeze: reads(`${PIP} -l --local --user --all --exclude-editable`, {
        ...PIP_OPTIONS,
        '-r': 'read',
        '--requirement': 'read',
      }),
      ...verbs(['check', 'help', 'debug', 'inspect'], reads(`${PIP} --local --user --verbose`, PIP_OPTIONS)),
      hash: reads(PIP, { ...PIP_OPTIONS, '-a': 'data', '--algorithm': 'data' }, 'read'),
      cache: row('data', {
        subcommands: { dir: PIP_READ, info: PIP_READ, list: reads(PIP, { ...PIP_OPTIONS, '--format': 'data' }) },
        otherSubcommands: runsVerb,
      }),
      config: row('data', {
        subcommands: { list: PIP_READ, get: PIP_READ, debug: PIP_READ },
        otherSubcommands: runsVerb,
      }),
      index: row('data', {
        subcommands: { versions: queries('the package index', PIP, PIP_OPTIONS) },
        otherSubcommands: runsVerb,
      }),
      search: queries('the package index', PIP, PIP_OPTIONS),
    },
    ['install', 'download', 'wheel', 'uninstall'],
  ),
  { judged: 'read', match: ['pip list', 'pip cache dir'], notMatch: ['pip list --python /tmp/x', 'pip list -o'] },
);

const UV = '-q -v --quiet --verbose --no-cache --offline --no-progress --native-tls --no-config';
const UV_OPTIONS: Record<string, OptionUse> = {
  '--directory': 'data',
  '--project': 'data',
  '--cache-dir': 'write',
  '--config-file': 'read',
  '--color': 'data',
};
const UV_READ = reads(UV, UV_OPTIONS);
const uv = withExamples(
  managerAlone(
    'uv',
    { flags: `${UV} -V -h`, options: UV_OPTIONS },
    {
      help: UV_READ,
      version: reads(`${UV} --short`, { ...UV_OPTIONS, '--output-format': 'data' }),
      // `uv tree` locks the project first (writes uv.lock) unless --frozen.
      tree: row('data', {
        custom: (site) =>
          site.args.some((word) => word.value === '--frozen')
            ? applyOperands(
                site,
                reads(`${UV} --frozen --no-dedupe --invert --outdated`, {
                  ...UV_OPTIONS,
                  '-d': 'data',
                  '--depth': 'data',
                  '--package': 'data',
                }),
              )
            : site.emit(runs('uv tree, which locks the project (writes uv.lock)')),
      }),
      pip: row('data', {
        subcommands: {
          list: reads(`${UV} --strict`, { ...UV_OPTIONS, '--format': 'data' }),
          show: reads(`${UV} --files`, UV_OPTIONS),
          freeze: UV_READ,
          tree: UV_READ,
        },
        otherSubcommands: runsVerb,
      }),
      tool: row('data', {
        subcommands: { list: reads(`${UV} --show-paths --show-version-specifiers`, UV_OPTIONS), dir: UV_READ },
        otherSubcommands: runsVerb,
      }),
      python: row('data', {
        subcommands: { list: reads(`${UV} --only-installed --all-versions`, UV_OPTIONS), find: UV_READ, dir: UV_READ },
        otherSubcommands: runsVerb,
      }),
      cache: row('data', { subcommands: { dir: UV_READ }, otherSubcommands: runsVerb }),
    },
    ['add', 'remove', 'sync', 'lock', 'venv', 'build', 'publish'],
  ),
  { judged: 'read', match: ['uv'], notMatch: ['uv version --bump patch', 'uv --cache-dir out.txt a.txt'] },
);

const POETRY = '-q -v -vv -vvv -n --quiet --verbose --no-interaction --no-ansi --ansi --no-plugins --no-cache';
const POETRY_OPTIONS: Record<string, OptionUse> = {
  '-C': 'data',
  '--directory': 'data',
  '-P': 'data',
  '--project': 'data',
};
const poetry = withExamples(
  managerAlone(
    'poetry',
    { flags: `${POETRY} -V -h`, options: POETRY_OPTIONS },
    {
      ...verbs(['about', 'help', 'list', 'check'], reads(`${POETRY} --lock --strict`, POETRY_OPTIONS)),
      show: reads(`${POETRY} --tree -T --top-level -a --all --why --no-dev`, {
        ...POETRY_OPTIONS,
        '--with': 'data',
        '--without': 'data',
        '--only': 'data',
        '-o': 'connects',
        '--outdated': 'connects',
        '-l': 'connects',
        '--latest': 'connects',
      }),
      // `poetry version` prints it; `poetry version patch` changes pyproject.toml.
      version: row('data', {
        subcommands: { '': reads(`${POETRY} -s --short --dry-run`, POETRY_OPTIONS) },
        otherSubcommands: runsVerb,
      }),
      env: row('data', {
        subcommands: {
          info: reads(`${POETRY} -p --path -e --executable`, POETRY_OPTIONS),
          list: reads(`${POETRY} --full-path`, POETRY_OPTIONS),
        },
        otherSubcommands: runsVerb,
      }),
      search: queries('the package index', POETRY, POETRY_OPTIONS),
    },
    ['install', 'add', 'remove', 'update', 'lock', 'build', 'publish', 'sync'],
  ),
  { judged: 'read', match: ['poetry', 'poetry list'], notMatch: ['poetry config --unset x', 'poetry show --outdated'] },
);

// cargo: --config and -Z can name any program (build.rustc); metadata and tree run the toolchain.
const CARGO = '-v -vv -q --verbose --quiet --frozen --locked --offline';
const CARGO_OPTIONS: Record<string, OptionUse> = { '--color': 'data', '-C': 'data', '--manifest-path': 'read' };
const cargo = withExamples(
  managerAlone(
    'cargo',
    { flags: `${CARGO} -V -h --list`, options: CARGO_OPTIONS },
    {
      ...verbs(
        ['version', 'help', 'locate-project'],
        reads(`${CARGO} --workspace`, { ...CARGO_OPTIONS, '--message-format': 'data' }),
      ),
      ...verbs(
        ['search', 'info'],
        queries('crates.io', CARGO, { ...CARGO_OPTIONS, '--limit': 'data', '--registry': 'data', '--index': 'data' }),
      ),
      ...verbs(
        ['metadata', 'tree', 'pkgid', 'verify-project', 'read-manifest'],
        always(runs("the rustc the project's configuration names (cargo may also write Cargo.lock)")),
      ),
    },
    ['install', 'uninstall', 'publish', 'add', 'remove', 'update', 'fetch'],
  ),
  {
    judged: 'read',
    match: ['cargo'],
    notMatch: ['cargo metadata --format-version 1', 'cargo --config build.rustc=./x version'],
  },
);

// go: Go flags take one or two dashes.
const dashes = (names: string): string =>
  names
    .split(' ')
    .flatMap((name) => [`-${name}`, `--${name}`])
    .join(' ');
const goOptions = (flags: string, values: string, uses: Record<string, OptionUse> = {}): Record<string, OptionUse> => ({
  ...Object.fromEntries(
    dashes(flags)
      .split(' ')
      .filter((name) => name !== '--' && name !== '-')
      .map((name) => [name, 'flag' as OptionUse]),
  ),
  ...Object.fromEntries(
    dashes(values)
      .split(' ')
      .filter((name) => name !== '--' && name !== '-')
      .map((name) => [name, 'data' as OptionUse]),
  ),
  ...uses,
});
const go = withExamples(
  manager(
    'go',
    {},
    {
      '': reads(),
      help: reads(),
      // go version FILE reads a binary's build information.
      version: row('read', { options: goOptions('m v json', '') }),
      // go env NAME prints settings; -w and -u change them.
      env: row('data', {
        options: goOptions('json changed', '', {
          '-w': 'changes',
          '--w': 'changes',
          '-u': 'changes',
          '--u': 'changes',
        }),
      }),
      list: row('data', {
        options: goOptions('e json m deps test find', 'f C mod modfile tags', {
          '-u': 'connects',
          '--u': 'connects',
          '-versions': 'connects',
          '--versions': 'connects',
          '-retracted': 'connects',
          '--retracted': 'connects',
        }),
      }),
      doc: row('data', { options: goOptions('all c cmd short src u', 'C') }),
    },
    ['install', 'get'],
  ),
  { judged: 'read', match: ['go env GOPATH', 'go'], notMatch: ['go env -w GOFLAGS=-x', 'go env -u GOPATH'] },
);

// gem: local queries unless -r/--remote/-b.
const GEM =
  '-l --local -d --details --no-details --versions --no-versions -a --all -e --exact --prerelease --no-prerelease -q --quiet --verbose --no-verbose -V --norc';
const GEM_OPTIONS: Record<string, OptionUse> = {
  '-r': 'connects',
  '--remote': 'connects',
  '-b': 'connects',
  '--both': 'connects',
  '-i': 'list',
  '--install-dir': 'list',
  '-v': 'data',
  '--version': 'data',
  '--platform': 'data',
  '--config-file': 'read',
};
const GEM_READ = reads(GEM, GEM_OPTIONS);
const gem = withExamples(
  manager(
    'gem',
    { flags: '-v -h --norc', options: { '--config-file': 'read' } },
    {
      '': reads('-v -h'),
      ...verbs(
        [
          'list',
          'query',
          'info',
          'specification',
          'spec',
          'environment',
          'env',
          'contents',
          'which',
          'help',
          'dependency',
        ],
        GEM_READ,
      ),
      ...verbs(['search', 'outdated'], queries('rubygems.org', GEM, GEM_OPTIONS)),
    },
    ['install', 'update', 'uninstall'],
  ),
  { judged: 'read', match: ['gem', 'gem list'], notMatch: ['gem list --remote'] },
);

// bundle evaluates the Gemfile (Ruby) on every verb but these.
const bundle = withExamples(
  manager('bundle', {}, { '': installsAlone('bundle'), help: reads(), version: reads() }, [
    'install',
    'update',
    'add',
    'package',
    'exec',
  ]),
  { judged: 'run-program', match: ['bundle list', 'bundle'] },
);

// composer loads the project's plugins on every verb unless --no-plugins.
const COMPOSER =
  '--no-plugins --no-scripts -q --quiet -v -vv -vvv --verbose -n --no-interaction --no-ansi --ansi --no-cache -a --all -i --installed -l --locked -N --name-only -D --direct -t --tree -r --recursive --strict --no-check-publish --no-check-all --no-dev';
const composerRead = (network: boolean): ProgramRow =>
  row('data', {
    custom: (site) => {
      if (!site.args.some((word) => word.value === '--no-plugins'))
        site.emit(runs("the project's Composer plugins (without --no-plugins)"));
      applyOperands(
        site,
        row('data', { flags: COMPOSER, options: { '-d': 'data', '--working-dir': 'data', '--format': 'data' } }),
      );
      if (network) site.emit({ kind: 'connect', host: 'packagist.org', via: site.name });
    },
  });
const composer = withExamples(
  manager(
    'composer',
    { flags: '-V -h --no-plugins' },
    {
      '': reads('-V --version -h --help'),
      ...verbs(
        [
          'show',
          'info',
          'licenses',
          'depends',
          'why',
          'why-not',
          'prohibits',
          'validate',
          'help',
          'about',
          'check-platform-reqs',
          'fund',
        ],
        composerRead(false),
      ),
      ...verbs(['outdated', 'search', 'diagnose'], composerRead(true)),
    },
    ['install', 'require', 'remove', 'update', 'create-project', 'global', 'reinstall'],
  ),
  { judged: 'read', match: ['composer'] },
);

export const PACKAGE_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  npm,
  pnpm,
  yarn,
  pip: pipRow,
  pip3: pipRow,
  uv,
  poetry,
  cargo,
  go,
  gem,
  bundle,
  composer,
};
