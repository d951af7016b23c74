// The entry point stays tiny: --version and --help must not load tools, parsers or drivers.
import { setFlagsFromString } from 'node:v8';
import { flushTelemetry } from './telemetry.js';
import { helpFor } from './help-text.js';
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
  // trust, mcp and undo print their own help; every other command has its own part.
  if (first !== 'trust' && first !== 'mcp' && first !== 'undo' && wantsHelp(argv)) {
    process.stdout.write(helpFor(first));
    return 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === 'help') {
    // `riskgate help sql` is `riskgate sql --help`.
    if (rest[0] === 'trust' || rest[0] === 'mcp' || rest[0] === 'undo') return main([rest[0], '--help']);
    process.stdout.write(helpFor(rest[0]));
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
  if (first === 'demo') {
    const { runDemo } = await import('./demo-command.js');
    return runDemo(rest, { stderr: process.stderr });
  }
  if (first === 'completion') {
    const { runCompletion } = await import('./completion-command.js');
    return runCompletion(rest, { stdout: process.stdout, stderr: process.stderr });
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
    const command = first === 'sql' || first === 'chat' ? `riskgate ${first}` : 'riskgate';
    process.stderr.write(`riskgate: ${parsed.error}\nRun "${command} --help" for usage.\n`);
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
