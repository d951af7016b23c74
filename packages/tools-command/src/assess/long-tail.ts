import { applyOperands } from './apply.js';
import { gitLongTailRead } from './git-reads.js';
import { LISTER_PROGRAMS } from './lister-programs.js';
import { PACKAGE_QUERY_OVERLAYS, PACKAGE_QUERY_PROGRAMS } from './package-queries.js';
import type { CallSite, ProgramRow } from './table.js';

/**
 * The long tail of reads (issue 18, item 5), registered in programs.ts: new rows (listers,
 * package managers riskgate had none for) and overlays that let a program's read forms through in
 * the sandbox before its own row judges the rest (git's bisect log, notes list, hash-object
 * without -w; pacman -Q, brew ls, dpkg -l). `--help`/`--version` of any program is judged in
 * simple-command.ts (help-version.ts). Every form here needs the sandbox.
 */
export const LONG_TAIL_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  ...LISTER_PROGRAMS,
  ...PACKAGE_QUERY_PROGRAMS,
};

const OVERLAYS: Readonly<Record<string, (site: CallSite) => boolean>> = {
  ...PACKAGE_QUERY_OVERLAYS,
  git: gitLongTailRead,
};

/** Rows already wrapped, by program (two programs may share a row), so a line of many git calls builds one. */
const wrapped = new Map<string, { readonly base: ProgramRow; readonly row: ProgramRow }>();

/** The row, with the long tail's read forms of that program tried first (the same row when there are none). */
export function withLongTail(name: string, row: ProgramRow): ProgramRow {
  const overlay = Object.hasOwn(OVERLAYS, name) ? OVERLAYS[name] : undefined;
  if (overlay === undefined || row.subcommands !== undefined || row.otherSubcommands !== undefined) return row;
  const cached = wrapped.get(name);
  if (cached?.base === row) return cached.row;
  const result: ProgramRow = {
    ...row,
    custom(site) {
      if (overlay(site)) return;
      if (row.custom !== undefined) row.custom(site);
      else applyOperands(site, row);
    },
  };
  wrapped.set(name, { base: row, row: result });
  return result;
}
