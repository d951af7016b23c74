import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expandBraces, SENSITIVE_PATHS, tableFacts } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox, runCommand } from '../src/index.js';

// Every secret row of the one path table (packages/risk/src/knowledge/sensitive-paths.ts), each
// brace alternative made a real file, must be unreadable inside the real sandbox — read through
// the same compiled rows the judge uses (issue 23: a second matcher in the sandbox broke brace
// groups holding a `/`, and seven secret rows were never hidden). Table-driven: a row added later
// is covered without touching this test. The files hold plain text, never a secret's shape, so
// only the row's name can hide them (content verdicts are tested elsewhere).
//
// Rows that name a place in the home (`~/…`) and rows that name a file in any directory are made
// in a fixture home; rows anchored at `/` name the machine's own files and are not created here
// (sandbox.test.ts checks those that exist).

const available = (await probeSandbox()).available;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-rows-')));
const home = join(root, 'home');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One concrete name for a glob segment: `*.pem` → `x.pem`, `!(a|b)` → a name it does not exclude. */
function instantiate(glob: string): string {
  return glob
    .split('/')
    .map((segment) =>
      segment === '**'
        ? 'deep/er'
        : segment
            .replace(/!\([^)]*\)/g, 'riskgate-test')
            .replace(/[@+]\(([^|)]*)[^)]*\)/g, '$1')
            .replace(/\[!?\^?([^\]])[^\]]*\]/g, '$1')
            .replace(/\*/g, 'x')
            .replace(/\?/g, 'x'),
    )
    .join('/');
}

interface Instance {
  readonly row: string;
  readonly what: string;
  readonly path: string;
}

const instances: Instance[] = [];
for (const row of SENSITIVE_PATHS) {
  if (row.class !== 'secret' || row.glob.startsWith('/')) continue;
  for (const alternative of expandBraces(row.glob)) {
    const relative = alternative.startsWith('~/')
      ? instantiate(alternative.slice(2))
      : // A name in any directory: deep in a project in the home.
        join('code', 'project', 'nested', instantiate(alternative));
    instances.push({ row: row.glob, what: row.what, path: join(home, relative) });
  }
}

// A path below another instance makes that one a directory; it then holds the marker file itself.
const paths = new Set(instances.map((instance) => instance.path));
const isDirectory = (path: string) => [...paths].some((other) => other.startsWith(`${path}/`));
const markerFile = (path: string) => (isDirectory(path) ? join(path, 'riskgate-marker') : path);
const marker = (index: number) => `row-marker-${index}-plain-text`;

beforeAll(() => {
  for (const [index, instance] of instances.entries()) {
    const file = markerFile(instance.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${marker(index)}\n`);
  }
});

describe('each secret row of the path table', () => {
  it('is instantiated as a path the judge matches to its row', () => {
    const unmatched = instances.filter(
      (instance) => !tableFacts(instance.path, { home }).some((fact) => fact.what === instance.what),
    );
    expect(unmatched.map((instance) => `${instance.row} → ${instance.path}`)).toEqual([]);
  });

  /** Which markers a sandboxed `cat` of every instance's file still reads. */
  async function leaked(workspace: string, sandbox = true): Promise<string[]> {
    const script = instances
      .map((instance) => `cat -- '${markerFile(instance.path).replaceAll("'", "'\\''")}' 2>/dev/null`)
      .join('\n');
    const result = await runCommand(script, {
      cwd: workspace,
      workspace,
      home,
      sandbox,
      timeoutMs: 60_000,
      maxOutputBytes: 1_000_000,
      signal: new AbortController().signal,
    });
    const seen = new Set(result.output.match(/row-marker-\d+-plain-text/g) ?? []);
    return instances
      .filter((_, index) => seen.has(marker(index)))
      .map((instance) => `${instance.row} (${instance.what}) → ${instance.path}`);
  }

  it.runIf(available)(
    'is hidden when the workspace is the home (no private home: the rows alone hide them)',
    async () => {
      // The control: the same files read outside the sandbox are there to read.
      expect(instances.length).toBeGreaterThan(150);
      expect(await leaked(home)).toEqual([]);
    },
    60_000,
  );

  it.runIf(available)(
    'is hidden when the workspace is a project in the home (the rest of the home private)',
    async () => {
      expect(await leaked(join(home, 'code', 'project'))).toEqual([]);
    },
    60_000,
  );
});
