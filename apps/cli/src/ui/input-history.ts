import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Entries kept per project; older ones are dropped when the file is rewritten. */
const KEPT = 1_000;

/**
 * The prompt's ↑/↓ history, persisted per project (one JSON string a line, so multi-line
 * entries survive; owner-only, like a shell history; the file: history-path.ts). `undefined`
 * path: memory only, until `attach` gives it one — the TUI does so after its first frame (the
 * path is a SHA-256, and node:crypto costs ~5 ms to load).
 */
export class InputHistory {
  private readonly entries: string[];
  /** entries.length means "the draft being typed". */
  private position: number;
  private draft = '';
  /** The file ends in a line cut short (a crash mid-write): the next entry starts a new line. */
  private cutShort: boolean;

  constructor(private path: string | undefined) {
    const loaded = path === undefined ? { entries: [], cutShort: false } : readEntries(path);
    this.entries = loaded.entries;
    this.cutShort = loaded.cutShort;
    this.position = this.entries.length;
  }

  /** From now on persisted in `path`: its entries first, then those added meanwhile (written to it). */
  attach(path: string): void {
    if (this.path !== undefined) return;
    const meanwhile = this.entries.splice(0);
    const loaded = readEntries(path);
    this.path = path;
    this.entries.push(...loaded.entries);
    this.cutShort = loaded.cutShort;
    this.position = this.entries.length;
    for (const entry of meanwhile) this.add(entry);
  }

  get size(): number {
    return this.entries.length;
  }

  add(entry: string): void {
    this.position = this.entries.length;
    if (entry.trim() === '' || this.entries.at(-1) === entry) {
      this.position = this.entries.length;
      return;
    }
    this.entries.push(entry);
    this.position = this.entries.length;
    if (this.path === undefined) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      if (this.entries.length > KEPT * 2) {
        this.entries.splice(0, this.entries.length - KEPT);
        this.position = this.entries.length;
        writeFileSync(this.path, this.entries.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
      } else appendFileSync(this.path, `${this.cutShort ? '\n' : ''}${JSON.stringify(entry)}\n`, { mode: 0o600 });
      this.cutShort = false;
    } catch {
      // A history that cannot be saved is not worth interrupting the person for.
    }
  }

  /** The entry before the current one; `current` (the draft) is kept to come back to. */
  previous(current: string): string | undefined {
    if (this.position === 0) return undefined;
    if (this.position === this.entries.length) this.draft = current;
    this.position--;
    return this.entries[this.position];
  }

  next(): string | undefined {
    if (this.position >= this.entries.length) return undefined;
    this.position++;
    return this.position === this.entries.length ? this.draft : this.entries[this.position];
  }
}

function readEntries(path: string): { entries: string[]; cutShort: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { entries: [], cutShort: false };
  }
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === 'string') entries.push(value);
    } catch {
      // A damaged line (a crash mid-write) is skipped.
    }
  }
  return { entries: entries.slice(-KEPT), cutShort: text !== '' && !text.endsWith('\n') };
}
