import { execFileSync } from 'node:child_process';

/**
 * The tests' own tmux server (a socket of this process, no user config): they neither touch a
 * developer's tmux nor race another test run's server shutting down.
 */
const SOCKET = `riskgate-tests-${process.pid}`;
function tmux(args: readonly string[], options: { encoding?: 'utf8'; stdio?: 'ignore' } = {}): string {
  return execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { ...options, encoding: 'utf8' });
}

/**
 * Start a session, again when the server was shutting down: tmux ends its server when the last
 * session closes, and a `new-session` that reaches it in that moment fails with "server exited
 * unexpectedly" although nothing is wrong (seen in CI between two tests of one file).
 */
function startSession(args: readonly string[]): void {
  for (let attempt = 1; ; attempt++) {
    try {
      tmux(args);
      return;
    } catch (error) {
      const message = String((error as { stderr?: unknown }).stderr ?? '') + String((error as Error).message);
      const serverWentAway = /server exited unexpectedly|lost server|no server running/.test(message);
      if (!serverWentAway || attempt >= 5) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt);
    }
  }
}

/** A real pseudo-terminal: tmux runs the program, send-keys types, capture-pane reads the screen. */
export class TmuxTerminal {
  private static counter = 0;
  readonly name = `riskgate-test-${process.pid}-${TmuxTerminal.counter++}`;

  constructor(command: string, env: Record<string, string>, size = { columns: 110, rows: 45 }) {
    // CI=true always: the TUI must draw every frame on a terminal even where CI is set (Ink
    // would otherwise draw only its last one).
    const assignments = Object.entries({ LANG: 'C.UTF-8', TERM: 'xterm-256color', CI: 'true', ...env }).map(
      ([key, value]) => `${key}=${shellQuote(value)}`,
    );
    startSession([
      '-u',
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(size.columns),
      '-y',
      String(size.rows),
      `env ${assignments.join(' ')} ${command}; echo "[exited $?]"; sleep 60`,
    ]);
  }

  /** Type text (as keys), optionally followed by Enter. */
  type(text: string, enter = false): void {
    tmux(['send-keys', '-t', this.name, '-l', text]);
    if (enter) this.key('Enter');
  }

  /** Paste text as a terminal does: bracketed when the program asked for it. */
  paste(text: string): void {
    tmux(['set-buffer', '-b', this.name, text]);
    tmux(['paste-buffer', '-p', '-d', '-b', this.name, '-t', this.name]);
  }

  key(name: string): void {
    tmux(['send-keys', '-t', this.name, name]);
  }

  /** Resize the window, as a person dragging their terminal's edge does (the program gets SIGWINCH). */
  resize(columns: number, rows?: number): void {
    tmux([
      'resize-window',
      '-t',
      this.name,
      '-x',
      String(columns),
      ...(rows === undefined ? [] : ['-y', String(rows)]),
    ]);
  }

  screen(): string {
    return tmux(['capture-pane', '-p', '-J', '-t', this.name, '-S', '-200']);
  }

  /** The screen with its colours and styles as SGR escape sequences. */
  screenWithStyles(): string {
    return tmux(['capture-pane', '-p', '-e', '-J', '-t', this.name, '-S', '-200']);
  }

  /** The pane's title: what an OSC 0/2 sequence that reached the terminal would have set. */
  title(): string {
    return tmux(['display-message', '-p', '-t', this.name, '#{pane_title}']).trim();
  }

  /** tmux's paste buffers: where an OSC 52 clipboard write that reached the terminal lands. */
  buffers(): string {
    return tmux(['list-buffers', '-F', '#{buffer_sample}']);
  }

  /** Let programs set the clipboard with OSC 52 (tmux ignores them by default). */
  allowClipboardWrites(): void {
    tmux(['set-option', '-s', 'set-clipboard', 'on']);
  }

  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    try {
      tmux(['kill-session', '-t', this.name], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
