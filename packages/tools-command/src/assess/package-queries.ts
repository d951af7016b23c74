import { known } from './words.js';
import { type CallSite, type ProgramRow, withExamples } from './table.js';

/**
 * Queries of what a package manager has installed (issue 18, item 5), in the sandbox only: each
 * form reads the local package database and prints. Listed whole — the query, every option it may
 * carry — so that an install, a sync with the network (`pacman -Sy`, `apt-file update`) or a
 * script (`rpm --eval '%(…)'`) is never among them; anything else is judged by the program's own
 * row (programs.ts) or, for the programs only this file knows, asked as running the program.
 * Queries of a registry are network and are not here.
 */

/** The words, when every one is known before the run (no expansion, no glob). */
function literalWords(site: CallSite): readonly string[] | undefined {
  const words = site.args.map((word) =>
    word.unknown || word.glob || word.texts.length !== 1 ? undefined : word.value,
  );
  return words.some((word) => word === undefined) ? undefined : (words as string[]);
}

/** A form: the files it reads when the words are that form, undefined when they are not. */
type Query = (words: readonly string[]) => readonly string[] | undefined;
const NONE: readonly string[] = [];
/** Package names, patterns and versions: data, never options. */
const PACKAGE = /^[A-Za-z0-9@][A-Za-z0-9@._+:~*^$\\[\]-]*$/;
const packagesOnly = (words: readonly string[]) => (words.every((word) => PACKAGE.test(word)) ? NONE : undefined);

/** pacman -Q… reads the local database; -Ss/-Si/-Sl/-Sg and -F search the synced copies without syncing (no y, u, w, c). */
const pacman: Query = (words) => {
  const [operation, ...rest] = words;
  if (operation === undefined) return undefined;
  const query = /^-Q[cdegiklmnqstuv]*$/.test(operation);
  const owns = /^-Q[a-z]*[op][a-z]*$/.test(operation) && /^-Q[cdegiklmnopqstuv]*$/.test(operation);
  const sync = /^-S[sigl][sigqlv]*$/.test(operation) || /^-F[lqxv]*$/.test(operation);
  if (owns) return rest.length > 0 && rest.every((word) => !word.startsWith('-')) ? rest : undefined;
  return query || sync ? packagesOnly(rest) : undefined;
};

/** brew list/ls/leaves of what is installed (HOMEBREW_NO_AUTO_UPDATE keeps it local: sandbox.ts); `info` fetches analytics and is not here. */
const brew: Query = (words) => {
  const [verb, ...rest] = words;
  const options = rest.filter((word) => word.startsWith('-'));
  const names = rest.filter((word) => !word.startsWith('-'));
  if (verb === 'ls' || verb === 'list')
    return options.every((word) =>
      /^(--cask|--formula|--formulae|--casks|--versions|--pinned|--full-name|-1|-l|-r|-t|--multiple)$/.test(word),
    )
      ? packagesOnly(names)
      : undefined;
  if (verb === 'leaves')
    return options.every((word) => /^(-r|--installed-on-request|-p|--installed-as-dependency)$/.test(word)) &&
      names.length === 0
      ? NONE
      : undefined;
  return undefined;
};

/** dpkg's query actions (the rest install, remove, configure or unpack). */
const dpkg: Query = (words) => {
  const [action, ...rest] = words;
  if (action === undefined) return undefined;
  if (/^(-l|--list|-L|--listfiles|-s|--status|-p|--print-avail)$/.test(action)) return packagesOnly(rest);
  if (/^(-S|--search)$/.test(action))
    return rest.length > 0 && rest.every((word) => !word.startsWith('-')) ? NONE : undefined;
  if (/^(-c|--contents|-I|--info)$/.test(action))
    return rest.length > 0 && rest.every((word) => !word.startsWith('-')) ? rest.slice(0, 1) : undefined;
  if (/^(--get-selections|--print-architecture|--print-foreign-architectures)$/.test(action)) return packagesOnly(rest);
  return undefined;
};

/** rpm -q… (the query mode) with options that select what to print; --qf and --eval are left out (macros can run commands). */
const rpm: Query = (words) => {
  let query = false;
  let packageFile = false;
  const operands: string[] = [];
  for (const word of words) {
    if (/^-q[alfipcdR]*$/.test(word) || word === '--query') {
      query = true;
      packageFile ||= word.includes('p');
    } else if (
      /^(--list|--changelog|--info|--requires|--provides|--whatprovides|--whatrequires|--configfiles|--docfiles|--scripts|--last|--all|-a|-l|-i|-c|-d|-R|-f|--file|-p|--package)$/.test(
        word,
      )
    ) {
      packageFile ||= word === '-p' || word === '--package';
    } else if (!word.startsWith('-')) operands.push(word);
    else return undefined;
  }
  if (!query) return undefined;
  return packageFile ? operands : NONE;
};

/** apt-file searches its local Contents cache; `update` downloads it. */
const aptFile: Query = (words) => {
  const verb = words.find((word) => !word.startsWith('-'));
  if (!/^(search|find|list|show)$/.test(verb ?? '')) return undefined;
  return words.every(
    (word) =>
      !word.startsWith('-') || /^(-x|--regexp|-i|--ignore-case|-l|--package-only|-F|--fixed-string)$/.test(word),
  )
    ? NONE
    : undefined;
};

/** flatpak list and info read the local installations. */
const flatpak: Query = (words) => {
  const [verb, ...rest] = words;
  if (verb === 'list')
    return rest.every((word) =>
      /^(--app|--runtime|--user|--system|-d|--show-details|--all|-a|--columns=[a-z,:]+)$/.test(word),
    )
      ? NONE
      : undefined;
  if (verb === 'info')
    return rest.every(
      (word) =>
        /^(--user|--system|-r|--show-ref|-c|--show-commit|-s|--show-size|-m|--show-metadata)$/.test(word) ||
        PACKAGE.test(word),
    )
      ? NONE
      : undefined;
  return undefined;
};

function judge(query: Query, site: CallSite): boolean {
  if (!site.sandbox) return false;
  const words = literalWords(site);
  const files = words === undefined ? undefined : query(words);
  if (files === undefined) return false;
  for (const file of files) site.path('read', known(file), { via: site.name });
  return true;
}

/** Queries of programs that have their own row in programs.ts: tried first, the row judges the rest. */
export const PACKAGE_QUERY_OVERLAYS: Readonly<Record<string, (site: CallSite) => boolean>> = {
  pacman: (site) => judge(pacman, site),
  brew: (site) => judge(brew, site),
  dpkg: (site) => judge(dpkg, site),
};

/** Package managers riskgate had no row for: the queries read, every other form runs the program. */
const queryOnly = (query: Query): ProgramRow => ({
  operands: 'data',
  sandboxOnly: true,
  custom(site) {
    if (judge(query, site) || !site.sandbox) return;
    site.emit({
      kind: 'run-program',
      program: `${site.name} ${site.args.map((word) => word.raw).join(' ')}`.trim().slice(0, 80),
      via: site.name,
    });
  },
});

export const PACKAGE_QUERY_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  rpm: withExamples(queryOnly(rpm), {
    judged: 'read',
    match: ["rpm -qa 'php*'", 'rpm -qf notes.txt'],
    notMatch: ['rpm -i notes.txt', 'rpm -e bash'],
  }),
  'apt-file': withExamples(queryOnly(aptFile), {
    judged: 'read',
    match: ['apt-file search notes.txt', 'apt-file list bash'],
  }),
  flatpak: withExamples(queryOnly(flatpak), {
    judged: 'read',
    match: ['flatpak list --app', 'flatpak info com.example.App'],
  }),
};
