// The entry point stays tiny: --version and --help must not load tools, parsers or drivers.
import { VERSION } from './version.js';

const HELP = `riskgate ${VERSION} — a terminal AI assistant for databases and the shell,
with risk-based confirmation: safe operations run at once, risky ones ask first.

Tools: execute_sql, describe_schema, execute_command, file_operations, http_request.

Usage:
  riskgate assess <tool> '<json args>' [options]   judge one tool call, print the verdict
  riskgate assess --jsonl [options]                judge one call per stdin line, JSON out
  riskgate demo-db                                 print the path of the embedded demo database
                                                   (a small shop in SQLite), building it on first use
  riskgate --version                               print the version
  riskgate --help                                  print this help

Options of assess:
  --mode <m>         strict | smart | guarded | yolo   (default: smart)
  --dialect <d>      sqlite | postgres | mysql for execute_sql (default: sqlite)
  --cwd <dir>        the workspace paths and commands resolve against (default: .)
  --db <file|url>    judge SQL against this database (a SQLite file or postgres:// URL):
                     SQLite then gives its own read-only verdict per statement
  --allow <rule>     a user allow rule, e.g. 'execute_sql(SELECT *)'   (repeatable)
  --ask <rule>       a user ask rule                                   (repeatable)
  --deny <rule>      a user deny rule                                  (repeatable)
  --json             print the single verdict as one JSON object

  A "risk_level" inside the arguments is taken as the model's rating.
  --jsonl reads {"tool","args","dialect"?,"mode"?,"cwd"?} per line and writes one line
  {"decision","source","level","whitelisted","reasons"} or {"error"} per input line.
  See docs/assess.md.

Exit status: 0 success, 1 error (unknown tool, malformed arguments or options).

The interactive assistant (chat and SQL modes) is not built yet: see README.md.
`;

async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === 'assess') {
    const { runAssess } = await import('./assess-command.js');
    return runAssess(rest, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
  }
  if (first === 'demo-db') {
    if (rest.length > 0) {
      process.stderr.write('riskgate demo-db: takes no arguments\n');
      return 1;
    }
    const { ensureDemoDatabase } = await import('@riskgate/tools-sql');
    process.stdout.write(`${ensureDemoDatabase()}\n`);
    return 0;
  }
  process.stderr.write(`riskgate: unknown command "${first}"\nRun "riskgate --help" for usage.\n`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`riskgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
