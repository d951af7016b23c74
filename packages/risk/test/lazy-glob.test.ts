import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compiledRows, expandBraces, SENSITIVE_PATHS } from '../src/index.js';
import { HOME_ALLOWLIST_GLOBS } from '../src/knowledge/home-allowlist.js';
import { hasSegment, lazyMatcher, literalParts } from '../src/knowledge/lazy-glob.js';

/**
 * The path rows compile their globs lazily behind a check of their literal text (lazy-glob.ts):
 * it must only ever skip paths picomatch itself would refuse. Each row is compared with the
 * eager picomatch matcher it replaced, over the rows' own examples, paths made from every
 * row's glob, and variations of them (deeper, shallower, trailing and doubled slashes, `./`,
 * look-alike names, other cases).
 */
const HOME = '/home/riskgate-examples';
const WORKSPACE = '/srv/riskgate-examples/project';
const PICO = { dot: true, nonegate: true } as const;
const resolve = (path: string) =>
  path.startsWith('~/') ? `${HOME}/${path.slice(2)}` : path.startsWith('/') ? path : `${WORKSPACE}/${path}`;

/** A path a glob names, its wildcards filled in one of several ways. */
function instances(glob: string): string[] {
  const fills = ['x', '', 'a.b', '.hidden', 'id_rsa', 'key.pem', 'config'];
  return fills.map((fill) =>
    glob
      .replace(/^~\//, `${HOME}/`)
      .replace(/\*\*/g, `deep/${fill || 'x'}`)
      .replace(/!\(([^)]*)\)/g, (_all, inner: string) => inner.split('|')[0]!.replace(/\*/g, fill))
      .replace(/\[[^\]]*\]/g, 'x')
      .replace(/[*?]/g, fill),
  );
}

function variations(path: string): string[] {
  const absolute = path.startsWith('/') ? path : `${WORKSPACE}/${path}`;
  return [
    path,
    absolute,
    `${absolute}/`,
    `${absolute}/child`,
    `${absolute}/child/grandchild.txt`,
    absolute.replace(/\/([^/]*)$/, '//$1'),
    `./${path}`,
    absolute.slice(1),
    `${absolute}.bak`,
    `${absolute}x`,
    absolute.replace(/\/([^/]*)$/, '/x$1'),
    absolute.toUpperCase(),
    absolute.replace(/\/[^/]*$/, ''),
    `/tmp${absolute}`,
  ];
}

const corpus = [
  ...new Set(
    SENSITIVE_PATHS.flatMap((row) => [
      ...[...row.match, ...(row.notMatch ?? [])].map(resolve),
      ...expandBraces(row.glob).flatMap(instances),
    ]).flatMap(variations),
  ),
];

describe('lazily compiled path rows', () => {
  it('give every path of the corpus the verdict of the eager picomatch matcher', () => {
    expect(corpus.length).toBeGreaterThan(10_000);
    const differences: string[] = [];
    for (const row of compiledRows(HOME)) {
      const glob = `/${row.segments.join('/')}`.replace(/^\/\*\*/, '**');
      const eager = picomatch(row.fileOnly ? [glob] : [glob, `${glob}/**`], PICO);
      const eagerName = row.name === undefined ? undefined : picomatch(row.segments.at(-1)!, PICO);
      for (const path of corpus) {
        if (row.test(path) !== eager(path)) differences.push(`${glob} test ${path}`);
        const name = path.split('/').at(-1)!;
        if (eagerName !== undefined && row.name!(name) !== eagerName(name)) differences.push(`${glob} name ${name}`);
      }
    }
    expect(differences).toEqual([]);
    // Every row against every path of the corpus (millions of matches): CPU-bound, and slow on a loaded machine.
  }, 180_000);

  it("give the home allowlist's paths the verdict of the eager matcher", () => {
    const globs = [...HOME_ALLOWLIST_GLOBS, ...HOME_ALLOWLIST_GLOBS.map((glob) => `${glob}/**`)];
    const lazy = lazyMatcher(globs, PICO);
    const eager = picomatch(globs, PICO);
    const relativeCorpus = [
      ...new Set([
        ...HOME_ALLOWLIST_GLOBS.flatMap(instances).flatMap(variations),
        ...corpus.map((path) => path.replace(/^\/+/, '')),
      ]),
    ].map((path) => path.replace(`${HOME}/`, ''));
    expect(relativeCorpus.filter((path) => lazy(path) !== eager(path))).toEqual([]);
    expect(relativeCorpus.filter((path) => eager(path)).length).toBeGreaterThan(50);
  });

  it('compile a glob only for a path that holds its literal text', () => {
    const test = lazyMatcher(['**/*.tfstate'], PICO);
    expect(test('/srv/app/main.tf')).toBe(false);
    expect(test('/srv/app/prod.tfstate')).toBe(true);
    expect(test('/srv/app/prod.tfstate.backup')).toBe(false);
  });

  it.each([
    ['/home/u/.ssh/!(*.pub|known_hosts)', ['home', 'u', '.ssh'], []],
    ['**/*.tfstate', [], ['.tfstate']],
    ['**/id_*', [], ['id_']],
    ['**/.env.*', [], ['.env.']],
    ['/proc/*/environ', ['proc', 'environ'], []],
  ] as const)('take %s as literal segments %j and fragments %j', (glob, segments, fragments) => {
    expect(literalParts(glob)).toEqual({ segments, fragments });
  });

  it.each([
    ['/a/.ssh/b', '.ssh', true],
    ['.ssh', '.ssh', true],
    ['.ssh/x', '.ssh', true],
    ['/a/.ssh', '.ssh', true],
    ['/a/x.ssh/b', '.ssh', false],
    ['/a/.sshx', '.ssh', false],
  ] as const)('find in %s the segment %s: %s', (path, segment, found) => {
    expect(hasSegment(path, segment)).toBe(found);
  });
});
