import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What another app's developer gets: every package packed with `pnpm pack`, the tarballs
 * installed with npm into projects outside the workspace, used from plain Node (no TypeScript
 * tooling, no workspace links).
 */
const workspace = fileURLToPath(new URL('../../../', import.meta.url));
const manifestOf = (directory: string) =>
  JSON.parse(readFileSync(join(workspace, directory, 'package.json'), 'utf8')) as Record<string, unknown>;
// Published = every package under packages/ and apps/ that is not private (as scripts/set-version.mjs sees it).
const PACKAGES = ['packages', 'apps']
  .flatMap((folder) => readdirSync(join(workspace, folder)).map((name) => `${folder}/${name}`))
  .filter((directory) => manifestOf(directory).private !== true);
const LIBRARIES = PACKAGES.filter((directory) => directory.startsWith('packages/')).map((directory) =>
  directory.slice('packages/'.length),
);
const root = mkdtempSync(join(tmpdir(), 'riskgate-packed-'));
const tarballs = new Map<string, string>();
const manifests = new Map<string, Record<string, unknown>>();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const filesIn = (tarball: string) =>
  execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.replace(/^package\//, ''));
const packedManifest = (tarball: string) =>
  JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<
    string,
    unknown
  >;

beforeAll(() => {
  const destination = join(root, 'tarballs');
  mkdirSync(destination);
  for (const directory of PACKAGES) {
    execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: join(workspace, directory),
      stdio: 'pipe',
    });
    const { name, version } = manifestOf(directory) as { name: string; version: string };
    // pnpm's tarball name: @scope/name@1.2.3 → scope-name-1.2.3.tgz
    const file = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
    if (!readdirSync(destination).includes(file)) throw new Error(`pnpm pack wrote no ${file} for ${name}`);
    tarballs.set(name, join(destination, file));
    manifests.set(name, packedManifest(join(destination, file)));
  }
});

/** A new npm project in the temporary directory with these tarballs (and extra packages) installed. */
function consumerProject(
  name: string,
  packages: readonly string[],
  extra: readonly string[] = [],
  options: { ignoreScripts?: boolean } = {},
): string {
  const directory = join(root, name);
  mkdirSync(directory);
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const specs = [...packages.map((pkg) => tarballs.get(pkg)!), ...extra];
  const flags = options.ignoreScripts === true ? ['--ignore-scripts'] : [];
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...flags, ...specs], {
    cwd: directory,
    stdio: 'pipe',
    timeout: 480_000,
  });
  return directory;
}

/** Runs a consumer script with plain Node in the project. */
function runConsumer(directory: string, script: string, args: readonly string[] = []): string {
  copyFileSync(fileURLToPath(new URL(`./consumers/${script}`, import.meta.url)), join(directory, script));
  return execFileSync(process.execPath, [script, ...args], {
    cwd: directory,
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('the packed packages', () => {
  it('are the eight packages we mean to publish (the testing package stays private)', () => {
    expect([...PACKAGES].sort()).toEqual([
      'apps/cli',
      'packages/core',
      'packages/prompt',
      'packages/risk',
      'packages/tools-command',
      'packages/tools-file',
      'packages/tools-http',
      'packages/tools-sql',
    ]);
  });

  it('all carry one version, and pin each other to it', () => {
    const versions = new Set([...manifests.values()].map((manifest) => manifest.version));
    expect(versions.size).toBe(1);
    const [version] = versions;
    for (const [name, manifest] of manifests) {
      for (const [dependency, range] of Object.entries((manifest.dependencies ?? {}) as Record<string, string>)) {
        if (dependency.startsWith('@riskgate/')) expect(range, `${name} → ${dependency}`).toBe(version);
      }
    }
  });

  it.each(
    LIBRARIES,
  )('@riskgate/%s ships JavaScript, declarations, a README and the licence, and nothing else', (library) => {
    const name = `@riskgate/${library}`;
    const files = filesIn(tarballs.get(name)!);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']),
    );
    expect(files.filter((file) => /^(src|test)\/|tsconfig|vitest|\.test\./.test(file))).toEqual([]);
    const manifest = manifests.get(name)!;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    // Consumers get dist/ only: the workspace's source condition is not published.
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', import: './dist/index.js' },
      // The config alone, without the knowledge base (the TUI's start path: BENCHMARKS.md).
      ...(library === 'core' || library === 'risk'
        ? { './config': { types: './dist/config-entry.d.ts', import: './dist/config-entry.js' } }
        : {}),
      ...(library === 'core' ? { './config.schema.json': './config.schema.json' } : {}),
    });
    expect(JSON.stringify(manifest)).not.toMatch(/workspace:|@riskgate\/source/);
    expect(Object.keys((manifest.scripts ?? {}) as object).filter((script) => /install|prepare/.test(script))).toEqual(
      [],
    );
    expect(readFileSync(join(workspace, 'packages', library, 'LICENSE'), 'utf8')).toBe(
      readFileSync(join(workspace, 'LICENSE'), 'utf8'),
    );
  });

  // One repository for every manifest and README: the root package.json's (change it there and
  // this test names every file that still has the old one).
  const repository = (manifestOf('.').repository as { url: string }).url.replace(/^git\+/, '').replace(/\.git$/, '');
  it.each(PACKAGES)('%s names its repository, homepage and bugs, and its README links absolutely', (directory) => {
    const { name } = manifestOf(directory) as { name: string };
    const manifest = manifests.get(name)!;
    expect(manifest.repository).toEqual({ type: 'git', url: `git+${repository}.git`, directory });
    expect(manifest.homepage).toBe(`${repository}/tree/main/${directory}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
    expect(manifest.engines).toEqual({ node: '>=20.12' });
    const readme = readFileSync(join(workspace, directory, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.filter((link) => !link.startsWith(`${repository}/`) && !/^https:\/\//.test(link))).toEqual([]);
  });

  it.each(
    LIBRARIES.filter((library) => library !== 'prompt'),
  )('@riskgate/%s takes zod from the app (a peer)', (library) => {
    const manifest = manifests.get(`@riskgate/${library}`)!;
    expect(manifest.dependencies).not.toHaveProperty('zod');
    expect(manifest.peerDependencies).toMatchObject({ zod: '^3.25.76 || ^4.1.0' });
  });

  it('@riskgate/prompt ships its templates as files', () => {
    expect(filesIn(tarballs.get('@riskgate/prompt')!)).toEqual(
      expect.arrayContaining(['templates/system-chat.md', 'templates/system-sql.md', 'templates/risk-guidance.md']),
    );
  });

  it('@riskgate/tools-sql has its drivers as optional peers', () => {
    const manifest = manifests.get('@riskgate/tools-sql')!;
    expect(manifest.dependencies).not.toHaveProperty('better-sqlite3');
    expect(manifest.dependencies).not.toHaveProperty('pg');
    expect(manifest.peerDependenciesMeta).toMatchObject({
      'better-sqlite3': { optional: true },
      pg: { optional: true },
      mysql2: { optional: true },
    });
  });

  it('the CLI ships its bundle with the prompt templates, and depends only on what is not bundled', () => {
    const files = filesIn(tarballs.get('riskgate')!);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/riskgate.js',
        'dist/templates/system-chat.md',
        'dist/grammar/tree-sitter-bash.wasm',
        'dist/grammar/tree-sitter-bash.LICENSE',
        'README.md',
        'LICENSE',
      ]),
    );
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([]);
    expect(Object.keys(manifests.get('riskgate')!.dependencies as object).sort()).toEqual([
      'better-sqlite3',
      'libpg-query',
      'web-tree-sitter',
    ]);
  });

  it('no package ships source maps (they were 11 MB of the CLI tarball)', () => {
    for (const [name, tarball] of tarballs)
      expect(
        filesIn(tarball).filter((file) => file.endsWith('.map')),
        name,
      ).toEqual([]);
  });

  it('@riskgate/tools-command ships the bash grammar with its MIT licence instead of depending on tree-sitter-bash', () => {
    const files = filesIn(tarballs.get('@riskgate/tools-command')!);
    expect(files).toEqual(
      expect.arrayContaining(['grammar/tree-sitter-bash.wasm', 'grammar/tree-sitter-bash.LICENSE']),
    );
    const licence = execFileSync(
      'tar',
      ['-xzOf', tarballs.get('@riskgate/tools-command')!, 'package/grammar/tree-sitter-bash.LICENSE'],
      { encoding: 'utf8' },
    );
    expect(licence).toMatch(/^The MIT License/);
    const manifest = manifests.get('@riskgate/tools-command')!;
    expect(manifest.dependencies).not.toHaveProperty('tree-sitter-bash');
    expect(manifest.dependencies).toHaveProperty('web-tree-sitter');
  });
});

describe('installed with npm outside the workspace, run by plain Node', () => {
  // better-sqlite3 compiles from source here (its prebuilt downloads are unreachable), which
  // takes minutes: the consumer's copy is the workspace's, already built, linked by path, and
  // that install runs no scripts (else npm would rebuild it in place). Our own packages have
  // no install scripts (checked above).
  const projects = new Map<string, string>();
  const betterSqlite3 = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));

  it('@riskgate/tools-sql alone: schema, assess, a SELECT on SQLite; pg missing is named', () => {
    const project = consumerProject('sql-alone', ['@riskgate/risk', '@riskgate/tools-sql'], [betterSqlite3], {
      ignoreScripts: true,
    });
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('pg');
    projects.set('sql-alone', project);
    expect(runConsumer(project, 'sql-alone.mjs', [join(project, 'shop.sqlite')])).toMatch(/sql-alone ok/);
  });

  it('@riskgate/tools-command alone: ls runs, compound commands are asked about; it installs in 20 MB', () => {
    const project = consumerProject('command-alone', ['@riskgate/risk', '@riskgate/tools-command']);
    projects.set('command-alone', project);
    expect(runConsumer(project, 'command-alone.mjs')).toMatch(/command-alone ok/);
    // What an install costs on disk (du counts blocks, as a person's `du -sh node_modules` does).
    const kilobytes = Number(
      execFileSync('du', ['-sk', join(project, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
    );
    expect(kilobytes).toBeLessThanOrEqual(20 * 1024);
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('tree-sitter-bash');
  });

  it('@riskgate/core: the gated executor and prompt templates from the installed files', () => {
    // Every library (zod 4 and @types/node for the TypeScript consumer below, which reuses it).
    const project = consumerProject(
      'core-gate',
      LIBRARIES.map((library) => `@riskgate/${library}`),
      ['zod@^4.0.0', '@types/node@^20.19.0'],
    );
    projects.set('core-gate', project);
    expect(runConsumer(project, 'core-gate.mjs')).toMatch(/core-gate ok/);
  });

  // zod is a peer (^3.25.76 || ^4.1): a TypeScript consumer on either, type-checked with skipLibCheck
  // off (no leaked third-party types: web-tree-sitter's need @types/emscripten, better-sqlite3's
  // its @types), then compiled and run: defineTool with the consumer's own zod, gated calls.
  const typescript = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  it.each([
    ['3', 'zod@^3.25.76'],
    ['4', undefined],
  ])('a TypeScript consumer on zod %s type-checks with skipLibCheck off and runs a gated tool', (major, zod) => {
    const project =
      zod === undefined
        ? projects.get('core-gate')
        : consumerProject(
            `zod-${major}`,
            LIBRARIES.map((library) => `@riskgate/${library}`),
            [zod, '@types/node@^20.19.0'],
          );
    if (project === undefined) throw new Error('the core-gate project was not installed (its test failed)');
    copyFileSync(
      fileURLToPath(new URL('./consumers/zod-consumer.ts', import.meta.url)),
      join(project, 'zod-consumer.ts'),
    );
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: false,
      types: ['node'],
      outDir: 'dist',
    };
    // Every package's declarations, not only those the program imports.
    const everything = LIBRARIES.map(
      (library) => `import type * as ${library.replace('-', '_')} from '@riskgate/${library}';`,
    );
    writeFileSync(
      join(project, 'all-packages.ts'),
      `${everything.join('\n')}\nexport type All = [${LIBRARIES.map((library) => `typeof ${library.replace('-', '_')}`).join(', ')}];\n`,
    );
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    const checked = spawnSync(process.execPath, [typescript, '-p', '.'], { cwd: project, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    const output = execFileSync(process.execPath, ['dist/zod-consumer.js'], { cwd: project, encoding: 'utf8' });
    expect(output).toMatch(new RegExp(`zod-consumer ok \\(zod ${major}\\.`));
  });

  it('the CLI installs with "npm i -g" and runs from any folder', () => {
    const prefix = join(root, 'global');
    execFileSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--ignore-scripts',
        tarballs.get('riskgate')!,
      ],
      { stdio: 'pipe', timeout: 480_000 },
    );
    // The install ran no scripts (better-sqlite3 would compile for minutes here): its unbuilt copy
    // is swapped for the workspace's built one, the same version.
    const installed = join(prefix, 'lib', 'node_modules', 'riskgate', 'node_modules', 'better-sqlite3');
    rmSync(installed, { recursive: true, force: true });
    symlinkSync(betterSqlite3, installed);
    const elsewhere = join(root, 'global-elsewhere');
    mkdirSync(elsewhere);
    const env = {
      ...process.env,
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      XDG_CACHE_HOME: join(root, 'global-cache'),
    };
    const run = (args: readonly string[]) => execFileSync('riskgate', args, { cwd: elsewhere, env, encoding: 'utf8' });
    expect(run(['--version']).trim()).toBe(manifests.get('riskgate')!.version);
    // The native driver, the SQL parsers and the bash grammar, all from the installed package.
    const demo = run(['demo-db']).trim();
    expect(demo).toBe(join(root, 'global-cache', 'riskgate', 'demo-shop-v1.sqlite'));
    expect(run(['assess', '--db', demo, 'execute_sql', '{"sql":"SELECT count(*) FROM orders"}'])).toMatch(
      /^execute_sql: EXECUTE/,
    );
    expect(run(['assess', '--dialect', 'postgres', 'execute_sql', '{"sql":"DROP TABLE orders"}'])).toMatch(
      /^execute_sql: CONFIRM/,
    );
    expect(run(['assess', 'execute_command', '{"command":"ls -la"}'])).toMatch(/^execute_command: EXECUTE/);
    expect(run(['completion', 'bash'])).toContain('complete -o default -F _riskgate riskgate');
  });

  // Each README's example, run as written in a project that installed that package.
  it.each([
    ['risk', 'core-gate'],
    ['prompt', 'core-gate'],
    ['core', 'core-gate'],
    ['tools-file', 'core-gate'],
    ['tools-http', 'core-gate'],
    ['tools-command', 'command-alone'],
    ['tools-sql', 'sql-alone'],
  ])('the README example of @riskgate/%s runs', (library, project) => {
    const directory = projects.get(project);
    if (directory === undefined) throw new Error(`the ${project} project was not installed (its test failed)`);
    const readme = readFileSync(join(workspace, 'packages', library, 'README.md'), 'utf8');
    const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(examples).toHaveLength(1);
    writeFileSync(join(directory, `readme-${library}.mjs`), examples[0]!);
    expect(() =>
      execFileSync(process.execPath, [`readme-${library}.mjs`], { cwd: directory, encoding: 'utf8', stdio: 'pipe' }),
    ).not.toThrow();
  });
});
