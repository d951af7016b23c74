import { homedir } from 'node:os';
import { relative } from 'node:path';
import { lazyMatcher } from './lazy-glob.js';
import { expandBraces, isInside, realPathOf } from './path-lookup.js';

/**
 * The person's home is private by default (DESIGN.md, "The boundary does not trust the parse"):
 * what runs unasked cannot read or list it outside the workspace, so credential stores nobody
 * named (a mail client's password file, a chat client's account list) are safe too. These rows
 * are the exceptions: files that hold no secrets and that unasked work needs. Each row says why.
 * Globs are relative to the home directory (picomatch, dotfiles included; braces expand).
 *
 * The sandbox binds each existing match read-only into an otherwise empty home; the judge lets
 * reads of them run unasked (unless the path table names them secret).
 *
 * Left out on purpose:
 * - `~/.gitconfig`, `~/.config/git`: may hold credentials (`url.<token>@host.insteadOf`,
 *   `http.extraheader`, `credential.helper store` paths). Git works without them in the sandbox.
 * - shell start-up files (`~/.bashrc`, `~/.profile`): often `export SOME_TOKEN=…`.
 * - `~/.npmrc`, `~/.cargo/config.toml`, `~/.m2/settings.xml`, `~/.gradle/gradle.properties`,
 *   `~/.condarc`: registry tokens beside the settings.
 * - `~/.cache`: caches of clients that store tokens (gh, gcloud, pip's index credentials).
 */
export interface HomeAllowRow {
  readonly glob: string;
  readonly why: string;
}

export const HOME_ALLOWLIST: readonly HomeAllowRow[] = [
  // --- files that hold no secrets by construction
  { glob: '.ssh/*.pub', why: 'public keys are made to be handed out' },
  { glob: '.ssh/known_hosts{,.old}', why: "servers' public host keys" },
  { glob: '.editorconfig', why: 'formatting rules (indent, line endings)' },
  // --- programs installed in the home directory: commands on the PATH must keep working in the
  //     sandbox. Only the directories that hold programs and libraries, not the tools' settings
  //     (which hold registry tokens) nor their caches.
  { glob: '{.local/bin,bin}', why: 'programs on the PATH (pip --user, pipx, personal scripts)' },
  { glob: '.local/lib/python*', why: 'Python packages installed with pip --user' },
  {
    glob: '.local/share/{pipx,uv/tools,uv/python,pnpm,fnm,mise/installs,mise/shims}',
    why: 'programs installed by pipx, uv, pnpm, fnm, mise',
  },
  { glob: '.local/pipx', why: 'programs installed by pipx (older layout)' },
  {
    glob: '.nvm/{nvm.sh,alias,versions/node/*/{bin,lib,include,share}}',
    why: 'Node.js versions installed by nvm (not etc/npmrc)',
  },
  {
    glob: '.{pyenv,rbenv,nodenv,goenv}/{bin,libexec,shims,versions,plugins,version}',
    why: 'interpreters installed by a version manager',
  },
  { glob: '.asdf/{bin,lib,shims,installs,plugins}', why: 'tools installed by asdf' },
  { glob: '.volta/{bin,tools/image}', why: 'Node.js tools installed by Volta' },
  { glob: '.cargo/{bin,registry,git}', why: 'Rust programs and downloaded crate sources (not credentials.toml)' },
  { glob: '.rustup/{toolchains,settings.toml,update-hashes}', why: 'Rust toolchains' },
  { glob: 'go/{bin,pkg/mod}', why: 'Go programs and the module cache' },
  { glob: '.{bun,deno}/bin', why: 'programs installed by Bun and Deno' },
  { glob: '.sdkman/candidates', why: 'JDKs and JVM tools installed by SDKMAN!' },
  { glob: '.dotnet/{dotnet,sdk,shared,host,packs,tools}', why: 'the .NET SDK and tools' },
  { glob: '.ghcup/{bin,ghc}', why: 'Haskell toolchains installed by GHCup' },
  { glob: '.{elan,juliaup}/bin', why: 'Lean and Julia toolchains' },
  {
    glob: '{miniconda3,anaconda3,miniforge3,mambaforge}/{bin,lib,envs,include,share}',
    why: 'conda interpreters and environments',
  },
  { glob: '.m2/repository', why: 'downloaded Maven artifacts (not settings.xml)' },
  { glob: '.gradle/{caches,wrapper}', why: 'downloaded Gradle distributions and artifacts (not gradle.properties)' },
];

const PICO = { dot: true, nonegate: true } as const;

/** Each row relative to the home, braces expanded: the sandbox binds what these name. */
export const HOME_ALLOWLIST_GLOBS: readonly string[] = HOME_ALLOWLIST.flatMap((row) => expandBraces(row.glob));

/**
 * Everything at or below an allowlisted entry (a directory row covers its contents). Compiled on
 * the first path that holds an entry's literal text (lazy-glob.ts), not when riskgate starts.
 */
const allowed = lazyMatcher([...HOME_ALLOWLIST_GLOBS, ...HOME_ALLOWLIST_GLOBS.map((glob) => `${glob}/**`)], PICO);

export interface HomePrivacyOptions {
  readonly home?: string;
  /** The workspace: what lies inside it is the person's work, not private. */
  readonly workspace: string;
}

/**
 * Whether a path is private: in the home directory, outside the workspace, and not on the
 * allowlist. Judged on the path as written and as resolved (a symlink in the workspace that
 * leads into the home is private; an allowlisted name that is a symlink to a private file is too).
 */
export function isPrivateHomePath(path: string, options: HomePrivacyOptions): boolean {
  const written = options.home ?? homedir();
  const homes = [...new Set([written, realPathOf(written)])].filter((home) => home !== '/');
  const workspaces = [...new Set([options.workspace, realPathOf(options.workspace)])];
  // The workspace is the home itself or holds it: everything there is the person's work.
  if (homes.length === 0 || homes.some((home) => workspaces.some((workspace) => isInside(home, workspace))))
    return false;
  for (const candidate of new Set([path, realPathOf(path)])) {
    const home = homes.find((inner) => isInside(candidate, inner));
    if (home === undefined || workspaces.some((workspace) => isInside(candidate, workspace))) continue;
    const inside = relative(home, candidate);
    if (inside === '' || !allowed(inside)) return true;
  }
  return false;
}
