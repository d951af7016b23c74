import { type CallSite, type OptionUse, type ProgramRow, RISKY_USES, TAKES_VALUE } from './table.js';
import { known, UNKNOWN, type WordValue } from './words.js';

/** One option as the program will read it, with its value when it takes one. */
export interface ParsedOption {
  readonly name: string;
  readonly use: OptionUse;
  readonly value?: WordValue;
}

export interface ParsedArgs {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly WordValue[];
}

/** Flags every program row accepts: they print usage or a version and stop (issue 18: run in the sandbox). */
const ABOUT_ITSELF: Readonly<Record<string, OptionUse>> = { '--help': 'flag', '--version': 'flag' };

const tables = new WeakMap<ProgramRow, Readonly<Record<string, OptionUse>>>();

/**
 * A row's whole option table: its `options`, its `flags` string spread into `flag` entries, and
 * --help/--version. Anything not in it is `unlisted` (options fail closed, issue 18).
 */
export function optionTable(row: ProgramRow): Readonly<Record<string, OptionUse>> {
  const cached = tables.get(row);
  if (cached !== undefined) return cached;
  const table: Record<string, OptionUse> = { ...ABOUT_ITSELF };
  for (const token of (row.flags ?? '').split(/\s+/)) {
    if (token.startsWith('--')) table[token] = 'flag';
    else if (token.startsWith('-')) for (const letter of token.slice(1)) table[`-${letter}`] = 'flag';
  }
  Object.assign(table, row.options ?? {});
  tables.set(row, table);
  return table;
}

/**
 * Split words into options and operands the way getopt does: `--` ends options, `-abc` is a
 * cluster whose first value-taking letter takes the rest (or the next word), `--name=value`
 * or `--name value`, long names matched by unambiguous prefix. A word only known at run time
 * could be an option: when the row has options that write or run, that is reported.
 */
export function parseArgs(row: ProgramRow, args: readonly WordValue[], site?: CallSite): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: WordValue[] = [];
  const table = optionTable(row);
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    const text = word.texts.length === 1 ? word.texts[0]! : undefined;
    if (
      !ended &&
      text === undefined &&
      word.texts.some((candidate) => candidate.startsWith('-') && candidate !== '-')
    ) {
      // `ls {--zzz,-l}`, `cat {-A,--zzz} x`: brace expansion makes several words, some options.
      // Harmless only when every one is a listed flag; otherwise unlisted (fail closed).
      const dashed = word.texts.filter((candidate) => candidate.startsWith('-') && candidate !== '-');
      if (!dashed.every((candidate) => onlyFlags(table, candidate))) options.push({ name: word.raw, use: 'unlisted' });
    }
    if (!ended && row.stopsAtOperand === true && operands.length > 0) ended = true;
    if (ended || text === undefined || !text.startsWith('-') || text === '-') {
      if (
        !ended &&
        site !== undefined &&
        word.texts.some(
          (candidate) =>
            candidate.startsWith(UNKNOWN) || candidate.startsWith('-') || (word.glob && /^[*?[]/.test(candidate)),
        )
      ) {
        riskyUnknown(row, word, site);
      }
      operands.push(word);
      continue;
    }
    if (text === '--') {
      ended = true;
      continue;
    }
    if (text.includes(UNKNOWN)) riskyUnknown(row, word, site);
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = equals === -1 ? text : text.slice(0, equals);
      const use = longUse(table, name);
      if (TAKES_VALUE.has(use.use)) {
        const value = equals === -1 ? args[++index] : known(text.slice(equals + 1));
        options.push({ name: use.name, use: use.use, ...(value === undefined ? {} : { value }) });
      } else options.push({ name: use.name, use: use.use });
      continue;
    }
    // A short cluster: -rn, -n5, -o/tmp/x.
    if (table[text] !== undefined && text.length > 2) {
      // Single-dash long options (find -name, java -jar): listed whole.
      const use = table[text]!;
      options.push({
        name: text,
        use,
        ...(TAKES_VALUE.has(use) && args[index + 1] !== undefined ? { value: args[++index]! } : {}),
      });
      continue;
    }
    for (let letter = 1; letter < text.length; letter++) {
      const name = `-${text[letter]}`;
      const use: OptionUse = table[name] ?? 'unlisted';
      if (use === 'optional') {
        // `-w8`: the rest of the word is its value; `-w` alone takes none.
        options.push({ name, use });
        break;
      }
      if (TAKES_VALUE.has(use)) {
        const rest = text.slice(letter + 1);
        const value = rest !== '' ? known(rest) : args[++index];
        options.push({ name, use, ...(value === undefined ? {} : { value }) });
        break;
      }
      options.push({ name, use });
    }
  }
  return { options, operands };
}

/** Whether one word, read as options, is only listed flags (`-la`, `--all`). */
function onlyFlags(table: Readonly<Record<string, OptionUse>>, text: string): boolean {
  if (text.includes(UNKNOWN)) return false;
  if (text.startsWith('--')) return !text.includes('=') && longUse(table, text).use === 'flag';
  if (table[text] === 'flag') return true;
  return [...text.slice(1)].every((letter) => table[`-${letter}`] === 'flag');
}

/**
 * `--out` is `--output` when it can only be that; a prefix of a risky option counts as it. A
 * prefix of options with different uses, or of none, is unlisted: the program may know an
 * option the row does not (fail closed).
 */
function longUse(table: Readonly<Record<string, OptionUse>>, name: string): { name: string; use: OptionUse } {
  const exact = table[name];
  if (exact !== undefined) return { name, use: exact };
  if (name.length < 4) return { name, use: 'unlisted' };
  const candidates = Object.entries(table).filter(([option]) => option.startsWith('--') && option.startsWith(name));
  const risky = candidates.find(([, use]) => RISKY_USES.has(use) || use === 'read' || use === 'pattern-file');
  if (risky !== undefined) return { name: risky[0], use: risky[1] };
  if (candidates.length > 0 && candidates.every(([, use]) => use === candidates[0]![1]))
    return { name: candidates[0]![0], use: candidates[0]![1] };
  return { name, use: 'unlisted' };
}

/** Options that fail closed, as `unknown` effects (for judges that read parseArgs themselves). */
export function reportUnlisted(site: CallSite, parsed: ParsedArgs): void {
  for (const option of parsed.options) if (option.use === 'unlisted') site.emit(unlistedEffect(site.name, option.name));
}

export function unlistedEffect(program: string, option: string): { kind: 'unknown'; detail: string; via: string } {
  return {
    kind: 'unknown',
    detail: `${program} ${option} is not among the options riskgate knows to keep ${program} a read`,
    via: `${program} ${option}`,
  };
}

function riskyUnknown(row: ProgramRow, word: WordValue, site: CallSite | undefined): void {
  if (site === undefined) return;
  const risky = Object.entries(row.options ?? {}).find(([, use]) => RISKY_USES.has(use));
  if (risky !== undefined) {
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${site.name} gets ${word.raw}, known only at run time, which could be an option such as ${risky[0]}`,
    });
  }
}

export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}
