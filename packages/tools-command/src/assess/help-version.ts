import type { WordValue } from './words.js';

/**
 * `X --help`, `X -h`, `X --version`, `X -V` of any program, riskgate knows it or not (issue 18,
 * item 5): by convention the program prints its usage or version and stops. Convention is not a
 * guarantee — a program may do anything with any word — so these run unasked only inside the
 * sandbox, where whatever the program really does cannot write, connect or signal outside it.
 * Without the sandbox they are judged as before (a known program's row; an unknown program asks).
 *
 * Only when the word is the sole argument: `cmake -h` is help, `cmake -h build` is not a question
 * about cmake. The bare words `help` and `version` are not taken: for `make help`, `just help` or
 * `task version` they name a target the program runs.
 */
const SPELLINGS = new Set(['--help', '-h', '--version', '-V', '-help', '-version', '--usage']);

/**
 * Programs for which one of these spellings means something else (reason per program):
 * - shells: `bash -h` is set -h (hashall) and then reads a script from standard input;
 * - `-h` halts: shutdown, halt, poweroff, reboot (`shutdown -h` schedules a halt);
 * - `-h` names a host: database and cache clients (`mysql -h`, `psql -h`, `redis-cli -h`), which
 *   also start a session;
 * - `-V`/`-version` is not a version for: `gcc -V` (pick a compiler version), `perl -V` (prints
 *   the configuration, with the environment's PERL variables).
 * - `vim -V` is verbose and opens the editor; `screen -h N` sets the scrollback and starts a session;
 *   `broot -h` shows hidden files in its file browser, `dotty -V` starts the REPL after the version
 *   (both found among the 15,019 side-effect lines of bench/real-world-commands).
 * Builtins and wrappers never get here (`exec -h`, `env -h`, `timeout -h` are judged as such).
 */
const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));
const MEANS_ELSE: Readonly<Record<string, ReadonlySet<string>>> = {
  '-h': words(`
    sh bash dash zsh ksh mksh ash csh tcsh rbash fish busybox
    shutdown halt poweroff reboot telinit init
    mysql mariadb mysqladmin mysqldump psql pg_dump pg_dumpall pg_restore pg_isready redis-cli mongo mongosh
    clickhouse-client sqlcmd cqlsh influx
    screen broot`),
  '-V': words('gcc perl cc vim vi nvim view ex dotty'),
  '-version': words('gcc perl cc'),
};

/** Whether `word` means something other than help or version for `name` (`bash -h`, `vim -V`). */
export function meansSomethingElse(name: string, word: string): boolean {
  return MEANS_ELSE[word]?.has(name) === true;
}

/** Whether a call only asks the program about itself, in the sandbox, and so runs unasked. */
export function asksAboutItselfInSandbox(sandbox: boolean, name: string, args: readonly WordValue[]): boolean {
  if (!sandbox || args.length !== 1) return false;
  const word = args[0]!;
  const text = word.value;
  if (text === undefined || word.unknown || word.glob || word.texts.length !== 1 || !SPELLINGS.has(text)) return false;
  return !meansSomethingElse(name, text);
}
