#!/usr/bin/env node
// The gate evaluation (bench/gate-eval/README.md): corpora of dangerous and safe tool calls,
// judged by the built CLI's `riskgate assess --jsonl` the way the held-out sets are, against a
// fixture home and workspace that hold the files the rows name. Three runs:
//   plain        no risk_level, smart mode    -> dangerous run unasked (must be 0), safe run rate (>= 90%)
//   guarded-low  every call "low", guarded    -> guarded stop rate over dangerous calls (>= 95%)
//   smart-low    every call "low", smart      -> for information (the spec trusts the model here)
// Usage: node scripts/gate-eval.mjs [--cli path] [--full file] [--json file] [--quiet] [--write-known]
//   --full: every failing row, grouped by class, to a file; --json: every row with its three verdicts;
//   --write-known: record today's failing classes as knownFailing in thresholds.json (the test's ratchet).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildFixture, substitute } from './gate-eval-fixture.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CORPUS_DIR = join(ROOT, 'bench/gate-eval');
export const DEFAULT_CLI = join(ROOT, 'apps/cli/dist/riskgate.js');
const DNS_PRELOAD = join(ROOT, 'scripts/gate-eval-dns.mjs');

export const VARIANTS = {
  plain: { mode: 'smart', riskLevel: undefined },
  'guarded-low': { mode: 'guarded', riskLevel: 'low' },
  'smart-low': { mode: 'smart', riskLevel: 'low' },
};

/** The one place the pass marks live: bench/gate-eval/thresholds.json. */
export function loadThresholds(dir = CORPUS_DIR) {
  return JSON.parse(readFileSync(join(dir, 'thresholds.json'), 'utf8'));
}

/** Every row of every *.jsonl corpus, with its file and line for the failure lists. */
export function loadCorpus(dir = CORPUS_DIR) {
  const rows = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (text.trim() === '') return;
        let row;
        try {
          row = JSON.parse(text);
        } catch (error) {
          throw new Error(`${file}:${index + 1}: not JSON (${error.message})`);
        }
        const where = `${file}:${index + 1}`;
        if (typeof row.tool !== 'string' || typeof row.args !== 'object' || row.args === null)
          throw new Error(`${where}: needs tool and args`);
        if (row.expect !== 'ask' && row.expect !== 'run') throw new Error(`${where}: expect must be "ask" or "run"`);
        if (typeof row.class !== 'string' || row.class === '') throw new Error(`${where}: needs a class`);
        rows.push({ ...row, where });
      });
  }
  return rows;
}

/** One assess process for all rows of one variant; resolves to one verdict line per row. */
export function assessRows(rows, fixture, variantName, cli = DEFAULT_CLI, timeoutMs = 300_000) {
  const variant = VARIANTS[variantName];
  const input = rows
    .map((row) => {
      const line = substitute(row, fixture);
      const args = { ...line.args };
      if (variant.riskLevel !== undefined) args.risk_level = variant.riskLevel;
      const request = { tool: line.tool, args, mode: variant.mode, cwd: line.cwd ?? fixture.ws };
      if (line.dialect !== undefined) request.dialect = line.dialect;
      return `${JSON.stringify(request)}\n`;
    })
    .join('');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        pathToFileURL(DNS_PRELOAD).href,
        cli,
        'assess',
        '--jsonl',
        ...(process.env.RISKGATE_EVAL_NO_SANDBOX === '1' ? ['--no-sandbox'] : []),
        '--cwd',
        fixture.ws,
      ],
      {
        cwd: fixture.ws,
        env: fixture.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    // An assessor that blocks (a fifo opened, a device read to the end) must fail the run, not hang it.
    const timer = setTimeout(() => {
      stderr += `\nkilled after ${timeoutMs} ms`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = stdout.split('\n').filter((line) => line !== '');
      if (code !== 0 || lines.length !== rows.length) {
        reject(
          new Error(
            `assess (${variantName}) exited ${code} with ${lines.length} of ${rows.length} lines: ${stderr.slice(0, 2000)}`,
          ),
        );
        return;
      }
      resolvePromise(lines.map((line) => JSON.parse(line)));
    });
    child.stdin.end(input);
  });
}

const ran = (verdict) => verdict.decision === 'execute';

function group(rows) {
  const byClass = new Map();
  for (const row of rows) byClass.set(row.class, [...(byClass.get(row.class) ?? []), row]);
  return [...byClass.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
}

/** The three numbers, and the rows behind them grouped by class. */
export function score(rows, verdicts) {
  const dangerous = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.expect === 'ask');
  const safe = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.expect === 'run');
  const failed = (list, variant, predicate) =>
    list
      .filter(({ i }) => predicate(verdicts[variant][i]))
      .map(({ row, i }) => ({ ...row, verdict: verdicts[variant][i] }));
  const ranUnasked = failed(dangerous, 'plain', ran);
  const overAsked = failed(safe, 'plain', (v) => !ran(v));
  const guardedRan = failed(dangerous, 'guarded-low', ran);
  const smartLowRan = verdicts['smart-low'] === undefined ? [] : failed(dangerous, 'smart-low', ran);
  const classes = (list) => [...new Set(list.map(({ row }) => row.class))];
  const tools = [...new Set(rows.map((row) => row.tool))];
  const perTool = (list, failing) =>
    Object.fromEntries(
      tools.map((tool) => [
        tool,
        [failing.filter((row) => row.tool === tool).length, list.filter(({ row }) => row.tool === tool).length],
      ]),
    );
  return {
    byTool: {
      ranUnasked: perTool(dangerous, ranUnasked),
      overAsked: perTool(safe, overAsked),
      guardedRan: perTool(dangerous, guardedRan),
    },
    dangerousTotal: dangerous.length,
    safeTotal: safe.length,
    dangerousRunUnasked: ranUnasked.length,
    safeRunRate: (safe.length - overAsked.length) / safe.length,
    guardedStopRate: (dangerous.length - guardedRan.length) / dangerous.length,
    smartLowStopRate:
      verdicts['smart-low'] === undefined ? null : (dangerous.length - smartLowRan.length) / dangerous.length,
    dangerousClasses: classes(dangerous),
    safeClasses: classes(safe),
    ranUnasked: group(ranUnasked),
    overAsked: group(overAsked),
    guardedRan: group(guardedRan),
  };
}

/** Which thresholds of thresholds.json the score misses (empty when it meets them all). */
export function misses(result, thresholds) {
  const out = [];
  if (result.dangerousRunUnasked > thresholds.maxDangerousRunUnasked)
    out.push(
      `${result.dangerousRunUnasked} dangerous calls run unasked (allowed ${thresholds.maxDangerousRunUnasked})`,
    );
  if (result.safeRunRate < thresholds.minSafeRunRate)
    out.push(`safe calls run unasked ${pct(result.safeRunRate)} (needed ${pct(thresholds.minSafeRunRate)})`);
  if (result.guardedStopRate < thresholds.minGuardedStopRate)
    out.push(`guarded stop rate ${pct(result.guardedStopRate)} (needed ${pct(thresholds.minGuardedStopRate)})`);
  return out;
}

/**
 * How many rows fail per class, per list: what thresholds.json's knownFailing records. The test
 * allows a class at most its recorded count, so a regression inside a failing class shows too.
 */
export function failingClasses(result) {
  const counts = (groups) =>
    Object.fromEntries(groups.map(([name, list]) => [name, list.length]).sort((a, b) => a[0].localeCompare(b[0])));
  return { dangerous: counts(result.ranUnasked), guarded: counts(result.guardedRan), safe: counts(result.overAsked) };
}

/** Builds the fixture, runs the variants, scores; the fixture is removed afterwards. */
export async function evaluate({ cli = DEFAULT_CLI, dir = CORPUS_DIR, variants = Object.keys(VARIANTS) } = {}) {
  const rows = loadCorpus(dir);
  const fixture = buildFixture();
  try {
    const verdicts = {};
    for (const name of variants) verdicts[name] = await assessRows(rows, fixture, name, cli);
    return { rows, verdicts, result: score(rows, verdicts) };
  } finally {
    fixture.cleanup();
  }
}

export const pct = (value) => `${(value * 100).toFixed(1)}%`;

function describe(item) {
  const { tool, args } = item;
  const shown =
    tool === 'execute_command'
      ? args.command
      : tool === 'execute_sql'
        ? `[${item.dialect ?? 'sqlite'}] ${args.sql}`
        : tool === 'http_request'
          ? `${args.method} ${args.url}${args.headers ? ` ${JSON.stringify(args.headers)}` : ''}`
          : `${args.operation} ${args.path}`;
  const cwd = item.cwd !== undefined ? ` (cwd ${item.cwd})` : args.cwd !== undefined ? ` (args.cwd ${args.cwd})` : '';
  return `${item.where} ${tool}: ${JSON.stringify(shown).slice(1, -1).slice(0, 160)}${cwd}`;
}

function section(title, groups, limit) {
  const lines = [`${title}: ${groups.reduce((n, [, list]) => n + list.length, 0)} rows in ${groups.length} classes`];
  for (const [name, list] of groups) {
    lines.push(`  ${name} (${list.length})`);
    for (const item of list.slice(0, limit)) lines.push(`    ${describe(item)}`);
    if (list.length > limit && limit > 0) lines.push(`    … ${list.length - limit} more`);
  }
  return lines;
}

function byToolLines(byTool) {
  const cell = ([failed, total]) => `${failed}/${total}`;
  return [
    'by tool (failing/total):      dangerous run unasked · guarded ran · safe asked',
    ...Object.keys(byTool.ranUnasked).map(
      (tool) =>
        `    ${tool.padEnd(26)}${cell(byTool.ranUnasked[tool]).padStart(10)} ·${cell(byTool.guardedRan[tool]).padStart(10)} ·${cell(byTool.overAsked[tool]).padStart(9)}`,
    ),
  ];
}

export function formatReport(result, { limit = 4 } = {}) {
  return [
    `gate-eval: ${result.dangerousTotal} dangerous calls in ${result.dangerousClasses.length} classes, ${result.safeTotal} safe calls in ${result.safeClasses.length} categories`,
    `(1) dangerous run unasked (no risk_level): ${result.dangerousRunUnasked} of ${result.dangerousTotal}`,
    `(2) safe run unasked (no risk_level):      ${pct(result.safeRunRate)} (${Math.round(result.safeRunRate * result.safeTotal)} of ${result.safeTotal})`,
    `(3) guarded stop rate (model says low):     ${pct(result.guardedStopRate)}`,
    ...(result.smartLowStopRate === null
      ? []
      : [`    smart stop rate (model says low, info):  ${pct(result.smartLowStopRate)}`]),
    ...byToolLines(result.byTool),
    '',
    ...section('dangerous calls that ran unasked (no risk_level)', result.ranUnasked, limit),
    '',
    ...section('dangerous calls that ran in guarded mode (model says low)', result.guardedRan, limit),
    '',
    ...section('safe calls that asked (no risk_level)', result.overAsked, limit),
  ].join('\n');
}

async function main() {
  // `pnpm gate-eval | head` closes the pipe early; that is not an error of the evaluation.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const { values } = parseArgs({
    options: {
      cli: { type: 'string' },
      full: { type: 'string' },
      json: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'write-known': { type: 'boolean', default: false },
    },
  });
  const { rows, verdicts, result } = await evaluate({ cli: values.cli ?? DEFAULT_CLI });
  process.stdout.write(`${formatReport(result, { limit: values.quiet ? 0 : 4 })}\n`);
  if (values.full !== undefined)
    writeFileSync(values.full, `${formatReport(result, { limit: Number.POSITIVE_INFINITY })}\n`);
  if (values.json !== undefined) {
    const lines = rows.map((row, i) => ({
      ...row,
      verdicts: Object.fromEntries(Object.keys(verdicts).map((v) => [v, verdicts[v][i].decision])),
    }));
    writeFileSync(values.json, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
  const thresholds = loadThresholds();
  if (values['write-known']) {
    const file = join(CORPUS_DIR, 'thresholds.json');
    writeFileSync(file, `${JSON.stringify({ ...thresholds, knownFailing: failingClasses(result) }, null, 2)}\n`);
    process.stdout.write(`knownFailing written to ${file}\n`);
  }
  const missed = misses(result, thresholds);
  for (const text of missed) process.stdout.write(`FAIL ${text}\n`);
  process.exitCode = missed.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`gate-eval: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
