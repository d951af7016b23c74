import type { Effect } from '@riskgate/risk';
import { meansSomethingElse } from './help-version.js';
import { optionTable, type ParsedOption, parseArgs, unlistedEffect } from './options.js';
import { known, type WordValue } from './words.js';
import { type CallSite, type OperandUse, type PathExtra, type ProgramRow, TAKES_VALUE } from './table.js';
import { pathEffects } from './paths.js';
import type { WalkHost as Walk } from './walk-host.js';

/** Programs that take `@FILE` as a file of further arguments (GNU binutils). */
const RESPONSE_FILES: ReadonlySet<string> = new Set([
  'strings',
  'nm',
  'objdump',
  'readelf',
  'size',
  'addr2line',
  'c++filt',
  'ar',
  'objcopy',
  'strip',
  'elfedit',
  'dwp',
]);

/** Words that only ask a known program about itself. */
const ABOUT_ITSELF = new Set(['--version', '--help', '-V']);

/** Effects a row may yield and still run unasked: the fallback asks about those only (issue 18). */
const READS: ReadonlySet<Effect['kind']> = new Set(['read-path', 'list-path', 'read-env']);

/** Why a row that is not core is asked about when the call will not run in the sandbox. */
export const NEEDS_SANDBOX = "runs unasked only inside riskgate's sandbox, which is not available here";

/**
 * The call site a row judge sees. A class, not an object of closures: a line of 2,500 commands
 * makes 2,500 of these (BENCHMARKS.md).
 */
class Site implements CallSite {
  constructor(
    private readonly walk: Walk,
    readonly name: string,
    readonly args: readonly WordValue[],
  ) {}

  get sandbox(): boolean {
    return this.walk.options.sandbox;
  }

  get home(): string {
    return this.walk.home;
  }

  get cwd(): string | undefined {
    return this.walk.scope.cwd;
  }

  emit(effect: Effect): void {
    this.walk.emit(effect);
  }

  path(kind: 'read' | 'list' | 'write' | 'delete', word: WordValue, extra?: PathExtra): void {
    pathEffects(this.walk, kind, word, extra);
  }

  script(text: string | undefined, via: string): void {
    this.walk.script(text, via);
  }

  command(words: readonly WordValue[], via: string): void {
    this.walk.runWords(words, via);
  }

  chdir(word: WordValue): void {
    this.walk.scope.cwd = word.value === undefined ? undefined : this.walk.resolvePath(word.value);
  }

  withArgs(args: readonly WordValue[]): CallSite {
    return new Site(this.walk, this.name, args);
  }
}

export function makeSite(walk: Walk, name: string, args: readonly WordValue[]): CallSite {
  return new Site(walk, name, args);
}

/** Apply a program row to the words after the program's name. */
export function applyRow(walk: Walk, name: string, row: ProgramRow, args: readonly WordValue[]): void {
  const saved = walk.scope.cwd;
  try {
    applyTo(walk, name, row, args);
  } finally {
    // `git -C dir` moves only git.
    walk.scope.cwd = saved;
  }
}

function applyTo(walk: Walk, name: string, row: ProgramRow, args: readonly WordValue[]): void {
  const before = walk.effects.length;
  // `X --version` only asks X about itself (in the sandbox for a row that is not core).
  // Not where the word means something else (`shutdown -h`, `vim -V`: help-version.ts).
  const aboutItself =
    args.length === 1 && ABOUT_ITSELF.has(args[0]!.value ?? '') && !meansSomethingElse(name, args[0]!.value!);
  // binutils read `@FILE` as more arguments (`strings @~/.msmtprc` prints its words in an error).
  if (RESPONSE_FILES.has(name) && args.some((word) => (word.value ?? '@').startsWith('@'))) {
    walk.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${name} reads its arguments from an @file, which riskgate does not read`,
      via: name,
    });
  }
  if (!aboutItself) applyRowTo(walk, name, row, args);
  // The fallback (issue 18): without the sandbox only core rows run unasked. A row that already
  // does more than read is asked about for that; one that would be whitelisted gets this reason.
  if (
    !walk.options.sandbox &&
    row.core !== true &&
    walk.effects.slice(before).every((effect) => READS.has(effect.kind))
  ) {
    walk.emit({ kind: 'unknown', detail: `${name} ${NEEDS_SANDBOX}`, via: name });
  }
}

function applyRowTo(walk: Walk, name: string, row: ProgramRow, args: readonly WordValue[]): void {
  const site = makeSite(walk, name, args);
  for (const effect of row.effects ?? []) site.emit({ ...effect, via: effect.via ?? name } as Effect);
  if (row.subcommands !== undefined || row.otherSubcommands !== undefined) {
    // Options before the subcommand: the parent row's own, failing closed like any other.
    const table = optionTable(row);
    let index = 0;
    const unlisted: string[] = [];
    while (index < args.length && (args[index]!.value ?? '').startsWith('-')) {
      const option = args[index]!.value!;
      const key = option.includes('=') ? option.slice(0, option.indexOf('=')) : option;
      const use = row.globalValues?.includes(key) ? 'data' : table[key];
      if (use === undefined) unlisted.push(option);
      index += use !== undefined && TAKES_VALUE.has(use) && !option.includes('=') ? 2 : 1;
    }
    const subcommand = args[index];
    if (subcommand === undefined && row.subcommands !== undefined && Object.hasOwn(row.subcommands, '')) {
      // No subcommand (`npm -v`, `yarn --frozen-lockfile`): the '' row judges the options itself.
      applyRowTo(walk, name, row.subcommands['']!, args);
      return;
    }
    for (const option of unlisted) site.emit(unlistedEffect(name, option));
    const key = subcommand === undefined ? '' : (subcommand.value ?? '\u0000');
    // Own keys only: `npm constructor` is not Object.prototype's.
    const subRow =
      (row.subcommands !== undefined && Object.hasOwn(row.subcommands, key) ? row.subcommands[key] : undefined) ??
      row.otherSubcommands;
    if (subRow === undefined) {
      site.emit({
        kind: 'unknown',
        detail: `riskgate does not know what ${name} ${subcommand?.raw ?? ''} does`.trim(),
      });
      return;
    }
    // The options before the subcommand go with it: the sub-row judges them (`pip --log F list` writes F).
    applyRowTo(walk, subcommand === undefined ? name : `${name} ${subcommand.raw}`, subRow, [
      ...args.slice(0, index),
      ...args.slice(index + 1),
    ]);
    return;
  }
  if (row.custom !== undefined) {
    row.custom(site);
    return;
  }
  applyOperands(site, row);
}

/** The table's generic reading: options by use, then operands by use. */
export function applyOperands(site: CallSite, row: ProgramRow): void {
  const parsed = parseArgs(row, site.args, site);
  const reading: Reading = {
    recursive: row.recursive === true,
    skipsHidden: row.skipsHidden === true,
    followsLinks: false,
    inPlace: false,
    supplied: false,
  };
  for (const option of parsed.options) applyOption(site, option, reading);
  const files = parsed.operands.slice(reading.supplied ? 0 : (row.leading ?? 0));
  const whenNone = row.whenNone ?? (reading.recursive ? row.whenNoneRecursive : undefined);
  if (files.length === 0 && whenNone !== undefined) files.push(known(whenNone));
  const { recursive, skipsHidden, followsLinks, inPlace } = reading;
  files.forEach((word, index) => {
    let use: OperandUse =
      row.last !== undefined && files.length >= 2 && index === files.length - 1 ? row.last : row.operands;
    if (inPlace && (use === 'read' || use === 'list')) use = 'write';
    if (use === 'data') return;
    site.path(use, word, {
      ...(recursive ? { recursive } : {}),
      ...(skipsHidden ? { skipsHidden } : {}),
      ...(followsLinks ? { followsLinks } : {}),
      ...(row.severity === undefined ? {} : { severity: row.severity }),
      via: site.name,
    });
  });
}

/** How the options so far make the program read its operands. */
interface Reading {
  recursive: boolean;
  skipsHidden: boolean;
  followsLinks: boolean;
  /** The operands are rewritten (sed -i) or files are written beside them (tree -R). */
  inPlace: boolean;
  /** An option gave the pattern (grep -e, -f): every operand is a file. */
  supplied: boolean;
}

/** One option by its use: an effect of its own, or a change to how the operands are read. */
function applyOption(site: CallSite, option: ParsedOption, reading: Reading): void {
  const via = `${site.name} ${option.name}`;
  switch (option.use) {
    case 'read':
    case 'list':
    case 'write':
      if (option.value !== undefined) site.path(option.use, option.value, { via });
      break;
    case 'pattern-file':
      reading.supplied = true;
      if (option.value !== undefined) site.path('read', option.value, { via });
      break;
    case 'pattern':
    case 'no-pattern':
      reading.supplied = true;
      break;
    case 'run':
      site.emit({ kind: 'run-program', program: option.value?.raw ?? 'a program', via });
      if (option.value !== undefined) site.command([option.value], via);
      break;
    case 'recursive':
      reading.recursive = true;
      break;
    case 'recursive-links':
      reading.recursive = true;
      reading.followsLinks = true;
      break;
    case 'follows-links':
      reading.followsLinks = true;
      break;
    case 'hidden':
      reading.skipsHidden = false;
      break;
    case 'in-place':
    case 'writes':
      reading.inPlace = true;
      break;
    default:
      optionEffect(site, option, via);
  }
}

/** Options whose use is an effect by itself (never ends, reads the environment, runs, connects…). */
function optionEffect(site: CallSite, option: ParsedOption, via: string): void {
  switch (option.use) {
    case 'follow':
      site.emit({ kind: 'unbounded', resource: 'time', detail: `${via} waits for new lines and never ends`, via });
      break;
    case 'environment':
      site.emit({ kind: 'read-env', names: 'all', via });
      break;
    case 'runs':
      site.emit({ kind: 'run-program', program: `what ${via} starts`, via });
      break;
    case 'unknown':
      site.emit({ kind: 'unknown', severity: 'high', detail: `riskgate does not read what ${via} does`, via });
      break;
    case 'connects':
      site.emit({ kind: 'connect', host: `the servers ${site.name} asks`, via });
      break;
    case 'changes':
      site.emit({ kind: 'run-program', program: `${via}, which changes what ${site.name} manages`, via });
      break;
    case 'unlisted':
      site.emit(unlistedEffect(site.name, option.name));
      break;
    default:
      break;
  }
}
