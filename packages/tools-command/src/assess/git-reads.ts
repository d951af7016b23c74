import { gitProgram } from './git.js';
import { known } from './words.js';
import type { CallSite } from './table.js';

/**
 * git reads of the long tail (issue 18, item 5), in the sandbox only: forms git.ts counts as
 * writes because the same subcommand also writes (`bisect start`, `notes add`, `reflog expire`,
 * `hash-object -w`). Each form below is listed whole — subcommand, verb and every option it may
 * carry — and anything else goes to git.ts unchanged. A call with git's own options before the
 * subcommand (`-C`, `-c`, `--git-dir`) also goes there: it names another repository or runs
 * configured programs, which git.ts checks.
 *
 * What git may run on its own is checked by git.ts itself, as for its own reads: a repository whose
 * configuration names programs (core.fsmonitor, a filter, a pager) is not whitelisted.
 */

/** Options of the listing forms of branch and tag that take a revision (`--contains HEAD~1`). */
const REVISION_OPTIONS = /^--(contains|no-contains|merged|no-merged|points-at)$/;
const LISTING_FLAGS =
  /^(-a|--all|-r|--remotes|-l|--list|-v|-vv|--verbose|--no-color|--column|--no-column|--sort=.+|--format=.+|--color(=.*)?)$/;
const REFLOG_OPTIONS =
  /^(--oneline|--date=.+|--format=.+|--pretty=.+|--abbrev-commit|--no-abbrev-commit|--max-count=\d+|-n\d+|-\d+)$/;
const REFLOG_VALUES = new Set(['-n', '--max-count']);
/** Revisions and reference names: not options, not paths. */
const NAME = /^[A-Za-z0-9@][A-Za-z0-9._/@{}~^+-]*$/;

/** A form: the files it reads when the words are that form, undefined when they are not. */
type Form = (words: readonly string[]) => readonly string[] | undefined;
const NONE: readonly string[] = [];
const when = (matches: boolean): readonly string[] | undefined => (matches ? NONE : undefined);

const FORMS: Readonly<Record<string, Form>> = {
  // BISECT_LOG, printed.
  bisect: (words) => when(words.length === 1 && words[0] === 'log'),
  // Notes are commit annotations, read like commit messages.
  notes: (words) =>
    when(
      (words[0] === 'list' || words[0] === 'show') &&
        words.length <= 2 &&
        words.slice(1).every((word) => NAME.test(word)),
    ),
  reflog: (words) => when(reflogShow(words)),
  branch: (words) => when(listingWithRevision(words)),
  tag: (words) => when(listingWithRevision(words)),
  'check-ref-format': (words) =>
    when(
      words.every(
        (word) =>
          /^--(branch|normalize|allow-onelevel|no-allow-onelevel|refspec-pattern)$/.test(word) || NAME.test(word),
      ),
    ),
  // Reads a pack index from standard input.
  'show-index': (words) =>
    when(
      words.length === 0 ||
        (words.length === 1 && /^--object-format=(sha1|sha256)$/.test(words[0]!)) ||
        (words.length === 2 && words[0] === '--object-format' && /^(sha1|sha256)$/.test(words[1]!)),
    ),
  'verify-pack': (words) => fileOperands(words.filter((word) => !/^(-v|--verbose|-s|--stat-only)$/.test(word))),
  // Without -w the object is hashed, not written; --stdin-paths reads names from standard input and is left out.
  'hash-object': (words) => {
    const rest: string[] = [];
    for (let index = 0; index < words.length; index++) {
      const word = words[index]!;
      if (word === '-t' && /^(blob|tree|commit|tag)$/.test(words[index + 1] ?? '')) index++;
      else if (!/^(--stdin|--no-filters|--literally)$/.test(word)) rest.push(word);
    }
    return fileOperands(rest);
  },
};

function reflogShow(words: readonly string[]): boolean {
  const rest = words[0] === 'show' ? words.slice(1) : words;
  if (rest[0] === 'expire' || rest[0] === 'delete' || rest[0] === 'exists') return false;
  let names = 0;
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index]!;
    if (REFLOG_VALUES.has(word) && /^\d+$/.test(rest[index + 1] ?? '')) index++;
    else if (REFLOG_OPTIONS.test(word)) continue;
    else if (NAME.test(word) && ++names === 1) continue;
    else return false;
  }
  return true;
}

/** `git branch --contains HEAD~1 -a`: listing options only, a revision only after its option (a bare name creates a branch). */
function listingWithRevision(words: readonly string[]): boolean {
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (REVISION_OPTIONS.test(word) && NAME.test(words[index + 1] ?? '')) index++;
    else if (
      !LISTING_FLAGS.test(word) &&
      !/^--(contains|no-contains|merged|no-merged|points-at)=[A-Za-z0-9@][A-Za-z0-9._/@{}~^+-]*$/.test(word)
    )
      return false;
  }
  return true;
}

/** The words as files the form reads (`--` allowed); undefined when an option is among them. */
function fileOperands(words: readonly string[]): readonly string[] | undefined {
  const files = words.filter((word) => word !== '--');
  return files.length > 0 && !files.some((word) => word.startsWith('-')) ? files : undefined;
}

/** Judges the call and returns true when it is one of the forms above (and only then). */
export function gitLongTailRead(site: CallSite): boolean {
  if (!site.sandbox) return false;
  const words = site.args.map((word) =>
    word.unknown || word.glob || word.texts.length !== 1 ? undefined : word.value,
  );
  if (words.some((word) => word === undefined)) return false;
  const [subcommand, ...rest] = words as string[];
  const form = subcommand === undefined ? undefined : FORMS[subcommand];
  if (form === undefined) return false;
  const files = form(rest);
  if (files === undefined) return false;
  for (const file of files) site.path('read', known(file), { via: `git ${subcommand}` });
  // The repository is judged as git.ts judges it for any read (its configuration running
  // programs, and whatever else git.ts checks there): by judging `git rev-parse`, which reads
  // nothing more, at the same place.
  gitProgram(site.withArgs([known('rev-parse')]));
  // `notes show` prints a note's text, which may hold a token (red team, round 3): judged as
  // `git log --notes`, whose notes are checked with the object store.
  if (subcommand === 'notes' && rest[0] === 'show')
    gitProgram(site.withArgs([known('log'), known('--notes'), known('-s')]));
  return true;
}
