import type { Effect } from '@riskgate/risk';
import type { Node } from './pg-node.js';

/**
 * PostgreSQL functions that build values or rows of a size given as an argument:
 * `repeat('x', 1000000000)` is a gigabyte in the server's backend (two such values took 1.9 GB),
 * `lpad`/`rpad` pad to any width, `array_fill` fills any dimensions, `format('%1000000000s')`
 * pads, and `generate_series` makes any number of rows (kept in a tuplestore that spills to
 * disk when it is a FROM item, feeding aggregates such as `string_agg(repeat(…))`). Like
 * SQLite's zeroblob/randomblob/printf sizes (sqlite-analysis.ts), a size riskgate can read as a
 * literal below the bounds is whitelisted; anything else (a column, an expression, a bigger
 * literal) is `unbounded` memory. PostgreSQL gives a non-superuser no per-backend memory limit
 * (temp_file_limit is superuser-only; work_mem bounds sorts and hashes, not values).
 */
export const SIZED_FUNCTIONS = new Set(['repeat', 'lpad', 'rpad', 'array_fill', 'generate_series', 'format']);

/** One value: 1 MB. Rows of all series together: 10 million. Their product (the most one aggregate can gather): 100 MB. */
const MAX_VALUE = 1_000_000;
const MAX_ROWS = 10_000_000;
const MAX_PRODUCT = 100_000_000;

export interface SizedCall {
  readonly name: string;
  readonly args: readonly Node[];
}

const number = (node: Node | undefined): number | undefined => {
  if (node === undefined) return undefined;
  const constant = node.A_Const as
    | { ival?: { ival?: number }; fval?: { fval?: string }; sval?: { sval?: string }; isnull?: boolean }
    | undefined;
  if (constant !== undefined) {
    if (constant.ival !== undefined) return constant.ival.ival ?? 0;
    if (constant.fval !== undefined) return Number(constant.fval.fval);
    if (constant.sval !== undefined && /^\s*-?\d+(\.\d+)?\s*$/.test(constant.sval.sval ?? ''))
      return Number(constant.sval.sval);
    return undefined;
  }
  const cast = node.TypeCast as { arg?: Node } | undefined;
  return cast === undefined ? undefined : number(cast.arg);
};

const text = (node: Node | undefined): string | undefined => {
  if (node === undefined) return undefined;
  const constant = node.A_Const as { sval?: { sval?: string } } | undefined;
  if (constant?.sval !== undefined) return constant.sval.sval ?? '';
  const cast = node.TypeCast as { arg?: Node } | undefined;
  return cast === undefined ? undefined : text(cast.arg);
};

const UNIT_MS: Record<string, number> = {
  microsecond: 0.001,
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
  month: 2_592_000_000,
  year: 31_536_000_000,
};
const UNIT_ALIASES: Record<string, string> = {
  us: 'microsecond',
  usec: 'microsecond',
  ms: 'millisecond',
  msec: 'millisecond',
  s: 'second',
  sec: 'second',
  min: 'minute',
  m: 'minute',
  h: 'hour',
  hr: 'hour',
  d: 'day',
  w: 'week',
  mon: 'month',
  y: 'year',
  yr: 'year',
};

/** `'1 day'`, `'15 minutes'`, `'2 hours 30 minutes'`: milliseconds (months as 30 days). */
export function intervalMs(value: string): number | undefined {
  const parts = [...value.toLowerCase().matchAll(/(-?\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  if (
    parts.length === 0 ||
    parts
      .map((part) => part[0])
      .join(' ')
      .replace(/\s+/g, '') !== value.toLowerCase().replace(/\s+/g, '')
  )
    return undefined;
  let total = 0;
  for (const [, amount, word] of parts) {
    const unit = word!.replace(/s$/, '');
    const ms = UNIT_MS[unit] ?? UNIT_MS[UNIT_ALIASES[unit] ?? ''] ?? UNIT_MS[UNIT_ALIASES[word!] ?? ''];
    if (ms === undefined) return undefined;
    total += Number(amount) * ms;
  }
  return total;
}

const isIntervalCast = (node: Node | undefined): boolean => {
  const names = (
    (node?.TypeCast as { typeName?: { names?: { String?: { sval?: string } }[] } } | undefined)?.typeName?.names ?? []
  ).map((name) => name.String?.sval);
  return names.at(-1) === 'interval';
};

/** A point in time riskgate can compute: a literal, now()/current_date (now), ± literal intervals. */
function instant(node: Node | undefined): number | undefined {
  if (node === undefined) return undefined;
  const literal = text(node);
  if (literal !== undefined) {
    const parsed = Date.parse(literal.trim().replace(' ', 'T'));
    return Number.isNaN(parsed)
      ? ['now', 'today'].includes(literal.trim().toLowerCase())
        ? Date.now()
        : undefined
      : parsed;
  }
  if (node.SQLValueFunction !== undefined) return Date.now();
  const call = node.FuncCall as { funcname?: { String?: { sval?: string } }[]; args?: Node[] } | undefined;
  if (call !== undefined) {
    const name = call.funcname?.at(-1)?.String?.sval;
    return ['now', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp'].includes(name ?? '') &&
      (call.args ?? []).length === 0
      ? Date.now()
      : undefined;
  }
  const expression = node.A_Expr as { name?: { String?: { sval?: string } }[]; lexpr?: Node; rexpr?: Node } | undefined;
  const operator = expression?.name?.at(-1)?.String?.sval;
  if (expression !== undefined && (operator === '+' || operator === '-')) {
    const base = instant(expression.lexpr);
    const shift = isIntervalCast(expression.rexpr) ? intervalMs(text(expression.rexpr) ?? '') : undefined;
    if (base === undefined || shift === undefined) return undefined;
    return operator === '+' ? base + shift : base - shift;
  }
  return undefined;
}

/** How many rows generate_series makes, when riskgate can tell. */
function seriesRows(args: readonly Node[]): number | undefined {
  const [start, stop, step] = args;
  const from = number(start);
  const to = number(stop);
  if (from !== undefined && to !== undefined) {
    const by = step === undefined ? 1 : number(step);
    if (by === undefined || by === 0) return undefined;
    return Math.max(0, Math.floor((to - from) / by) + 1);
  }
  const begin = instant(start);
  const end = instant(stop);
  const by = step === undefined ? undefined : intervalMs(text(step) ?? '');
  if (begin === undefined || end === undefined || by === undefined || by <= 0) return undefined;
  return Math.max(0, Math.floor((end - begin) / by) + 1);
}

/** Bytes (or elements) one call makes, when riskgate can tell; null when it makes no sized value. */
function valueSize(call: SizedCall): number | undefined | null {
  const [first, second] = call.args;
  switch (call.name) {
    case 'repeat': {
      const count = number(second);
      const unit = text(first);
      return count === undefined ? undefined : count * Math.max(1, unit === undefined ? 1000 : unit.length);
    }
    case 'lpad':
    case 'rpad':
      return number(second);
    case 'array_fill': {
      const array = (second?.A_ArrayExpr as { elements?: Node[] } | undefined)?.elements;
      const dims = array !== undefined ? array.map(number) : (text(second)?.match(/-?\d+/g) ?? []).map(Number);
      if (dims.length === 0 || dims.some((dim) => dim === undefined)) return undefined;
      return (dims as number[]).reduce((product, dim) => product * Math.max(0, dim), 1);
    }
    case 'format': {
      const pattern = text(first);
      if (pattern === undefined) return null;
      // A width or precision: %1000000000s, %*s (from an argument).
      const widths = [...pattern.matchAll(/%(?:\d+\$)?[-]*(\*(?:\d+\$)?|\d+)?s/gi)].map((match) => match[1]);
      if (widths.some((width) => width?.startsWith('*'))) return undefined;
      return Math.max(0, ...widths.map((width) => (width === undefined ? 0 : Number(width))));
    }
    default:
      return null;
  }
}

export function sizeEffects(calls: readonly SizedCall[]): Effect[] {
  const effects: Effect[] = [];
  let rows = 1;
  let value = 1;
  for (const call of calls) {
    if (call.name === 'generate_series') {
      const count = seriesRows(call.args);
      if (count === undefined || count > MAX_ROWS) {
        effects.push({
          kind: 'unbounded',
          resource: 'memory',
          detail: `calls generate_series with a range riskgate cannot bound (${count === undefined ? 'not literal' : `${count.toLocaleString('en-US')} rows`}; at most ${MAX_ROWS.toLocaleString('en-US')})`,
        });
      } else rows *= Math.max(1, count);
      continue;
    }
    const size = valueSize(call);
    if (size === null) continue;
    if (size === undefined || size > MAX_VALUE) {
      effects.push({
        kind: 'unbounded',
        resource: 'memory',
        detail: `calls ${call.name} with a size riskgate cannot bound (${size === undefined ? 'not literal' : size.toLocaleString('en-US')}; at most ${MAX_VALUE.toLocaleString('en-US')}): the server builds it in memory`,
      });
    } else value = Math.max(value, size);
  }
  if (effects.length === 0 && rows > MAX_ROWS)
    effects.push({
      kind: 'unbounded',
      resource: 'memory',
      detail: `generate_series makes ${rows.toLocaleString('en-US')} rows together (at most ${MAX_ROWS.toLocaleString('en-US')})`,
    });
  else if (effects.length === 0 && rows * value > MAX_PRODUCT) {
    effects.push({
      kind: 'unbounded',
      resource: 'memory',
      detail: `builds values of up to ${value.toLocaleString('en-US')} bytes over ${rows.toLocaleString('en-US')} generated rows: an aggregate could gather ${(rows * value).toLocaleString('en-US')} bytes`,
    });
  }
  return effects;
}
