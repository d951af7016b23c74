import { applyOperands } from './apply.js';
import { parseArgs, reportUnlisted, unlistedEffect } from './options.js';
import { known, type WordValue } from './words.js';
import { type CallSite, type ProgramRow, row } from './table.js';

/**
 * Programs whose words a table row cannot describe alone: find's expressions, date's
 * `+FORMAT` and `-f FILE`, ps's BSD letters, dd's `if=`/`of=`, tar's modes, shells and
 * interpreters. Each judge says why in its comment.
 */

/** find's tests, actions, operators and options that take no value and only read or print (GNU findutils 4.9). */
const FIND_PLAIN = new Set([
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
  '-true',
  '-false',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
  '-depth',
  '-d',
  '-follow',
  '-mount',
  '-xdev',
  '-noleaf',
  '-nouser',
  '-nogroup',
  '-daystart',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-warn',
  '-nowarn',
  '-help',
  '--help',
  '-version',
  '--version',
  '(',
  ')',
  '!',
  ',',
]);

const FIND_VALUES = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-type',
  '-xtype',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-newer',
  '-anewer',
  '-cnewer',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-samefile',
  '-maxdepth',
  '-mindepth',
  '-fstype',
  '-context',
  '-used',
  '-lname',
  '-ilname',
  '-printf',
]);

/**
 * find lists whole trees; `-exec`/`-execdir`/`-ok`/`-okdir` run a command on every match
 * (judged with `{}` standing for the names found), `-delete` deletes them, `-fprint*`/`-fls`
 * write a file, `-files0-from` reads one.
 */
export function findProgram(site: CallSite): void {
  const args = site.args;
  let index = 0;
  // -L (and the -follow predicate) follow every symbolic link below the starting points.
  let followsLinks = args.some((word) => word.value === '-follow');
  while (index < args.length && /^-[HLP]$|^-D$|^-O\d*$/.test(args[index]!.value ?? '')) {
    if (args[index]!.value === '-L') followsLinks = true;
    else if (args[index]!.value === '-P') followsLinks = args.some((word) => word.value === '-follow');
    index += args[index]!.value === '-D' ? 2 : 1;
  }
  const starts: WordValue[] = [];
  while (index < args.length) {
    const value = args[index]!.value;
    if (
      value !== undefined &&
      (value.startsWith('-') || value === '(' || value === '!' || value === ')' || value === ',')
    )
      break;
    if (value === undefined && args[index]!.texts.some((text) => !text.startsWith('/') && !text.startsWith('.'))) {
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `find gets ${args[index]!.raw}, known only at run time, which could be an expression such as -delete`,
      });
    }
    starts.push(args[index]!);
    index++;
  }
  if (starts.length === 0) starts.push(known('.'));
  for (const start of starts)
    site.path('list', start, { recursive: true, via: 'find', ...(followsLinks ? { followsLinks } : {}) });
  const named = (start: WordValue): WordValue => ({
    raw: '{}',
    texts: start.texts,
    value: undefined,
    unknown: false,
    glob: start.glob,
    tree: { path: start.value ?? start.texts[0]!, recursive: true, ...(followsLinks ? { followsLinks } : {}) },
  });
  for (; index < args.length; index++) {
    const word = args[index]!;
    const value = word.value;
    if (value === undefined) {
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `find gets ${word.raw}, known only at run time, which could be an expression such as -delete`,
      });
      continue;
    }
    if (value === '-exec' || value === '-execdir' || value === '-ok' || value === '-okdir') {
      const command: WordValue[] = [];
      for (index++; index < args.length && args[index]!.value !== ';' && args[index]!.value !== '+'; index++) {
        const part = args[index]!;
        command.push(part.value?.includes('{}') ? named(starts[0]!) : part);
      }
      // find runs the command once per match (or per batch): a program run, and the command judged too.
      const program = command[0]?.value;
      site.emit({
        kind: 'run-program',
        program: program === undefined ? 'a command known only at run time' : program,
        via: `find ${value}`,
      });
      site.command(command, `find ${value}`);
    } else if (value === '-delete') {
      for (const start of starts) site.path('delete', start, { recursive: true, via: 'find -delete' });
    } else if (value === '-fprint' || value === '-fprint0' || value === '-fls' || value === '-fprintf') {
      const file = args[++index];
      if (file !== undefined) site.path('write', file, { via: `find ${value}` });
      if (value === '-fprintf') index++;
    } else if (value === '-files0-from') {
      const file = args[++index];
      if (file !== undefined) site.path('read', file, { via: 'find -files0-from' });
    } else if (FIND_VALUES.has(value) || /^-newer[aBcm][aBcmt]$/.test(value)) index++;
    // Options fail closed (issue 18): a predicate riskgate does not know could run or write.
    else if (!FIND_PLAIN.has(value)) site.emit(unlistedEffect('find', value));
  }
}

const DATE = row('data', {
  flags: '-uR --utc --universal --rfc-email --rfc-822 --rfc-2822 --iso-8601 --debug',
  options: {
    '-I': 'optional',
    '-d': 'data',
    '--date': 'data',
    '-f': 'read',
    '--file': 'read',
    '-r': 'list',
    '--reference': 'list',
    '-s': 'unknown',
    '--set': 'unknown',
    '--rfc-3339': 'data',
    '--resolution': 'flag',
  },
});

/** date: `-f FILE` reads FILE (and prints each line it cannot parse); `-s` or an MMDDhhmm operand sets the clock. */
export function dateProgram(site: CallSite): void {
  const parsed = parseArgs(DATE, site.args, site);
  reportUnlisted(site, parsed);
  for (const option of parsed.options) {
    if ((option.use === 'read' || option.use === 'list') && option.value !== undefined)
      site.path(option.use, option.value, { via: `date ${option.name}` });
    if (option.use === 'unknown')
      site.emit({ kind: 'control-process', detail: 'date -s sets the system clock', via: 'date' });
  }
  if (parsed.operands.some((word) => !(word.value ?? '+').startsWith('+')))
    site.emit({ kind: 'control-process', detail: 'date with a date operand sets the system clock', via: 'date' });
}

/** ps: BSD letters without a dash (`e` in `ps auxe`) and `-E` print each process's environment. */
export function psProgram(site: CallSite): void {
  for (const word of site.args) {
    const value = word.value ?? '';
    if ((/^[a-zA-Z]+$/.test(value) && value.includes('e')) || /^-[a-zA-Z]*E/.test(value) || value === '--environment') {
      site.emit({ kind: 'read-env', names: 'all', via: `ps ${value}` });
    }
  }
}

/** getent: the shadow databases are password hashes. */
export function getentProgram(site: CallSite): void {
  const database = site.args.find((word) => !(word.value ?? '').startsWith('-'));
  if (database?.value === 'shadow' || database?.value === 'gshadow')
    site.path('read', known(`/etc/${database.value}`), { via: 'getent' });
  else if (database?.value === undefined && database !== undefined)
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `getent reads a database named at run time (${database.raw})`,
    });
}

/** printenv NAME… prints those variables; alone, all of them. */
export function printenvProgram(site: CallSite): void {
  const names = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
  if (names.length === 0 || names.some((word) => word.value === undefined))
    site.emit({ kind: 'read-env', names: 'all', via: 'printenv' });
  else site.emit({ kind: 'read-env', names: names.map((word) => word.value!), via: 'printenv' });
}

/** hostname alone prints the name; with a name (or -F/-b, or any option not listed as printing) it sets it. */
export function hostnameProgram(site: CallSite): void {
  const prints =
    /^-[aAdfiIsy]+$|^--(alias|all-fqdns|domain|fqdn|long|ip-address|all-ip-addresses|short|yp|nis|help|version)$/;
  if (site.args.some((word) => !prints.test(word.value ?? 'x'))) {
    site.emit({ kind: 'control-process', detail: "hostname with a name sets the machine's name", via: 'hostname' });
  }
}

/** less and more: `+cmd` words are commands run inside them (`+!sh` runs a shell); the rest are files read. */
export function pagerProgram(pagerRow: ProgramRow): (site: CallSite) => void {
  return (site) => {
    for (const word of site.args) {
      if ((word.value ?? word.raw).startsWith('+'))
        site.emit({ kind: 'run-program', program: `the ${site.name} command ${word.raw}`, via: site.name });
    }
    applyOperands(site.withArgs(site.args.filter((word) => !(word.value ?? word.raw).startsWith('+'))), pagerRow);
  };
}

/** dd: `if=` is read, `of=` is written (raw, from the start: high). */
export function ddProgram(site: CallSite): void {
  for (const word of site.args) {
    const value = word.value ?? '';
    const match = /^(if|of)=(.*)$/s.exec(value);
    if (match === null) {
      if (word.value === undefined)
        site.emit({ kind: 'unknown', severity: 'high', detail: `dd gets ${word.raw}, known only at run time` });
      continue;
    }
    site.path(match[1] === 'if' ? 'read' : 'write', known(match[2]!), {
      via: 'dd',
      ...(match[1] === 'of' ? { severity: 'high' as const } : {}),
    });
  }
}

/** tar: `t` lists an archive; `c`/`r`/`u` write one (-f); `x` writes files; several options run programs. */
export function tarProgram(site: CallSite): void {
  const words = site.args.map((word) => word.value ?? '');
  const first = words[0] ?? '';
  const letters = `${/^[a-zA-Z]+$/.test(first) ? first : ''}${words.filter((word) => /^-[a-zA-Z]+$/.test(word)).join('')}`;
  const longs = words.filter((word) => word.startsWith('--'));
  // Long options count abbreviated (`--use-comp=id`, `--to-c=sh`): any prefix tar would accept.
  const runs =
    longs.find((word) => TAR_RUNS.some((option) => abbreviates(word, option))) ??
    (/[IF]/.test(letters) ? '-I' : undefined);
  if (runs !== undefined)
    site.emit({ kind: 'run-program', program: `the program tar ${runs.split('=')[0]} names`, via: 'tar' });
  const fileIndex = site.args.findIndex((word) => /^-[a-zA-Z]*f$/.test(word.value ?? '') || word.value === '--file');
  const archive =
    fileIndex === -1
      ? /f/.test(first) && !first.startsWith('-')
        ? site.args[1]
        : undefined
      : site.args[fileIndex + 1];
  const attached = longs.find((word) => word.startsWith('--file='));
  const archiveWord = attached !== undefined ? known(attached.slice(7)) : archive;
  // `host:file` (a colon before any slash) is a remote archive tar reaches through rsh/ssh.
  if (/^[^/]*:/.test(archiveWord?.value ?? '') && !longs.some((word) => word.startsWith('--force-l'))) {
    site.emit({
      kind: 'connect',
      host: (archiveWord!.value ?? '').split(':')[0] || 'a remote host',
      note: `tar -f ${archiveWord!.raw} reads a remote archive over rsh`,
      via: 'tar',
    });
  }
  const list = /t/.test(letters) || longs.includes('--list');
  const extract = /x/.test(letters) || longs.some((word) => word === '--extract' || word === '--get');
  if (list || extract) {
    if (archiveWord !== undefined) site.path('read', archiveWord, { via: 'tar' });
    if (extract) site.path('write', known('.'), { recursive: true, via: 'tar -x' });
    return;
  }
  if (archiveWord !== undefined) site.path('write', archiveWord, { via: 'tar' });
  // -C DIR reads the names after it in DIR; -T FILE reads names from FILE: neither is followed.
  const elsewhere = site.args.find(
    (word) =>
      /^-[a-zA-Z]*[CT]$|^-[CT].|^--(di|fi|files-)/.test(word.value ?? '') && !/^--(file=|file$)/.test(word.value ?? ''),
  );
  if (elsewhere !== undefined)
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `tar ${elsewhere.raw} reads files riskgate does not place (another directory, or names from a file)`,
      via: 'tar',
    });
  // -h follows the symbolic links it meets, archiving what they lead to.
  const followsLinks = /h/.test(letters) || longs.some((word) => abbreviates(word, '--dereference'));
  for (const word of site.args.slice(1))
    if (word !== archiveWord && !(word.value ?? '-').startsWith('-'))
      site.path('read', word, { recursive: true, via: 'tar', ...(followsLinks ? { followsLinks } : {}) });
}

/** Shells: `-c SCRIPT` is judged as a line of its own; a script file or standard input runs unread. */
export function shellProgram(site: CallSite): void {
  const args = site.args;
  let command = false;
  for (let index = 0; index < args.length; index++) {
    const value = args[index]!.value;
    if (value === undefined || !/^[-+]/.test(value) || value === '-' || value === '--') {
      if (command) site.script(value, `${site.name} -c`);
      else if (value !== '-' && value !== '--') {
        // A script file is a custom script: unknown, the model's risk_level decides (the spec).
        site.emit({
          kind: 'unknown',
          detail: `runs the script ${args[index]!.raw}, which riskgate does not read`,
          via: site.name,
        });
        site.path('read', args[index]!, { via: site.name });
      } else continue;
      return;
    }
    if (value === '--rcfile' || value === '--init-file')
      site.emit({ kind: 'run-program', program: `the start-up file ${args[++index]?.raw ?? ''}`, via: site.name });
    else if (value === '-o' || value === '+o' || value === '-O' || value === '+O') index++;
    else if (/^-[a-zA-Z]*c/.test(value)) command = true;
  }
  if (command) site.emit({ kind: 'run-program', program: `${site.name} with no script`, via: site.name });
  else site.emit({ kind: 'run-program', program: `a ${site.name} script read from its input`, via: site.name });
}

/** Tracers, debuggers, recorders and database clients: they run or send what they are given (programs.ts registers them). */
export const RUNS_WHAT_IT_IS_GIVEN: ReadonlySet<string> = new Set([
  'strace',
  'ltrace',
  'gdb',
  'lldb',
  'valgrind',
  'perf',
  'script',
  'tmux',
  'screen',
  'expect',
  'sqlite3',
  'psql',
  'mysql',
  'mariadb',
  'redis-cli',
  'mongo',
  'mongosh',
  'dotnet',
  'java',
]);

/**
 * Interpreters run code: code on the command line (`-c`, `-e`, `-m`) or from their input is a
 * known program run; a script file (`python3 tool.py`) is a custom script, unknown (the spec).
 */
export function interpreterProgram(site: CallSite): void {
  // `node -v`, `python3 -V`, `ruby --version`: they only print what they are.
  if (site.args.length === 1 && /^(-v|-V|--version|-version|-h|--help)$/.test(site.args[0]!.value ?? '')) return;
  // tmux show-environment prints the environment tmux hands to new shells.
  if (
    (site.name === 'tmux' || site.name === 'screen') &&
    site.args.some((word) => /^(show-environment|showenv)$/.test(word.value ?? ''))
  ) {
    site.emit({ kind: 'read-env', names: 'all', via: `${site.name} show-environment` });
    return;
  }
  // Tracers, debuggers, recorders and database clients run or send whatever they are given
  // (`strace rm -rf x`, `gdb -ex 'shell id'`, `script -c`, `redis-cli FLUSHALL`): never a plain script file.
  if (RUNS_WHAT_IT_IS_GIVEN.has(site.name)) {
    site.emit({
      kind: 'run-program',
      program: site.name,
      via: site.name,
      note: `${site.name} runs or sends what it is given: ${site.args
        .map((word) => word.raw)
        .join(' ')
        .slice(0, 60)}`,
    });
    return;
  }
  const code = site.args.findIndex((word) =>
    /^-([cemr]|[a-zA-Z]*[ep]e?|-eval|-print|-command)$/.test(word.value ?? ''),
  );
  const file = site.args.find((word) => !(word.value ?? '-').startsWith('-'));
  if (code === -1 && file !== undefined) {
    site.emit({
      kind: 'unknown',
      detail: `${site.name} runs ${file.raw}, which riskgate does not read`,
      via: site.name,
    });
    return;
  }
  const note =
    code === -1
      ? `runs what it reads from its input`
      : `runs the code it is given: ${(site.args[code + 1]?.raw ?? '').slice(0, 60)}`;
  site.emit({ kind: 'run-program', program: site.name, via: site.name, note });
}

/** tar's long options that run a program or write elsewhere. */
const TAR_RUNS = [
  '--to-command',
  '--use-compress-program',
  '--checkpoint-action',
  '--info-script',
  '--new-volume-script',
  '--rsh-command',
  '--rmt-command',
  '--index-file',
];

/** Whether `word` (`--use=id`, `--use-comp=id`) is `option` or a prefix of it: erring wide only asks more. */
function abbreviates(word: string, option: string): boolean {
  const name = word.split('=')[0]!;
  return name.length >= 4 && option.startsWith(name);
}
