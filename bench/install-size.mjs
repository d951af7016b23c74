#!/usr/bin/env node
// What installing @riskgate/tools-command costs on disk: @riskgate/risk and @riskgate/tools-command
// packed (`pnpm pack`, as published) and installed with npm into an empty project, then
// `du -sk node_modules` (blocks, as a person's `du -sh` counts them); also the CLI tarball's
// size and whether it holds source maps. Prints one JSON line.   node bench/install-size.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const directory = mkdtempSync(join(tmpdir(), 'riskgate-install-size-'));
const pack = (folder) => {
  execFileSync('pnpm', ['pack', '--pack-destination', directory], { cwd: join(root, folder), stdio: 'ignore' });
};
try {
  for (const folder of ['packages/risk', 'packages/tools-command', 'apps/cli']) pack(folder);
  const tarballs = readdirSync(directory).filter((name) => name.endsWith('.tgz'));
  const project = join(directory, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'size', private: true, type: 'module' }));
  const libraries = tarballs.filter(
    (name) => name.startsWith('riskgate-risk-') || name.startsWith('riskgate-tools-command-'),
  );
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...libraries.map((name) => join(directory, name))],
    { cwd: project, stdio: 'ignore', timeout: 480_000 },
  );
  const kilobytes = Number(
    execFileSync('du', ['-sk', join(project, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
  );
  const cli = tarballs.find((name) => /^riskgate-\d/.test(name));
  const cliFiles = execFileSync('tar', ['-tzf', join(directory, cli)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  process.stdout.write(
    `${JSON.stringify({
      toolsCommandInstallMb: kilobytes / 1024,
      cliTarballMb: statSync(join(directory, cli)).size / 2 ** 20,
      cliSourceMaps: cliFiles.filter((file) => file.endsWith('.map')).length,
    })}\n`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
