import type { Effect } from '@riskgate/risk';

/**
 * Shell and environment variables that change what runs: setting one (`PATH=/tmp ls`,
 * `printf -v PATH …; ls`, `export GIT_PAGER=…`) makes a later, harmless-looking command run a
 * program of the line's choosing. One row per name, with why. Every other name is harmless to
 * set (its value is tracked and used where the line reads it back).
 */
export const RUNS_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ['PATH', 'chooses which program each command name runs'],
  ['IFS', 'changes how bash splits words, so later words can turn into other commands'],
  ['BASH_ENV', 'names a script every new bash runs first'],
  ['ENV', 'names a script every new sh runs first'],
  ['SHELLOPTS', 'turns on shell options in every new bash'],
  ['BASHOPTS', 'turns on shell options in every new bash'],
  ['PS4', 'is expanded (running its substitutions) on every traced line'],
  ['PROMPT_COMMAND', 'runs before every prompt'],
  ['HOME', 'is where programs read their start-up files and configuration'],
  ['XDG_CONFIG_HOME', 'is where programs read their configuration'],
  ['ZDOTDIR', 'is where zsh reads its start-up files'],
  ['PAGER', 'is the program many tools run to show output'],
  ['MANPAGER', 'is the program man runs'],
  ['SYSTEMD_PAGER', 'is the program systemctl runs'],
  ['LESSOPEN', 'runs a program on every file less opens'],
  ['LESSCLOSE', 'runs a program after less'],
  ['LESS', 'adds options to less (`+!cmd` runs a command)'],
  ['LESSKEY', 'loads key bindings into less (which may run commands)'],
  ['LESSKEYIN', 'loads key bindings into less (which may run commands)'],
  ['LESSEDIT', 'is the editor command less runs'],
  ['MANOPT', 'adds options to man (`-H BROWSER` runs a browser)'],
  ['JDK_JAVA_OPTIONS', 'adds options (agents) to every java launcher'],
  ['EDITOR', 'is the program tools run to edit'],
  ['VISUAL', 'is the program tools run to edit'],
  ['BROWSER', 'is the program tools run to open pages'],
  ['SSH_ASKPASS', 'runs a program to ask for passwords'],
  ['SUDO_ASKPASS', 'runs a program to ask for passwords'],
  ['NODE_OPTIONS', 'can load code into every node process'],
  ['PYTHONSTARTUP', 'runs a file in every interactive python'],
  ['PYTHONPATH', 'chooses which modules python imports'],
  ['PYTHONHOME', 'chooses which python library is loaded'],
  ['PERL5OPT', 'adds options (and code) to every perl'],
  ['PERL5LIB', 'chooses which modules perl loads'],
  ['PERLLIB', 'chooses which modules perl loads'],
  ['RUBYOPT', 'adds options (and code) to every ruby'],
  ['RUBYLIB', 'chooses which libraries ruby loads'],
  ['JAVA_TOOL_OPTIONS', 'adds options (agents) to every JVM'],
  ['_JAVA_OPTIONS', 'adds options (agents) to every JVM'],
  ['GCONV_PATH', 'loads code into programs that convert text'],
  ['GLOBIGNORE', 'changes what globs match'],
  ['CDPATH', 'changes where cd goes'],
  ['RIPGREP_CONFIG_PATH', 'names a file of rg options (such as --pre, which runs programs)'],
  ['GREP_OPTIONS', 'adds options to grep'],
  ['TAR_OPTIONS', 'adds options (such as --to-command) to tar'],
  ['MAKEFLAGS', 'adds options to make'],
  ['CURL_HOME', 'is where curl reads its configuration'],
  ['WGETRC', 'names the configuration wget reads'],
  ['FPATH', 'chooses where zsh loads functions'],
  ['BASH_XTRACEFD', 'chooses where traces are written'],
  ['HISTFILE', 'chooses where history is written'],
  ['TMOUT', 'ends the shell'],
  // GNU getopt stops at the first operand under it: `grep x a.txt -e ~/.ssh/id_rsa` then reads the key.
  ['POSIXLY_CORRECT', 'changes how every GNU program reads its options (options after operands become files)'],
  ['_POSIX2_VERSION', 'changes how coreutils read their options (`+N`, `-N`)'],
  // Bash evaluates a value assigned to these as arithmetic, which runs `a[$(cmd)]` in it.
  ['RANDOM', 'is evaluated as arithmetic when assigned (a[$(cmd)] in the value runs cmd)'],
  ['SRANDOM', 'is evaluated as arithmetic when assigned (a[$(cmd)] in the value runs cmd)'],
  ['OPTIND', 'is evaluated as arithmetic when assigned (a[$(cmd)] in the value runs cmd)'],
  ['HISTCMD', 'is evaluated as arithmetic when assigned (a[$(cmd)] in the value runs cmd)'],
  ['TEXTDOMAIN', 'chooses the message catalog whose translations of $"…" bash expands'],
  ['TEXTDOMAINDIR', 'chooses where bash finds the message catalog whose translations of $"…" it expands'],
]);

/** Whole families: dynamic loaders, git, npm and pip configuration by environment. */
const RUNS_PROGRAMS_PREFIXES: readonly (readonly [RegExp, string])[] = [
  [/^LD_/, 'changes which libraries the dynamic loader loads into every program'],
  [/^DYLD_/, 'changes which libraries the dynamic loader loads into every program'],
  [/^GIT_/, 'changes what git runs and which repository or configuration it uses'],
  [/^(NPM|npm)_CONFIG_|^npm_config_/, 'changes npm configuration (scripts, registries)'],
  [/^PIP_/, 'changes pip configuration (indexes, options)'],
  // Toolchains read their settings from the environment as much as from their files: a flag that
  // runs a program (GOFLAGS=-toolexec=…), another interpreter or toolchain (UV_PYTHON, RUSTUP_TOOLCHAIN),
  // plugins loaded on every run (GEM_PATH: rubygems_plugin.rb), start-up code (PYTHONUSERBASE: .pth files).
  [
    /^GO(FLAGS|ENV|TOOLCHAIN|ROOT|PATH|BIN|CACHE|MODCACHE|PROXY|NOPROXY|SUMDB|NOSUMDB|PRIVATE|INSECURE|EXPERIMENT|DEBUG|WORK|VCS|AUTH)$|^CGO_/,
    'changes what the go command runs and where it finds its toolchain',
  ],
  [/^UV_/, 'changes uv configuration (the interpreter it runs, indexes)'],
  [
    /^(CARGO|RUSTUP)_|^RUSTC(_WRAPPER|_WORKSPACE_WRAPPER)?$|^RUSTDOC$/,
    'changes which toolchain cargo runs and its configuration',
  ],
  [/^(GEM|RUBYGEMS|BUNDLE|BUNDLER)_/, 'changes where gem and bundle load plugins and gems from'],
  [/^PYTHON/, 'changes how python starts (module paths, start-up code)'],
  [
    /^(YARN|POETRY|COMPOSER|CONDA|PNPM|COREPACK)_|^COMPOSER$/,
    'changes a package manager configuration (scripts, plugins, interpreters)',
  ],
  [/^BASH_FUNC_/, 'defines a function in every new bash'],
];

/** Why setting `name` changes what runs, or undefined when it does not. */
export function whyVariableRunsPrograms(name: string): string | undefined {
  return RUNS_PROGRAMS.get(name) ?? RUNS_PROGRAMS_PREFIXES.find(([pattern]) => pattern.test(name))?.[1];
}

/** The effect of assigning `name` (as `X=…`, `export X=…`, `printf -v X`, `read X`). */
export function assignmentEffect(name: string, via: string): Effect | undefined {
  const why = whyVariableRunsPrograms(name.replace(/\[.*$/, ''));
  if (why === undefined) return undefined;
  return {
    kind: 'run-program',
    program: `whatever ${name} makes later commands run`,
    note: `setting ${name}: it ${why}`,
    via: via.slice(0, 60),
  };
}

/**
 * A builtin or loop that binds `name` (`read PATH`, `for IFS in …`, `(( PATH = 1 ))`,
 * `unset PATH`): when the name changes what runs, the walk does not follow what runs after.
 */
export function rebindsBehaviour(walk: { emit(effect: Effect): void }, name: string, via: string): boolean {
  const why = whyVariableRunsPrograms(name.replace(/\[.*$/s, ''));
  if (why === undefined) return false;
  walk.emit({ kind: 'unknown', severity: 'high', detail: `${via} binds ${name}, which ${why}`, via });
  return true;
}

/** A name a builtin takes (`read NAME`, `unset NAME`, `test -v NAME`): plain, or with a literal index. */
export const PLAIN_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(-?[0-9]+|@|\*)\])?$/;
