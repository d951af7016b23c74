import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addTrustedProject,
  ConfigError,
  listTrustedProjects,
  loadConfig,
  realDirectory,
  removeTrustedProject,
  userConfigPath,
} from '@riskgate/core';
import type { CommandStreams } from './assess-command.js';

export function trustHelp(): string {
  return `riskgate trust — let a project's .riskgate/ apply in full

Usage:
  riskgate trust [<dir>]            trust the project in <dir> (default: the current folder)
  riskgate trust --revoke [<dir>]   stop trusting it
  riskgate trust --list             print the trusted projects, one real path per line

Until you trust a project, its .riskgate/ can only make riskgate stricter: its ask and deny
rules apply, and its mode when it is stricter than yours. Everything else it sets is ignored,
and riskgate names what on start: allow rules, a looser mode, model, baseURL, apiKey, sql,
commands and http settings, limits, and prompt templates in .riskgate/prompts/.

Trust is for exactly that folder, by its real path (symlinks resolved): a trusted parent
does not cover a clone inside it, and another clone of the same repository elsewhere is not
trusted. What you trust is the folder, so later changes pulled into its .riskgate/ apply too.
The list is "trustedProjects" in ${userConfigPath()} (docs/trust.md).

An organisation's managed policy (/etc/riskgate/managed-policy.json) with "projectTrust": false
makes every project untrusted, and "riskgate trust" then refuses (docs/policy.md).
`;
}

class UsageError extends Error {}

export async function runTrust(argv: readonly string[], streams: Omit<CommandStreams, 'stdin'>): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        revoke: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      streams.stdout.write(trustHelp());
      return 0;
    }
    if (values.list && values.revoke) throw new UsageError('--list and --revoke together: choose one');
    if (values.list && positionals.length > 0) throw new UsageError('--list takes no folder');
    if (positionals.length > 1) throw new UsageError(`one folder at a time, not ${positionals.length}`);
    const directory = resolve(positionals[0] ?? '.');
    if (values.list) return list(streams);
    return values.revoke ? revoke(directory, streams) : trust(directory, streams);
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      streams.stderr.write(
        `riskgate trust: ${(error as Error).message}\n${error instanceof ConfigError ? '' : 'Run "riskgate trust --help" for usage.\n'}`,
      );
      return 1;
    }
    throw error;
  }
}

function list(streams: Omit<CommandStreams, 'stdin'>): number {
  const trusted = listTrustedProjects();
  if (trusted.length === 0) streams.stderr.write(`riskgate trust: no trusted projects in ${userConfigPath()}\n`);
  for (const path of trusted) streams.stdout.write(`${path}\n`);
  return 0;
}

function trust(directory: string, streams: Omit<CommandStreams, 'stdin'>): number {
  const real = realDirectory(directory);
  if (real === undefined) throw new UsageError(`no such folder: ${directory}`);
  if (!statSync(real).isDirectory()) throw new UsageError(`not a folder: ${directory}`);
  // What the project sets that is ignored today is what trusting it turns on: say so.
  const before = loadConfig({ projectDirectory: real });
  if (before.managed?.projectTrust === false) {
    throw new ConfigError(
      `your organisation's policy (${before.managed.sources.join(', ')}) does not let projects be trusted; nothing was changed`,
    );
  }
  const change = addTrustedProject(real);
  if (!change.changed) {
    streams.stdout.write(`riskgate trust: ${real} is already trusted\n`);
    return 0;
  }
  streams.stdout.write(`riskgate trust: trusted ${real} (recorded in ${change.file})\n`);
  streams.stdout.write(
    before.project.trusted || before.project.ignored.length === 0
      ? `  its .riskgate/ sets nothing that was being ignored\n`
      : `  now applies from ${before.project.settingsDirectory}/: ${before.project.ignored.join(', ')}\n`,
  );
  return 0;
}

function revoke(directory: string, streams: Omit<CommandStreams, 'stdin'>): number {
  // A clone that was deleted or moved can still be taken off the list by the path it had.
  const candidates = [...new Set([realDirectory(directory), directory].filter((path) => path !== undefined))];
  const trusted = listTrustedProjects();
  const listed = candidates.find((path) => trusted.includes(path));
  if (listed === undefined) {
    throw new UsageError(
      `${directory} is not a trusted project; trusted: ${trusted.length === 0 ? 'none' : trusted.join(', ')}`,
    );
  }
  const change = removeTrustedProject(listed);
  streams.stdout.write(
    `riskgate trust: no longer trusted: ${listed} (removed from ${change.file}); its .riskgate/ may only tighten again\n`,
  );
  return 0;
}
