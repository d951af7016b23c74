import { applyOperands } from './apply.js';
import { parseArgs } from './options.js';
import type { OperandUse, OptionUse, ProgramRow } from './table.js';

/**
 * A sandbox-only row that fails closed (issue 18, item 4's stance for the long tail): `options`
 * lists every option that keeps the program a read — flags as `'flag'`, value options by use —
 * and any other option makes the call `unknown`, so asked. Options that write, run a program or
 * reach the network are simply not listed. Single-dash long options (`ffprobe -show_streams`)
 * are listed whole; a cluster (`-lha`) is checked letter by letter.
 */
export function closedRow(
  operands: OperandUse,
  options: Readonly<Record<string, OptionUse>>,
  rest: Omit<ProgramRow, 'operands' | 'options' | 'custom' | 'sandboxOnly'> = {},
): ProgramRow {
  const base: ProgramRow = { operands, options, sandboxOnly: true, ...rest };
  return {
    ...base,
    custom(site) {
      // Many of these programs open a URL given where a file is expected (xmllint --dtdvalid
      // https://…, ffprobe, gron): that is a connection, whatever the option's use says.
      for (const word of site.args) {
        const url = /^(?:-[^=]*=)?([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/:?#]*)/.exec(word.value ?? '');
        if (url !== null && url[1]!.toLowerCase() !== 'file')
          site.emit({ kind: 'connect', host: url[2] || 'a host', via: site.name });
      }
      for (const option of parseArgs(base, site.args, site).options) {
        if (!Object.hasOwn(options, option.name))
          site.emit({
            kind: 'unknown',
            detail: `riskgate does not know what ${site.name} ${option.name} does`,
            via: site.name,
          });
      }
      applyOperands(site, base);
    },
  };
}

const named = (names: readonly string[], use: OptionUse): Record<string, OptionUse> =>
  Object.fromEntries(names.flatMap((text) => text.trim().split(/\s+/)).map((name) => [name, use]));

/** Flags (options without a value and without an effect), as words: `flags('-a --all -l')`. */
export const flags = (...names: string[]): Record<string, OptionUse> => named(names, 'flag');

/** Options that take a value that is not a file: `values('-o --output')`. */
export const values = (...names: string[]): Record<string, OptionUse> => named(names, 'data');
