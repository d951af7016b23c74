// The entry point stays tiny: --version and --help must not load tools, parsers or drivers.
import { setFlagsFromString } from 'node:v8';
import { flushTelemetry } from './telemetry.js';
import { VERSION } from './version.js';

// WebAssembly in this process runs on V8's baseline compiler (Liftoff) only. The parsers are
// WebAssembly (tree-sitter-bash, libpg-query; Ink's layout engine too), and V8 would otherwise
// tier a hot function up with TurboFan on a worker thread: ~320 ms of CPU for the bash grammar's
// lexer alone (one 160 KB function), and Node waits for such jobs whenever its event loop
// empties — in the middle of a headless run's first tool call, and again at exit (a PostgreSQL
// run's exit waited 107–163 ms for libpg-query's). What TurboFan saves is a few µs per parse of
// a model's line (Liftoff parses the 10,000-character lines of bench/command-assessor.bench.ts
// in about 1.5× the time). Set before anything compiles: a module keeps the tier it was compiled with.
setFlagsFromString('--liftoff-only');

const HELP = `riskgate ${VERSION} — a terminal AI assistant for databases and the shell,
with risk-based confirmation: safe operations run at once, risky ones ask first.

Usage:
  riskgate [options]                        chat mode: commands, files, HTTP
  riskgate sql [--db <file|url>] [options]  SQL mode on a SQLite file, postgres:// or mysql:// URL
                                            or libpq "host=… dbname=…" string; without --db:
                                            RISKGATE_DATABASE, DATABASE_URL, PG* variables
                                            (PGSERVICE…), MYSQL_* or ~/.my.cnf, else the demo
                                            database; what a URL leaves out comes from PG*,
                                            service files, ~/.pgpass, ~/.my.cnf as psql/mysql
                                            take them (docs/sql.md, "Connecting")
  riskgate sql <postgres://…|mysql://…>     the same, with the URL as the first argument
  riskgate [sql] -p "question" [options]    headless: answer one question and exit
  riskgate assess <tool> '<json args>'      judge one tool call, print the verdict
  riskgate assess --jsonl                   judge one call per stdin line, JSON out
  riskgate mcp [--db <file|url>] [options]  the gated tools as an MCP server (stdio or HTTP)
                                            (riskgate mcp --help for its tools and options)
  riskgate demo-db                          print the path of the demo database
  riskgate trust [--revoke | --list]        let this folder's .riskgate/ apply in full
                                            (untrusted, it may only tighten; docs/trust.md)
  riskgate doctor                           what works here: config, sandbox, model, database
  riskgate undo [N [--force] | list]        put back what a call changed here (/undo outside)
  riskgate --version | --help

Options:
  --mode <m>          strict | smart (default) | guarded
  --yolo              run everything unasked (deny rules still hold); never the default;
                      an organisation's managed policy still holds (docs/policy.md)
  --model <name>      the model (or RISKGATE_MODEL, or "model" in the config)
  --base-url <url>    any OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --resume[=<id>]     continue the latest session, or the one named
  -p, --print         headless: the question follows, or comes on stdin
  --output-format <f> headless output: text (default) | json | stream-json
                      (--output is the same); a question after -p and text on stdin combine
  --yes               headless: approve what needs confirmation (without it, refused)

Exit status: 0 success; 1 error; 2 something was not run for lack of consent (refused
without a terminal, or answered "no" on one); 129/143 stopped by SIGHUP/SIGTERM.
Configuration: ~/.config/riskgate/config.json and .riskgate/config.json (docs/agent.md);
a project's .riskgate/ only tightens until you run "riskgate trust" (docs/trust.md).
An organisation's /etc/riskgate/managed-policy.json (and RISKGATE_MANAGED_POLICY, which only
adds) holds over all of it (docs/policy.md). RISKGATE_TELEMETRY=1 with OTEL_EXPORTER_OTLP_ENDPOINT
exports every gate decision over OTLP.

Tools: execute_sql, describe_schema, execute_command, file_operations, http_request.

Options of assess:
  --mode <m>          strict | smart | guarded | yolo   (default: smart)
  --dialect <d>       sqlite | postgres | mysql for execute_sql (default: sqlite)
  --cwd <dir>         the workspace paths and commands resolve against (default: .)
  --db <file|url>     judge SQL against this database: SQLite then gives its own verdict
  --allow <rule>      a user allow rule, e.g. 'execute_sql(SELECT *)'   (repeatable)
  --ask <rule>        a user ask rule                                   (repeatable)
  --deny <rule>       a user deny rule                                  (repeatable)
  --config            also apply the config in force for --cwd: mode and rules of your
                      config file, the project's (under workspace trust) and RISKGATE_MODE
  --json              print the single verdict as one JSON object
  --no-sandbox        judge commands as if whitelisted ones could not run in the sandbox
                      (by default assess probes for it once, as the assistant does)
  A "risk_level" inside the arguments is taken as the model's rating. --jsonl reads
  {"tool","args","dialect"?,"mode"?,"cwd"?} per line and writes one line
  {"decision","source","level","whitelisted","reasons","why","findings","notes","effects"} or {"error"} per input line.
`;

/** `riskgate <anything> --help` prints the help (assess its own part) instead of failing on it. */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  // `riskgate assess --jsonl | head`: the reader left; stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  // trust, mcp and undo print their own help.
  if (first !== 'trust' && first !== 'mcp' && first !== 'undo' && wantsHelp(argv)) {
    process.stdout.write(
      first === 'assess'
        ? `riskgate assess <tool> '<json args>' | --jsonl\n\n${HELP.slice(HELP.indexOf('Options of assess:'))}`
        : HELP,
    );
    return 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === 'assess') {
    const { runAssess } = await import('./assess-command.js');
    return runAssess(rest, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
  }
  if (first === 'trust') {
    const { runTrust } = await import('./trust-command.js');
    return runTrust(rest, { stdout: process.stdout, stderr: process.stderr });
  }
  if (first === 'mcp') {
    const { runMcp } = await import('./mcp/mcp-command.js');
    return runMcp(rest, { stdout: process.stdout, stderr: process.stderr });
  }
  if (first === 'undo') {
    const { runUndo } = await import('./undo-subcommand.js');
    return runUndo(rest, { stdout: process.stdout, stderr: process.stderr });
  }
  if (first === 'doctor') {
    const { runDoctor } = await import('./doctor-command.js');
    return runDoctor(rest, { stdout: process.stdout, stderr: process.stderr });
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
  if (first !== undefined && !first.startsWith('-') && first !== 'sql' && first !== 'chat') {
    process.stderr.write(`riskgate: unknown command "${first}"\nRun "riskgate --help" for usage.\n`);
    return 1;
  }
  const { parseAssistantArgs } = await import('./assistant-args.js');
  const parsed = parseAssistantArgs(argv);
  if ('error' in parsed) {
    process.stderr.write(`riskgate: ${parsed.error}\nRun "riskgate --help" for usage.\n`);
    return 1;
  }
  const { runAssistant } = await import('./run-assistant.js');
  return runAssistant(parsed);
}

main(process.argv.slice(2)).then(
  async (code) => {
    process.exitCode = code;
    // Decisions still waiting go to the collector, within a bound; one that hangs would keep
    // the process alive through its open request, so riskgate then leaves without it.
    if (!(await flushTelemetry())) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(
      `riskgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
