import { AMBIGUOUS_ALONE, isPlaceholderValue, looksRandom, namesSecret, normaliseName } from './placeholders.js';
import type { SecretFinding } from './types.js';

/**
 * Secrets in tables: a header row that names a secret column (`password`, `api_key`, `token`,
 * `secret`) makes every value below it in that column a secret — CSV and TSV files (`cat
 * users.csv`), `column -t`, psql and mysql result tables, sqlite3's `-header` list, column and box
 * modes. A password is any string; only its column says so, and no line of the table names it.
 *
 * Two ways to find a row's cells: by a delimiter (`,` `;` tab `|` `│`; the outer `|` of mysql and
 * box borders dropped), or, for aligned output without one (`column -t`, sqlite3 `.mode column`),
 * by the header's column starts (two spaces or more between header cells). The table ends at the
 * first line that is not a row of it (psql's `(3 rows)`, a blank line); rule lines (`---+---`,
 * `+----+`, `├──┼──┤`) are skipped.
 */

/** A header cell: a column name (`password`, `api key`, `"api_key"`, `User.Password`). */
const COLUMN_NAME = /^["'`[]?[A-Za-z_][\w.$-]{0,39}(?: [\w.$-]{1,20}){0,2}["'`\]]?$/;
/** In CSV a header cell has no space unless quoted: `Enter your password, then…` is a sentence. */
const CSV_COLUMN_NAME = /^(?:"[A-Za-z_][\w .$-]{0,63}"|[A-Za-z_][\w.$-]{0,63})$/;
/** Lines that only draw the table. */
const RULE_LINE = /^[\s+\-|=:─━┼┬┴├┤┌┐└┘╞╡╪│]+$/;
/** A line can only be a header when a word of a secret name is in it (a cheap test first). */
const SECRET_HINT =
  /pass|pwd|pw\b|token|secret|key|auth|cred|dsn|cookie|session|sig|salt|otp|jwt|psk|cert|private|bearer|webhook|conn/i;
/** Values that stand for nothing in a result table. */
const EMPTY_CELL = /^(?:|null|NULL|\\N|<null>|\(null\)|-|—)$/;

type Delimiter = ',' | ';' | '\t' | '|' | '│' | 'aligned';

interface Cell {
  readonly start: number;
  readonly end: number;
}

/** Cells of `line` split at `delimiter` (CSV quotes respected), trimmed; borders of `| a | b |` dropped. */
function splitCells(line: string, delimiter: Exclude<Delimiter, 'aligned'>): Cell[] {
  const cells: Cell[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index <= line.length; index++) {
    const char = line[index];
    if (char === '"' && (delimiter === ',' || delimiter === ';' || delimiter === '\t')) quoted = !quoted;
    if (index === line.length || (!quoted && char === delimiter)) {
      cells.push(trimmed(line, start, index));
      start = index + 1;
    }
  }
  if (delimiter === '|' || delimiter === '│') {
    // `| a | b |` (mysql, box): the empty cells outside the outer borders are not columns.
    if (cells.length > 1 && cells[0]!.start === cells[0]!.end && /^\s*[|│]/.test(line)) cells.shift();
    if (cells.length > 1 && cells[cells.length - 1]!.start === cells[cells.length - 1]!.end && /[|│]\s*$/.test(line))
      cells.pop();
  }
  return cells;
}

function trimmed(line: string, start: number, end: number): Cell {
  while (start < end && /\s/.test(line[start]!)) start++;
  while (end > start && /\s/.test(line[end - 1]!)) end--;
  // A CSV value in quotes: the value is inside them.
  if (end - start >= 2 && line[start] === '"' && line[end - 1] === '"') return { start: start + 1, end: end - 1 };
  return { start, end };
}

/** Header cells of aligned output: words (single spaces inside) separated by two spaces or more. */
function alignedCells(line: string): Cell[] {
  const cells: Cell[] = [];
  for (const match of line.matchAll(/\S+(?: \S+)*/g))
    cells.push({ start: match.index, end: match.index + match[0].length });
  return cells;
}

/** A data row of aligned output, cut at the header's column starts. */
function alignedRow(line: string, header: readonly Cell[]): Cell[] | undefined {
  const cells: Cell[] = [];
  for (let column = 0; column < header.length; column++) {
    const start = header[column]!.start;
    const end = column + 1 < header.length ? header[column + 1]!.start : line.length;
    // A value must start at its column and the column before it must end in a space.
    if (start > line.length) return undefined;
    if (start > 0 && start < line.length && !/\s/.test(line[start - 1]!)) return undefined;
    cells.push(trimmed(line, start, Math.min(end, line.length)));
  }
  return cells;
}

const DELIMITERS: readonly Exclude<Delimiter, 'aligned'>[] = ['|', '│', '\t', ',', ';'];

interface Header {
  readonly delimiter: Delimiter;
  readonly cells: readonly Cell[];
  /** Indexes of the columns whose name says secret, with the name. */
  readonly secret: ReadonlyMap<number, string>;
}

function secretColumns(line: string, cells: readonly Cell[], delimiter: Delimiter): Map<number, string> | undefined {
  if (cells.length < 2) return undefined;
  const secret = new Map<number, string>();
  const columnName = delimiter === ',' || delimiter === ';' ? CSV_COLUMN_NAME : COLUMN_NAME;
  for (const [index, cell] of cells.entries()) {
    // A quoted CSV cell was cut inside its quotes: judge it with them.
    const quoted = line[cell.start - 1] === '"' && line[cell.end] === '"';
    const name = quoted ? line.slice(cell.start - 1, cell.end + 1) : line.slice(cell.start, cell.end);
    if (!columnName.test(name)) return undefined;
    if (namesSecret(name.replace(/^["'`[]|["'`\]]$/g, ''))) secret.set(index, name.replace(/^["'`[]|["'`\]]$/g, ''));
  }
  return secret.size > 0 ? secret : undefined;
}

function headerOf(line: string): Header | undefined {
  if (!SECRET_HINT.test(line)) return undefined;
  for (const delimiter of DELIMITERS) {
    if (!line.includes(delimiter)) continue;
    const cells = splitCells(line, delimiter);
    const secret = secretColumns(line, cells, delimiter);
    if (secret !== undefined) return { delimiter, cells, secret };
  }
  if (/\S {2,}\S/.test(line)) {
    const cells = alignedCells(line);
    const secret = secretColumns(line, cells, 'aligned');
    if (secret !== undefined) return { delimiter: 'aligned', cells, secret };
  }
  return undefined;
}

function rowOf(line: string, header: Header): Cell[] | undefined {
  if (header.delimiter === 'aligned') return alignedRow(line, header.cells);
  if (!line.includes(header.delimiter)) return undefined;
  const cells = splitCells(line, header.delimiter);
  return cells.length === header.cells.length ? cells : undefined;
}

/** Whether a cell under a secret column holds one: not empty, not a placeholder, random enough for an ambiguous name. */
function secretCell(name: string, value: string): boolean {
  if (EMPTY_CELL.test(value) || isPlaceholderValue(value) || /^\*+$/.test(value)) return false;
  if (AMBIGUOUS_ALONE.has(normaliseName(name))) return looksRandom(value);
  return true;
}

/** The secret cells of every table in `text`; `lines` are the text's lines with where each starts. */
export function findInTables(text: string): SecretFinding[] {
  if (!SECRET_HINT.test(text)) return [];
  const findings: SecretFinding[] = [];
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.replace(/\r$/, '');
    const header = headerOf(line);
    if (header === undefined) continue;
    let rows = 0;
    let next = index + 1;
    for (; next < lines.length; next++) {
      const row = lines[next]!.replace(/\r$/, '');
      if (row.trim() !== '' && RULE_LINE.test(row)) continue;
      const cells = row.trim() === '' ? undefined : rowOf(row, header);
      if (cells === undefined) break;
      rows++;
      for (const [column, name] of header.secret) {
        const cell = cells[column];
        if (cell === undefined) continue;
        if (secretCell(name, row.slice(cell.start, cell.end))) {
          findings.push({
            start: starts[next]! + cell.start,
            end: starts[next]! + cell.end,
            what: `a value in the ${name} column`,
            rule: 'table',
          });
        }
      }
    }
    if (rows > 0) index = next - 1;
  }
  return findings;
}
