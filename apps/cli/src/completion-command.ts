import { helpFor } from './help-text.js';
import { MCP_HELP } from './mcp/mcp-command.js';
import { trustHelp } from './trust-command.js';
import { UNDO_HELP } from './undo-subcommand.js';

/** What an option takes: nothing, a file, a folder, one of fixed words, or free text. */
type Takes = { readonly kind: 'flag' | 'file' | 'dir' | 'text' } | { readonly kind: 'words'; readonly words: string[] };

interface OptionSpec {
  readonly long: string;
  readonly short?: string;
  readonly takes: Takes;
}

interface CommandSpec {
  /** '' for `riskgate` itself (chat mode). */
  readonly name: string;
  readonly options: readonly OptionSpec[];
  /** Words a first positional argument takes (assess: the tools; completion: the shells). */
  readonly positionals: readonly string[];
}

const TOOLS = ['execute_sql', 'describe_schema', 'execute_command', 'file_operations', 'http_request'];
const SHELLS = ['bash', 'zsh', 'fish'];
const COMMANDS = ['sql', 'chat', 'assess', 'mcp', 'demo', 'demo-db', 'trust', 'doctor', 'undo', 'completion', 'help'];

/** Fixed words on an option's help line: "strict | smart (default) | guarded". */
function wordsOn(line: string): string[] | undefined {
  const list = /\b[a-z][a-z-]*(?: \(default\))?(?:\s*\|\s*[a-z][a-z-]*(?: \(default\))?)+/.exec(line);
  return list?.[0].split('|').map((word) => word.replace('(default)', '').trim());
}

const FLAG: Takes = { kind: 'flag' };

function takesFor(placeholder: string | undefined, line: string): Takes {
  if (placeholder === undefined) return FLAG;
  if (placeholder === 'dir') return { kind: 'dir' };
  if (placeholder.startsWith('file')) return { kind: 'file' };
  const words = wordsOn(line);
  return words === undefined ? { kind: 'text' } : { kind: 'words', words };
}

/**
 * A command's options as its --help states them, so completion can never offer what --help
 * (which the tests hold to each parser) does not.
 */
export function optionsFromHelp(help: string): OptionSpec[] {
  const found = new Map<string, OptionSpec>();
  const add = (match: RegExpMatchArray, line: string) => {
    const long = match[2]!;
    if (found.has(long)) return;
    const takes = match[3] === undefined ? takesFor(match[4], line) : FLAG;
    found.set(long, { long, ...(match[1] === undefined ? {} : { short: match[1] }), takes });
  };
  const lines = help.split('\n');
  // Option lines first ("  --mode <m>  strict | …"): what an option takes is said there.
  for (const line of lines) {
    const match = /^\s+(?:(-[a-z]), )?(--[a-z][a-z-]+)(\[=<[^>]+>\])?(?: <([^>]+)>)?/.exec(line);
    if (match !== null) add(match, line);
  }
  // Then options only named in prose or usage lines ("riskgate trust --revoke [<dir>]").
  for (const line of lines)
    for (const match of line.matchAll(/(?:^|\s)()(--[a-z][a-z-]+)(\[=<[^>]+>\])?()/g)) add(match, '');
  return [...found.values()];
}

export function commandSpecs(): CommandSpec[] {
  const spec = (name: string, help: string, positionals: readonly string[] = []): CommandSpec => ({
    name,
    options: optionsFromHelp(help),
    positionals,
  });
  return [
    spec('', helpFor('chat'), COMMANDS),
    spec('sql', helpFor('sql')),
    spec('chat', helpFor('chat')),
    spec('assess', helpFor('assess'), TOOLS),
    spec('mcp', MCP_HELP),
    spec('demo', helpFor('demo')),
    spec('demo-db', helpFor('demo-db')),
    spec('trust', trustHelp()),
    spec('doctor', helpFor('doctor')),
    spec('undo', UNDO_HELP, ['list']),
    spec('completion', helpFor('completion'), SHELLS),
    spec(
      'help',
      '',
      COMMANDS.filter((command) => command !== 'help'),
    ),
  ];
}

function bashValueCases(specs: readonly CommandSpec[]): string {
  const cases: string[] = [];
  for (const command of specs) {
    for (const option of command.options) {
      const { takes } = option;
      const action =
        takes.kind === 'file'
          ? 'COMPREPLY=($(compgen -f -- "$cur"))'
          : takes.kind === 'dir'
            ? 'COMPREPLY=($(compgen -d -- "$cur"))'
            : takes.kind === 'words'
              ? `COMPREPLY=($(compgen -W "${takes.words.join(' ')}" -- "$cur"))`
              : takes.kind === 'text'
                ? 'COMPREPLY=()'
                : undefined;
      if (action !== undefined) cases.push(`    "${command.name}:${option.long}") ${action}; return ;;`);
    }
  }
  return cases.join('\n');
}

function bashScript(specs: readonly CommandSpec[]): string {
  const words = specs
    .map((command) => {
      const options = command.options.flatMap((option) => [option.long, ...(option.short ? [option.short] : [])]);
      const positionals = command.positionals.join(' ');
      // Options when the word starts with "-" (or the command takes no positional), else positionals.
      return `    "${command.name}") options="${options.join(' ')}"; positionals="${positionals}" ;;`;
    })
    .join('\n');
  return `# riskgate completion for bash (riskgate completion bash)
_riskgate() {
  local cur prev command="" word words options positionals i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${COMMANDS.join('|')}) command="$word"; break ;;
    esac
  done
  case "$command:$prev" in
${bashValueCases(specs)}
  esac
  case "$command" in
${words}
  esac
  if [[ "$cur" == -* || -z "$positionals" ]]; then words="$options"; else words="$positionals"; fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _riskgate riskgate
`;
}

function fishLine(command: CommandSpec, option: OptionSpec): string {
  const condition = command.name === '' ? `__fish_use_subcommand` : `__fish_seen_subcommand_from ${command.name}`;
  const short = option.short === undefined ? '' : ` -s ${option.short.slice(1)}`;
  const { takes } = option;
  const value =
    takes.kind === 'file'
      ? ' -r -F'
      : takes.kind === 'dir'
        ? " -r -f -a '(__fish_complete_directories)'"
        : takes.kind === 'words'
          ? ` -r -f -a '${takes.words.join(' ')}'`
          : takes.kind === 'text'
            ? ' -r -f'
            : '';
  return `complete -c riskgate -n '${condition}' -l ${option.long.slice(2)}${short}${value}`;
}

function fishScript(specs: readonly CommandSpec[]): string {
  const lines = ['# riskgate completion for fish (riskgate completion fish)', 'complete -c riskgate -f'];
  for (const command of specs) {
    const condition = command.name === '' ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${command.name}`;
    if (command.positionals.length > 0)
      lines.push(`complete -c riskgate -n '${condition}' -a '${command.positionals.join(' ')}'`);
    for (const option of command.options) lines.push(fishLine(command, option));
  }
  return `${lines.join('\n')}\n`;
}

/** zsh runs the bash function through its bashcompinit layer, so both shells complete alike. */
function zshScript(specs: readonly CommandSpec[]): string {
  return `#compdef riskgate
# riskgate completion for zsh (riskgate completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(specs).replace(/^# riskgate completion for bash.*\n/, '')}`;
}

export function completionScript(shell: string): string | undefined {
  const specs = commandSpecs();
  if (shell === 'bash') return bashScript(specs);
  if (shell === 'zsh') return zshScript(specs);
  if (shell === 'fish') return fishScript(specs);
  return undefined;
}

/** `riskgate completion <bash|zsh|fish>`: the script on stdout. */
export function runCompletion(
  argv: readonly string[],
  io: { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream },
): number {
  const script = argv.length === 1 ? completionScript(argv[0]!) : undefined;
  if (script === undefined) {
    io.stderr.write(
      `riskgate completion: name one shell: bash, zsh or fish${argv.length === 0 ? '' : ` (got ${argv.join(' ')})`}\nRun "riskgate completion --help" for usage.\n`,
    );
    return 1;
  }
  io.stdout.write(script);
  return 0;
}
