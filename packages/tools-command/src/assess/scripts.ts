import { awkProblem } from './awk-program.js';
import { jqProblem } from './jq-filter.js';
import { type GetoptSpec, getopt } from './getopt.js';
import { known, type WordValue } from './words.js';
import type { CallSite } from './table.js';

/**
 * The script languages commands carry inside their words — sed, awk, jq — read for what
 * they run, write, read and take from the environment. Every script counts (`sed -e … -e …`),
 * and a script riskgate cannot read (from a file, built at run time) is asked about.
 */

interface ScriptFindings {
  /** Commands the script runs; undefined for one known only at run time. */
  readonly runs: (string | undefined)[];
  readonly writes: string[];
  readonly reads: string[];
  /** The script did not parse: nothing in it can be trusted. */
  problem?: string;
}

const findings = (): ScriptFindings => ({ runs: [], writes: [], reads: [] });

function report(site: CallSite, found: ScriptFindings, via: string): void {
  if (found.problem !== undefined)
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `riskgate cannot read the ${site.name} script ${via}: ${found.problem}`,
    });
  for (const command of found.runs) {
    // Running a command from inside a sed or awk script is never a read-only use of sed or awk
    // (no everyday read needs it; it is how payloads hide): a program run, and the command judged too.
    site.emit({
      kind: 'run-program',
      program: command === undefined ? 'a command built at run time' : `"${command.slice(0, 60)}"`,
      via: `${site.name} ${via}`,
    });
    site.script(command, `${site.name} ${via}`);
  }
  for (const file of found.writes) site.path('write', known(file), { via: `${site.name} ${via}` });
  for (const file of found.reads) site.path('read', known(file), { via: `${site.name} ${via}` });
}

// ---------------------------------------------------------------------------------------------
// sed

/** Read a GNU sed script: `e`, `s///e` run commands; `w`, `W`, `s///w` write; `r`, `R` read. */
export function readSedScript(script: string): ScriptFindings {
  return new SedScript(script).read();
}

/** A sed script read once from start to end: addresses, then one command at a time. */
class SedScript {
  private readonly found = findings();
  private readonly script: string;
  private index = 0;

  constructor(script: string) {
    this.script = script;
  }

  read(): ScriptFindings {
    const { script, found } = this;
    while (this.index < script.length && found.problem === undefined) {
      while (/[\s;]/.test(this.at()) && this.index < script.length) this.index++;
      if (this.index >= script.length) break;
      this.address();
      if (this.at() === ',') {
        this.index++;
        this.address();
      }
      while (/[\s!]/.test(this.at())) this.index++;
      this.command(script[this.index++] ?? '');
    }
    return found;
  }

  private at(offset = 0): string {
    return this.script[this.index + offset] ?? '';
  }

  private restOfLine(): string {
    const end = this.script.indexOf('\n', this.index);
    const text = this.script.slice(this.index, end === -1 ? this.script.length : end);
    this.index = end === -1 ? this.script.length : end;
    return text.trim();
  }

  private delimited(delimiter: string): boolean {
    while (this.index < this.script.length) {
      const char = this.script[this.index++]!;
      if (char === '\\') this.index++;
      else if (char === delimiter) return true;
    }
    return false;
  }

  private address(): void {
    if (/\d/.test(this.at())) while (/[\d~]/.test(this.at())) this.index++;
    else if (this.at() === '$') this.index++;
    else if (this.at() === '/' || this.at() === '\\') {
      const delimiter = this.at() === '\\' ? this.at(1) : '/';
      this.index += this.at() === '\\' ? 2 : 1;
      if (!this.delimited(delimiter)) this.found.problem = 'an address does not end';
      while (/[IM]/.test(this.at())) this.index++;
    } else if (this.at() === '+' || this.at() === '~') {
      this.index++;
      while (/\d/.test(this.at())) this.index++;
    }
  }

  private command(command: string): void {
    const { script, found } = this;
    switch (command) {
      case '{':
      case '}':
        break;
      case '#':
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line (one-liner GNU form).
        while (this.index < script.length && this.at() !== '\n') this.index += this.at() === '\\' ? 2 : 1;
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        // GNU sed 4.9 ends a label at whitespace too (`:a e id` runs `e id`): the label stops
        // there, and what follows is read as the next command.
        while (this.index < script.length && this.at() === ' ') this.index++;
        while (this.index < script.length && !/[;\n}\s]/.test(this.at())) this.index++;
        break;
      case 'r':
      case 'R':
        found.reads.push(this.restOfLine());
        break;
      case 'w':
      case 'W':
        found.writes.push(this.restOfLine());
        break;
      case 'e': {
        const text = this.restOfLine();
        // A bare `e` runs the pattern space: a command taken from the input.
        found.runs.push(text === '' ? undefined : text);
        break;
      }
      case 's':
      case 'y':
        this.substitute(command);
        break;
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        while (/[\s\d]/.test(this.at()) && this.at() !== '\n') this.index++;
        break;
      default:
        if (!'=dDgGhHnNpPxzF'.includes(command)) found.problem = `unknown command "${command}"`;
    }
  }

  /** `s/…/…/FLAGS` and `y/…/…/`: the `e` flag runs the result, `w FILE` writes it. */
  private substitute(command: 's' | 'y'): void {
    const found = this.found;
    const delimiter = this.script[this.index++] ?? '';
    if (
      delimiter === '' ||
      delimiter === '\n' ||
      delimiter === '\\' ||
      !this.delimited(delimiter) ||
      !this.delimited(delimiter)
    ) {
      found.problem = `the ${command} command does not end`;
      return;
    }
    if (command === 'y') return;
    while (/[gpiImMe0-9]/.test(this.at())) {
      if (this.at() === 'e') found.runs.push(undefined);
      this.index++;
    }
    if (this.at() === 'w') {
      this.index++;
      found.writes.push(this.restOfLine());
    }
  }
}

/**
 * GNU sed 4.9's options, read as its getopt_long does (getopt.ts): clusters (`-nif` is -n and
 * -i with suffix `f`), attached values (`-e'w x'`), abbreviations (`--in` is --in-place, `--e`
 * --expression), and options after operands still options (sed permutes). Any other option is
 * asked about.
 */
const SED_SPEC: GetoptSpec = {
  options: {
    '-n --quiet --silent': 'none',
    '--debug': 'none',
    '-e --expression': 'required',
    '-f --file': 'required',
    '--follow-symlinks': 'none',
    '-i --in-place': 'optional',
    '-l --line-length': 'required',
    '--posix': 'none',
    '-E -r --regexp-extended': 'none',
    '-s --separate': 'none',
    '--sandbox': 'none',
    '-u --unbuffered': 'none',
    '-z --null-data --zero-terminated': 'none',
    '-b --binary': 'none',
  },
};

export function sedProgram(site: CallSite): void {
  const scripts: (WordValue | 'file')[] = [];
  const parsed = getopt(SED_SPEC, site.args);
  let inPlace = false;
  let sandbox = false;
  for (const option of parsed.options) {
    if (option.unlisted)
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `${site.name} ${option.name} is not an option riskgate knows to keep sed a read`,
        via: `${site.name} ${option.name}`,
      });
    else if (option.name === '-e') scripts.push(option.value ?? known(''));
    else if (option.name === '-f') {
      if (option.value !== undefined) site.path('read', option.value, { via: 'sed -f' });
      scripts.push('file');
    } else if (option.name === '-i') inPlace = true;
    else if (option.name === '--sandbox') sandbox = true;
  }
  if (parsed.runtimeWord !== undefined) {
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${site.name} gets ${parsed.runtimeWord.raw}, known only at run time, which could be an option such as -i`,
      via: site.name,
    });
  }
  const files = [...parsed.operands];
  if (scripts.length === 0 && files.length > 0) scripts.push(files.shift()!);
  for (const script of scripts) {
    if (script === 'file' || script.value === undefined) {
      if (!sandbox)
        site.emit({
          kind: 'run-program',
          program: 'whatever a sed script riskgate cannot read runs',
          severity: 'high',
          via: script === 'file' ? 'sed -f' : `sed ${script.raw}`,
        });
      continue;
    }
    const found = readSedScript(script.value);
    if (sandbox) found.runs.length = found.writes.length = found.reads.length = 0;
    report(site, found, JSON.stringify(script.value.slice(0, 40)));
  }
  for (const file of files) site.path(inPlace ? 'write' : 'read', file, { via: inPlace ? 'sed -i' : 'sed' });
}

// ---------------------------------------------------------------------------------------------
// awk

const unescapeAwk = (text: string): string =>
  text.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t' })[char] ?? char);

/** Read an awk program: system(), pipes to and from commands, output redirections, getline < file, ENVIRON. */
export function readAwkProgram(program: string): ScriptFindings & { environment: string[] | 'all' | undefined } {
  const found = { ...findings(), environment: undefined as string[] | 'all' | undefined };
  const literal = String.raw`"((?:[^"\\]|\\.)*)"`;
  for (const match of program.matchAll(new RegExp(String.raw`\bsystem\s*\(\s*(?:${literal}\s*\)|)`, 'g'))) {
    found.runs.push(match[1] === undefined ? undefined : unescapeAwk(match[1]));
  }
  for (const match of program.matchAll(new RegExp(String.raw`(?:${literal}|([\w$\]\)]+))\s*\|&?\s*getline`, 'g'))) {
    found.runs.push(match[1] === undefined ? undefined : unescapeAwk(match[1]));
  }
  for (const match of program.matchAll(/\bprintf?\b([^;}\n]*)/g)) {
    // Outside strings and parentheses, `>`, `>>`, `|` and `|&` redirect print's output.
    const statement = match[1]!.replace(
      /"(?:[^"\\]|\\.)*"/g,
      (text) => `\u0002${Buffer.from(text).toString('base64')}\u0003`,
    );
    let depth = 0;
    for (let index = 0; index < statement.length; index++) {
      const char = statement[index]!;
      if (char === '(') depth++;
      else if (char === ')') depth--;
      else if (depth === 0 && (char === '>' || char === '|')) {
        const target = statement
          .slice(index + 1)
          .replace(/^[>&]?\s*/, '')
          .trim();
        const quoted = /^\u0002([^\u0003]*)\u0003/.exec(target);
        const text =
          quoted === null ? undefined : unescapeAwk(Buffer.from(quoted[1]!, 'base64').toString().slice(1, -1));
        if (char === '|') found.runs.push(text);
        else if (text === undefined) found.problem = 'print writes to a file named at run time';
        else found.writes.push(text);
        break;
      }
    }
  }
  for (const match of program.matchAll(
    new RegExp(String.raw`getline(?:\s+[\w$]+)?\s*<\s*(?:${literal}|([\w$]+))`, 'g'),
  )) {
    if (match[1] !== undefined) found.reads.push(unescapeAwk(match[1]));
    else found.problem = 'getline reads a file named at run time';
  }
  for (const match of program.matchAll(/\bENVIRON\b(\s*\[\s*"(\w+)"\s*\])?/g)) {
    if (match[2] === undefined) found.environment = 'all';
    else if (found.environment !== 'all') found.environment = [...(found.environment ?? []), match[2]];
  }
  if (/@load\b/.test(program)) found.runs.push(undefined);
  for (const match of program.matchAll(/@include\s+"([^"]*)"/g)) found.reads.push(match[1]!);
  return found;
}

/**
 * gawk 5's options, read as its getopt_long does (`+` in its option string: the program text
 * ends options). Every option that loads code (-f, -E, -i, -l, -e/--source), writes a file
 * (-d, -o, -p, each with an optional attached file name), starts the debugger (-D) or names a
 * long option some other way (-W, mawk's and gawk's spelling of every long option) is read or
 * asked about; any option not listed is asked about.
 */
const AWK_SPEC: GetoptSpec = {
  options: {
    '-f --file': 'required',
    '-F --field-separator': 'required',
    '-v --assign': 'required',
    '-W': 'required',
    '-b --characters-as-bytes': 'none',
    '-c --traditional': 'none',
    '-C --copyright': 'none',
    '-d --dump-variables': 'optional',
    '-D --debug': 'optional',
    '-e --source': 'required',
    '-E --exec': 'required',
    '-g --gen-pot': 'none',
    '-i --include': 'required',
    '-I --trace': 'none',
    '-l --load': 'required',
    '-L --lint': 'optional',
    '-M --bignum': 'none',
    '-N --use-lc-numeric': 'none',
    '-n --non-decimal-data': 'none',
    '-o --pretty-print': 'optional',
    '-O --optimize': 'none',
    '-p --profile': 'optional',
    '-P --posix': 'none',
    '-r --re-interval': 'none',
    '-s --no-optimize': 'none',
    '-S --sandbox': 'none',
    '-t --lint-old': 'none',
    '-h --usage': 'none',
    '-V': 'none',
  },
  stopAtOperand: true,
};

/** Options that only set separators, variables or flags: harmless. */
const AWK_HARMLESS = new Set([
  '-F',
  '-v',
  '-b',
  '-c',
  '-C',
  '-g',
  '-L',
  '-M',
  '-N',
  '-n',
  '-O',
  '-P',
  '-r',
  '-s',
  '-S',
  '-t',
  '-h',
  '-V',
  '--help',
  '--version',
]);

export function awkProgram(site: CallSite): void {
  // Every -e/--source program counts (gawk joins them), as does -f; without them the first operand is the program.
  const programs: (WordValue | 'file')[] = [];
  let inPlace = false;
  let sandbox = false;
  const parsed = getopt(AWK_SPEC, site.args);
  for (const option of parsed.options) {
    const via = `${site.name} ${option.name}`;
    if (option.unlisted || !AWK_HARMLESS.has(option.name)) {
      if (option.name !== '-e' && option.name !== '-i') {
        // Options are allowlisted too: -f/-E/-l load code, -W names any long option, -d/-o/-p write, -D debugs.
        site.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `${site.name} ${option.name} is not an option riskgate knows to be harmless`,
          via,
        });
      }
    }
    if (option.unlisted) continue;
    if (option.name === '-f' || option.name === '-E') {
      if (option.value !== undefined) site.path('read', option.value, { via });
      programs.push('file');
    } else if (option.name === '-e') programs.push(option.value ?? known(''));
    else if (option.name === '-i') {
      const library = option.value?.value;
      if (library === 'inplace' || library === 'inplace.awk') inPlace = true;
      else site.emit({ kind: 'run-program', program: `the awk library ${option.value?.raw ?? ''}`, via });
    } else if (option.name === '-l')
      site.emit({ kind: 'run-program', program: `the awk extension ${option.value?.raw ?? ''}`, via });
    else if (option.name === '-S') sandbox = true;
    else if (option.name === '-d' || option.name === '-o' || option.name === '-p') {
      const defaults: Record<string, string> = { '-d': 'awkvars.out', '-o': 'awkprof.out', '-p': 'awkprof.out' };
      site.path('write', option.value ?? known(defaults[option.name]!), { via });
    }
  }
  const operands = [...parsed.operands];
  if (parsed.runtimeWord !== undefined && parsed.runtimeWord === operands[0] && programs.length > 0) {
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${site.name} gets ${parsed.runtimeWord.raw}, known only at run time, which could be an option`,
      via: site.name,
    });
  }
  if (programs.length === 0 && operands.length > 0) programs.push(operands.shift()!);
  // `var=value` operands are assignments.
  const files = operands.filter((word) => !/^[A-Za-z_]\w*=/.test(word.value ?? ''));
  for (const program of programs) {
    if (program === 'file' || program.value === undefined) {
      if (!sandbox)
        site.emit({
          kind: 'run-program',
          program: `whatever an ${site.name} program riskgate cannot read runs`,
          severity: 'high',
          via: site.name,
        });
      continue;
    }
    const problem = awkProblem(program.value);
    if (problem !== undefined)
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `riskgate reads only awk made of harmless parts: ${problem}`,
        via: site.name,
      });
    // The regular-expression reading below only names what the program does in the reasons.
    const found = readAwkProgram(program.value);
    if (sandbox) found.runs.length = found.writes.length = 0;
    report(site, found, 'program');
    if (found.environment !== undefined)
      site.emit({ kind: 'read-env', names: found.environment, via: `${site.name} ENVIRON` });
  }
  for (const file of files) site.path(inPlace ? 'write' : 'read', file, { via: site.name });
}

// ---------------------------------------------------------------------------------------------
// jq

/** Which environment variables a jq filter reads: `env`, `$ENV` (all) or `env.X`, `$ENV.X`. */
export function jqEnvironment(filter: string): string[] | 'all' | undefined {
  const names: string[] = [];
  const stripped = filter.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const match of stripped.matchAll(/(\$ENV|(?<![\w$.])env)\b(\s*\.\s*([A-Za-z_]\w*)|\s*\[\s*""\s*\])?/g)) {
    if (match[3] === undefined) return 'all';
    names.push(match[3]);
  }
  return names.length > 0 ? names : undefined;
}

/** jq options that only shape input and output or bind named values. */
const JQ_OPTIONS = new Set([
  '--raw-output',
  '--join-output',
  '--compact-output',
  '--null-input',
  '--slurp',
  '--exit-status',
  '--sort-keys',
  '--color-output',
  '--monochrome-output',
  '--ascii-output',
  '--raw-input',
  '--tab',
  '--indent',
  '--seq',
  '--stream',
  '--stream-errors',
  '--unbuffered',
  '--raw-output0',
  '--arg',
  '--argjson',
  '--args',
  '--jsonargs',
  '--',
]);

export function jqProgram(site: CallSite): void {
  let filter: WordValue | 'file' | undefined;
  const files: WordValue[] = [];
  let positional = false;
  const args = site.args;
  const twoValues = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    const value = word.value ?? '';
    if (positional || !value.startsWith('-') || word.value === undefined || value === '-') {
      if (filter === undefined) filter = word;
      else if (!positional) files.push(word);
      continue;
    }
    if (!JQ_OPTIONS.has(value) && !/^-[rjcnseSCMaR]+$/.test(value)) {
      // Options are allowlisted: -f/-L load filters and modules, --rawfile/--slurpfile read files into variables.
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `jq ${value} is not an option riskgate knows to be harmless`,
        via: 'jq',
      });
    }
    if (value === '--args' || value === '--jsonargs') positional = true;
    else if (twoValues.has(value)) {
      const file = args[index + 2];
      if ((value === '--slurpfile' || value === '--rawfile') && file !== undefined)
        site.path('read', file, { via: `jq ${value}` });
      index += 2;
    } else if (value === '-f' || value === '--from-file') {
      const file = args[++index];
      if (file !== undefined) site.path('read', file, { via: `jq ${value}` });
      filter = 'file';
    } else if (value === '--indent') index++;
    else if (value === '-L' || value.startsWith('-L') || value.startsWith('--library-path')) {
      // -L adds a directory of jq modules the filter may import and run.
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: 'jq -L loads jq modules from a directory riskgate does not read',
        via: `jq ${value}`,
      });
      if (value === '-L' || value === '--library-path') index++;
    }
  }
  if (filter === 'file' || (filter !== undefined && filter.value === undefined)) {
    // A filter riskgate cannot read may print the whole environment ($ENV).
    site.emit({ kind: 'read-env', names: 'all', via: 'a jq filter riskgate cannot read' });
  } else if (filter !== undefined) {
    const problem = jqProblem(filter.value!);
    if (problem !== undefined)
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `riskgate reads only jq made of harmless parts: ${problem}`,
        via: 'jq',
      });
    const environment = jqEnvironment(filter.value!);
    if (environment !== undefined)
      site.emit({ kind: 'read-env', names: environment, via: `jq ${filter.raw.slice(0, 40)}` });
  }
  for (const file of files) site.path('read', file, { via: 'jq' });
}
