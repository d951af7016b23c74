import { describe, expect, it } from 'vitest';
import { pathFacts, SENSITIVE_PATHS } from '../src/index.js';

/**
 * Examples on the rule (issue 23, the way codex's execpolicy checks `match`/`not_match`): every
 * row of the sensitive-path table carries paths it covers and, where its meaning has an edge,
 * paths it must not cover. They are checked here through the judge's own lookup (`pathFacts`), so
 * a row and its proof sit together and a row without an example fails.
 *
 * `~/` is a home and a relative path sits in a workspace, neither of which exists: only the table
 * speaks, not the content of files on this machine.
 */
const HOME = '/home/riskgate-examples';
const WORKSPACE = '/srv/riskgate-examples/project';
const resolve = (path: string) =>
  path.startsWith('~/') ? `${HOME}/${path.slice(2)}` : path.startsWith('/') ? path : `${WORKSPACE}/${path}`;
/** The row's fact: its class and words (rows that share both are one fact to the judge). */
const coveredBy = (row: (typeof SENSITIVE_PATHS)[number], path: string) =>
  pathFacts(resolve(path), { home: HOME }).some((fact) => fact.class === row.class && fact.what === row.what);

const rows = SENSITIVE_PATHS.map((row) => [row.glob, row] as const);

describe('every sensitive-path row proves itself with examples', () => {
  it.each(rows)('%s has at least one match example', (_glob, row) => {
    expect(row.match.length).toBeGreaterThan(0);
  });

  it.each(rows)('%s covers its match examples and none of its notMatch examples', (_glob, row) => {
    expect(row.match.filter((path) => !coveredBy(row, path))).toEqual([]);
    expect((row.notMatch ?? []).filter((path) => coveredBy(row, path))).toEqual([]);
  });
});
