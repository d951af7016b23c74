import { rmSync } from 'node:fs';
import { ConfigError, type ConfigFile, loadConfig, type ResolvedConfig, stateDirectory } from '@riskgate/core/config';
import { colourLevel } from './ui/colour.js';
import type { OutputFormat } from './headless.js';
import type { ConversationKind, Session } from './session/create-session.js';
import { SetupError } from './session/setup-error.js';
import type { TtyConfirmer } from './ui/tty-confirmer.js';
import { setStaticOutputReset } from './ui/static-output.js';

export interface AssistantOptions {
  readonly kind: ConversationKind;
  readonly database?: string;
  readonly flags: ConfigFile;
  readonly resume?: string | true;
  /** Headless: the question, or undefined to read it from stdin. */
  readonly print?: { readonly prompt?: string; readonly format: OutputFormat; readonly yes: boolean };
  /** `riskgate demo`: its database and model are gone at exit, so no resuming is offered. */
  readonly demo?: boolean;
}

/**
 * Ink draws only its last frame when CI or CONTINUOUS_INTEGRATION is set (is-in-ci, read once
 * when Ink is imported). The TUI runs only on a terminal, where a person needs every frame, so
 * the two are masked while Ink loads and restored at once: commands riskgate runs still see
 * them. chalk decides its colour level in the same import and would read the masked CI as "no
 * colour", so FORCE_COLOR carries the level riskgate decided (colourLevel: NO_COLOR wins).
 */
async function importInk(): Promise<typeof import('ink')> {
  const level = colourLevel(process.env, process.stdout.isTTY === true);
  const names = ['CI', 'CONTINUOUS_INTEGRATION', 'FORCE_COLOR'] as const;
  const saved = names.map((name) => [name, process.env[name]] as const);
  process.env.CI = 'false';
  process.env.CONTINUOUS_INTEGRATION = 'false';
  if (level !== undefined) process.env.FORCE_COLOR = String(level);
  // Ink's layout engine (yoga, Emscripten) fetches its inlined WebAssembly from a data: URL when
  // a global fetch exists, and the first touch of Node's fetch loads undici (~12 ms before the
  // first frame); without fetch it decodes the same bytes itself. The property (a lazy getter,
  // not yet called) is put back as it was.
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchProperty?.configurable === true) Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await import('ink');
  } finally {
    if (fetchProperty?.configurable === true) Object.defineProperty(globalThis, 'fetch', fetchProperty);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** The shell's convention: 128 + the signal's number. */
const SIGNAL_EXIT: Record<NodeJS.Signals, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as Record<
  NodeJS.Signals,
  number
>;

const BRACKETED_PASTE_ON = '\u001B[?2004h';
const BRACKETED_PASTE_OFF = '\u001B[?2004l';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function runAssistant(options: AssistantOptions): Promise<number> {
  let config: ResolvedConfig;
  try {
    config = loadConfig({ projectDirectory: process.cwd(), flags: options.flags });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`riskgate: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const headless = options.print !== undefined || !process.stdin.isTTY || !process.stdout.isTTY;
  return headless ? runPrinted(options, config) : runInteractive(options, config);
}

/** Signals that stop what runs; the first one's name gives the exit code. */
function stopOn(signals: readonly NodeJS.Signals[]) {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    controller.abort();
  };
  for (const signal of signals) process.on(signal, stop);
  return {
    signal: controller.signal,
    /** Stopped by a signal: its code (130 for SIGINT, as docs/cli.md says), whatever the run returned. */
    exitCode: (code: number) => (stoppedBy === undefined ? code : SIGNAL_EXIT[stoppedBy]),
    stoppedBy: () => stoppedBy,
    release: () => {
      for (const signal of signals) process.off(signal, stop);
    },
  };
}

/** `riskgate -p`, or no terminal: one turn, each operation and its result on stderr. */
async function runPrinted(options: AssistantOptions, config: ResolvedConfig): Promise<number> {
  const format = options.print?.format ?? 'text';
  // `cat f | riskgate -p "summarise"`: the question, then what came on stdin.
  const piped = process.stdin.isTTY ? '' : await readStdin();
  const given = options.print?.prompt;
  const prompt = given === undefined ? piped : piped === '' ? given : `${given}\n\n${piped}`;
  if (prompt === '') {
    process.stderr.write('riskgate: no question: give one after -p, or on stdin\n');
    return 1;
  }
  // Before anything else can fail: a missing model may be the project's ignored one.
  if (config.project.notice !== undefined) process.stderr.write(`riskgate: ${config.project.notice}\n`);
  if (config.managedNotice !== undefined) process.stderr.write(`riskgate: ${config.managedNotice}\n`);
  const terminal =
    process.stdin.isTTY && process.stderr.isTTY && options.print?.prompt !== undefined
      ? { input: process.stdin, output: process.stderr }
      : undefined;
  const [{ HeadlessConfirmer, runHeadless }, { createSession }] = await Promise.all([
    import('./headless.js'),
    import('./session/create-session.js'),
  ]);
  const yes = options.print?.yes ?? false;
  const confirmer = new HeadlessConfirmer({
    yes,
    stderr: process.stderr,
    ...(terminal === undefined ? {} : { terminal }),
  });
  let session: Session;
  try {
    session = await createSession({ config, kind: options.kind, cwd: process.cwd(), confirmer, ...opening(options) });
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    process.stderr.write(`riskgate: ${error.message}\n`);
    return 1;
  }
  // SIGINT, SIGTERM and SIGHUP stop the turn: a running command's whole process group is ended
  // by the tool, the transcript and audit are written, and riskgate exits after.
  const stopping = stopOn(STOP_SIGNALS);
  try {
    const output = {
      format,
      yes,
      stdout: process.stdout,
      stderr: process.stderr,
      ...(terminal === undefined ? {} : { terminal }),
    };
    const result = await runHeadless(session, prompt, confirmer, output, stopping.signal);
    return stopping.exitCode(result.exitCode);
  } finally {
    stopping.release();
    await session.close();
  }
}

/** The database and the conversation to resume the first session opens with. */
function opening(options: { database?: string | undefined; resume?: string | true | undefined }) {
  return {
    ...(options.database === undefined ? {} : { database: options.database }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
  };
}

/** The TUI. */
async function runInteractive(options: AssistantOptions, config: ResolvedConfig): Promise<number> {
  const cwd = process.cwd();
  const configNotice = config.project.notice;
  const policyNotice = config.managedNotice;
  // The first frame comes first: Ink and the app's shell load, the prompt and status line are
  // drawn, and only then does the session open — its tools, zod schemas, database, schema and
  // the sandbox probe. What is typed meanwhile waits for it (AppProps.initial).
  // Loaded side by side (importInk masks the environment first, synchronously, so Ink is
  // evaluated inside the mask whichever import reaches it).
  const [{ render }, { App }, { TtyConfirmer }, { InputHistory }] = await Promise.all([
    importInk(),
    import('./ui/App.js'),
    import('./ui/tty-confirmer.js'),
    import('./ui/input-history.js'),
  ]);
  const sessions = sessionOpener(config, cwd, new TtyConfirmer(), options);
  const database = options.database ?? config.sql.database;
  const guardMs =
    process.env.RISKGATE_TYPE_AHEAD_MS === undefined ? undefined : Number(process.env.RISKGATE_TYPE_AHEAD_MS);
  // SIGTERM/SIGHUP (a closed terminal): the running tool is cancelled (its process group ends),
  // the app exits and the transcript is closed below.
  const stopping = stopOn(['SIGTERM', 'SIGHUP']);
  // In memory until the first frame is drawn; then its file is read (history-path.ts loads node:crypto).
  const history = new InputHistory(undefined);
  const instance = render(
    <App
      stop={stopping.signal}
      initial={sessions.initial}
      starting={{
        kind: options.kind,
        mode: config.policy.mode,
        ...(options.kind === 'sql' && database !== undefined ? { database } : {}),
      }}
      confirmer={sessions.confirmer}
      openSession={sessions.open}
      history={history}
      {...(guardMs === undefined ? {} : { guardMs })}
      {...(configNotice === undefined ? {} : { configNotice })}
      {...(policyNotice === undefined ? {} : { policyNotice })}
    />,
    { exitOnCtrlC: false },
  );
  setStaticOutputReset((instance as { forgetStaticOutput?: () => void }).forgetStaticOutput);
  // Bracketed paste: a pasted text arrives marked, so its newlines are text, not Enter.
  process.stdout.write(BRACKETED_PASTE_ON);
  // Ink wrote the first frame inside render(): the session opens now, and the history its file.
  sessions.openFirst();
  import('./ui/history-path.js').then(
    ({ historyPath }) => history.attach(historyPath(stateDirectory(), cwd)),
    () => {}, // A history that cannot be kept stays in memory, as a write that fails does.
  );
  try {
    await instance.waitUntilExit();
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    if (configNotice !== undefined) process.stderr.write(`riskgate: ${configNotice}\n`);
    process.stderr.write(`riskgate: ${error.message}\n`);
    return 1;
  } finally {
    process.stdout.write(BRACKETED_PASTE_OFF);
    stopping.release();
  }
  // Left before the first session opened: it is closed once it has.
  const last = sessions.current() ?? (await sessions.initial.catch(() => undefined));
  if (last === undefined) return stopping.exitCode(0);
  const kept = await last.close();
  // The demo's own conversations: their database and model are gone, so /resume must not offer them.
  for (const path of sessions.demoTranscripts()) rmSync(path, { force: true });
  if (kept && stopping.stoppedBy() !== 'SIGHUP' && options.demo !== true)
    process.stdout.write(`Resume this conversation with: riskgate --resume ${last.id}\n`);
  return stopping.exitCode(0);
}

/**
 * Opens the TUI's sessions: the first once `openFirst` is called (after the first frame), the
 * others when the person switches (/sql, /db, /resume). `current` is the one on screen last: the
 * one to offer resuming at exit.
 */
function sessionOpener(config: ResolvedConfig, cwd: string, confirmer: TtyConfirmer, options: AssistantOptions) {
  let current: Session | undefined;
  const demo = new Set<string>();
  const open = async (request: {
    kind: ConversationKind;
    database?: string;
    resume?: string | true;
    continueFrom?: Session;
  }) => {
    const { createSession } = await import('./session/create-session.js');
    current = await createSession({
      config,
      cwd,
      confirmer,
      kind: request.kind,
      ...opening(request),
      ...(request.continueFrom === undefined ? {} : { continueFrom: request.continueFrom }),
    });
    // A conversation the demo began (not one resumed from before it, nor one going on from such): removed at exit.
    const began = request.continueFrom === undefined || demo.has(request.continueFrom.info.transcriptPath);
    if (options.demo === true && request.resume === undefined && began) demo.add(current.info.transcriptPath);
    return current;
  };
  let openFirst: () => void = () => {};
  const initial = new Promise<void>((resolve) => {
    openFirst = resolve;
  }).then(() => open({ kind: options.kind, ...opening(options) }));
  // Handled by the app (it exits with the error) and by the caller; not an unhandled rejection meanwhile.
  initial.catch(() => {});
  return {
    confirmer,
    open,
    initial,
    openFirst: () => openFirst(),
    current: () => current,
    demoTranscripts: () => [...demo],
  };
}
