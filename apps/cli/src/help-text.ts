// Every command's --help, in one small module of strings: main.ts imports it for --help only,
// so printing help loads no tools, parsers or drivers.
import { VERSION } from './version.js';

const MODEL_OPTIONS = `  --mode <m>          strict | smart (default) | guarded
  --yolo              run everything unasked (deny rules still hold); never the default;
                      an organisation's managed policy still holds (docs/policy.md)
  --model <name>      the model (or RISKGATE_MODEL, or "model" in the config)
  --base-url <url>    any OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --resume[=<id>]     continue the latest session, or the one named
  -p, --print         headless: the question follows, or comes on stdin
  --output-format <f> headless output: text (default) | json | stream-json
                      (--output is the same); a question after -p and text on stdin combine
  --yes               headless: approve what needs confirmation (without it, refused)
  -h, --help          this help`;

const EXIT_AND_CONFIG = `Exit status: 0 success; 1 error; 2 something was not run for lack of consent (refused
without a terminal, or answered "no" on one); 129/143 stopped by SIGHUP/SIGTERM.
Configuration: ~/.config/riskgate/config.json and .riskgate/config.json (docs/agent.md);
a project's .riskgate/ only tightens until you run "riskgate trust" (docs/trust.md).
An organisation's /etc/riskgate/managed-policy.json (and RISKGATE_MANAGED_POLICY, which only
adds) holds over all of it (docs/policy.md). RISKGATE_TELEMETRY=1 with OTEL_EXPORTER_OTLP_ENDPOINT
exports every gate decision over OTLP.`;

const DATABASE_SOURCES = `without --db: RISKGATE_DATABASE, DATABASE_URL, PG* variables (PGSERVICE…), MYSQL_* or
~/.my.cnf, else the demo database; what a URL leaves out comes from PG*, service files,
~/.pgpass, ~/.my.cnf as psql/mysql take them (docs/sql.md, "Connecting")`;

const ASSESS_OPTIONS = `Options of assess:
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
  --jsonl             judge one call per stdin line, one JSON verdict per output line
  --no-sandbox        judge commands as if whitelisted ones could not run in the sandbox
                      (by default assess probes for it once, as the assistant does)
  -h, --help          this help
  A "risk_level" inside the arguments is taken as the model's rating. --jsonl reads
  {"tool","args","dialect"?,"mode"?,"cwd"?} per line and writes one line
  {"decision","source","level","whitelisted","reasons","why","findings","notes","effects"} or {"error"} per input line.
`;

const GENERAL = `riskgate ${VERSION} — a terminal AI assistant for databases and the shell,
with risk-based confirmation: safe operations run at once, risky ones ask first.

Usage:
  riskgate [options]                        chat mode: commands, files, HTTP
  riskgate sql [--db <file|url>] [options]  SQL mode on a SQLite file, postgres:// or mysql:// URL
                                            or libpq "host=… dbname=…" string; without --db:
                                            RISKGATE_DATABASE, DATABASE_URL, PG* variables
                                            (PGSERVICE…), MYSQL_* or ~/.my.cnf, else the demo
                                            database (riskgate sql --help)
  riskgate sql <postgres://…|mysql://…>     the same, with the URL as the first argument
  riskgate [sql] -p "question" [options]    headless: answer one question and exit
  riskgate assess <tool> '<json args>'      judge one tool call, print the verdict
  riskgate assess --jsonl                   judge one call per stdin line, JSON out
  riskgate mcp [--db <file|url>] [options]  the gated tools as an MCP server (stdio or HTTP)
                                            (riskgate mcp --help for its tools and options)
  riskgate demo                             try it: SQL mode on a fresh copy of the demo
                                            database with a scripted model (no key, no network)
  riskgate demo-db                          print the path of the demo database
  riskgate trust [--revoke | --list]        let this folder's .riskgate/ apply in full
                                            (untrusted, it may only tighten; docs/trust.md)
  riskgate doctor [--model …] [--db …]      what works here: config, sandbox, model, database
  riskgate undo [N [--force] | list]        put back what a call changed here (/undo outside)
  riskgate completion <bash|zsh|fish>       print a shell completion script
  riskgate --version | --help               (every command takes --help)

Options:
${MODEL_OPTIONS}

${EXIT_AND_CONFIG}

Tools: execute_sql, describe_schema, execute_command, file_operations, http_request.

${ASSESS_OPTIONS}`;

const SQL = `riskgate sql — the assistant in SQL mode (execute_sql, describe_schema)

Usage:
  riskgate sql [--db <file|url>] [options]
  riskgate sql <postgres://…|mysql://…|'host=… dbname=…'> [options]
  riskgate sql [--db …] -p "question" [options]     headless: answer one question and exit

  --db <file|url>     a SQLite file, a postgres:// or postgresql:// URL, a mysql:// or
                      mariadb:// URL, or a libpq "host=… dbname=…" string;
                      ${DATABASE_SOURCES.replace(/\n/g, '\n                      ')}
${MODEL_OPTIONS}

Whitelisted reads (SELECT, EXPLAIN of a read, …) run at once; writes, DDL and anything the
engine cannot vouch for ask "Execute this query? [y/N]" (docs/sql.md).

${EXIT_AND_CONFIG}
`;

const CHAT = `riskgate — the assistant in chat mode (execute_command, file_operations, http_request)

Usage:
  riskgate [chat] [options]
  riskgate [chat] -p "question" [options]           headless: answer one question and exit

${MODEL_OPTIONS}

In the assistant: /help lists the slash commands (/sql, /db, /chat, /mode, /model, /audit,
/resume, /exit …). Commands run in the folder you start riskgate in (docs/commands.md).

${EXIT_AND_CONFIG}
`;

const DOCTOR = `riskgate doctor — what works here, one line per part: the configuration and the
project's trust, the managed policy, telemetry, the sandbox, the model endpoint, the database
and the environment commands get.

Usage:
  riskgate doctor [--model <name>] [--base-url <url>] [--db <file|url>] [--mode <m>]

  --model <name>      check this model (as the assistant's --model would choose it)
  --base-url <url>    check this OpenAI-compatible endpoint (as --base-url would)
  --db <file|url>     check this database (as riskgate sql --db would open it)
  --mode <m>          strict | smart | guarded: show the configuration with this mode
  -h, --help          this help

Exit status: 0 when nothing is broken; 1 when something is (an invalid config or managed
policy, an unreachable model or database). A missing sandbox is not broken: riskgate works
without it and asks more often.
`;

const DEMO = `riskgate demo — SQL mode on a fresh copy of the demo shop database, with a scripted
model on 127.0.0.1 standing in for a real one: no key, no network. Every run starts from the
same data, so it can be replayed; the copy is removed when you leave.

Usage:
  riskgate demo [--mode <m>]

  --mode <m>          strict | smart (default) | guarded
  -h, --help          this help
`;

const DEMO_DB = `riskgate demo-db — print the path of the demo database (a small shop: customers,
orders, payments), building it in the cache folder ($XDG_CACHE_HOME/riskgate) on first use.
"riskgate sql" without a database opens it; your changes to it stay.

Usage:
  riskgate demo-db

  -h, --help          this help
`;

const COMPLETION = `riskgate completion — print a completion script for your shell.

Usage:
  riskgate completion bash    >> ~/.bashrc   (or: source <(riskgate completion bash))
  riskgate completion zsh     > "\${fpath[1]}/_riskgate"   (or: source <(riskgate completion zsh))
  riskgate completion fish    > ~/.config/fish/completions/riskgate.fish

It completes commands, options and their fixed values (modes, output formats, dialects,
tools); files where an option takes a file.

  -h, --help          this help
`;

/** The help for `riskgate <command> --help` (trust and mcp print their own). */
export function helpFor(command: string | undefined): string {
  switch (command) {
    case 'sql':
      return SQL;
    case 'chat':
      return CHAT;
    case 'assess':
      return `riskgate assess <tool> '<json args>' | --jsonl\n\n${ASSESS_OPTIONS}`;
    case 'doctor':
      return DOCTOR;
    case 'demo':
      return DEMO;
    case 'demo-db':
      return DEMO_DB;
    case 'completion':
      return COMPLETION;
    default:
      return GENERAL;
  }
}
