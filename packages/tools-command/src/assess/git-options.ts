/**
 * The options of git's read subcommands (issue 18: options fail closed), taken from the manual pages
 * of git 2.39 (`man git-log`, …) less those that write or run programs: --output, --ext-diff,
 * --open-files-in-pager (grep -O), --contents and --ignore-revs-file (blame -S: they read a named file),
 * ls-files -X/--exclude-from (a named file too), --lost-found (fsck writes .git/lost-found) and
 * --recurse-submodules (runs git in every submodule, whose configuration is not checked). An option not here is asked about. Short letters first,
 * then long options; every subcommand also takes -<number> and --help.
 */
/** git log's options (2.45), which whatchanged takes too. */
const LOG =
  '-BCDEFGILMNOPRSUWXabcgilmnpstuwz0123456789 --abbrev --abbrev-commit --after --all --all-match ' +
  '--alternate-refs --ancestry-path --anchored --author --author-date-order --basic-regexp --before ' +
  '--binary --bisect --boundary --branches --break-rewrites --cached --cc --check --cherry --cherry-mark ' +
  '--cherry-pick --children --clear-decorations --color --color-moved --color-moved-ws --color-words ' +
  '--combined --combined-all-paths --committer --compact-summary --cumulative --date --date-order ' +
  '--decorate --decorate-refs --decorate-refs-exclude --dense --diff-algorithm --diff-filter --diff-merges ' +
  '--dirstat --dirstat-by-file --do-walk --dst-prefix --encoding --exclude --exclude-first-parent-only ' +
  '--exclude-hidden --exit-code --expand-tabs --extended-regexp --find-copies --find-copies-harder ' +
  '--find-object --find-renames --first-parent --fixed-strings --follow --format --full-diff --full-history ' +
  '--full-index --function-context --git --glob --graph --grep --grep-reflog --histogram --ignore-all-space ' +
  '--ignore-blank-lines --ignore-cr-at-eol --ignore-matching-lines --ignore-missing --ignore-space-at-eol ' +
  '--ignore-space-change --ignore-submodules --indent-heuristic --indexed-objects --inter-hunk-context ' +
  '--invert-grep --irreversible-delete --ita-invisible-in-index --ita-visible-in-index --left-only ' +
  '--left-right --line-prefix --log-size --max-count --max-parents --merge --merges --min-parents --minimal ' +
  '--name-only --name-status --no-abbrev --no-abbrev-commit --no-color --no-color-moved --no-color-moved-ws ' +
  '--no-decorate --no-diff-merges --no-expand-tabs --no-ext-diff --no-indent-heuristic --no-max-parents ' +
  '--no-merges --no-min-parents --no-notes --no-patch --no-prefix --no-relative --no-renames --no-textconv ' +
  '--no-use-mailmap --no-walk --not --notes --numstat --oneline --output-indicator-context ' +
  '--output-indicator-new --output-indicator-old --parents --patch --patch-with-raw --patch-with-stat ' +
  '--patience --perl-regexp --pickaxe-all --pickaxe-regex --pretty --raw --reflog --regexp-ignore-case ' +
  '--relative --relative-date --remerge-diff --remotes --remove-empty --reverse --right-only --rotate-to ' +
  '--shortstat --show-linear-break --show-notes --show-pulls --simplify-by-decoration ' +
  '--simplify-merges --since --since-as-filter --single-worktree --skip --skip-to --source --sparse ' +
  '--src-prefix --stat --stat-count --stat-graph-width --stat-name-width --stat-width --stdin --strategy ' +
  '--submodule --summary --tags --text --textconv --topo-order --unfold --unified --until --use-mailmap ' +
  '--verify --walk-reflogs --word-diff --word-diff-regex --ws-error-highlight';

export const GIT_READ_OPTIONS: Readonly<Record<string, string>> = {
  annotate:
    '-CLMbcefhlnpstw0123456789 --abbrev --color-by-age --color-lines --date --diff-filter --encoding ' +
    '--first-parent --ignore-rev --incremental --line-porcelain --porcelain --pretty --progress --reverse ' +
    '--root --score-debug --show-email --show-name --show-number --show-stats --since',
  blame:
    '-CLMbcefhlnpstw0123456789 --abbrev --color-by-age --color-lines --date --diff-filter --encoding ' +
    '--first-parent --ignore-rev --incremental --line-porcelain --porcelain --pretty --progress --reverse ' +
    '--root --score-debug --show-email --show-name --show-number --show-stats --since',
  'cat-file':
    '-epstz0123456789 --allow-unknown-type --batch --batch-all-objects --batch-check --batch-command --buffer ' +
    '--filters --follow-symlinks --path --textconv --unordered',
  'check-attr': '-az0123456789 --all --cached --stdin',
  'check-ignore': '-fnqvz0123456789 --no-index --non-matching --quiet --stdin --verbose',
  cherry: '-bv0123456789 --boundary --decorate --graph --oneline',
  'count-objects': '-Hv0123456789 --human-readable --verbose',
  describe:
    '-as0123456789 --abbrev --all --always --broken --candidates --contains --debug --dirty --exact-match ' +
    '--exclude --first-parent --long --match --no-exclude --no-match --tags',
  diff:
    '-BCDGIMNOPRSUWXabclprstuwz0123456789 --abbrev --anchored --base --binary --break-rewrites --cached --cc ' +
    '--check --color --color-moved --color-moved-ws --color-words --combined --combined-all-paths ' +
    '--compact-summary --cumulative --diff-algorithm --diff-filter --diff-merges --dirstat --dirstat-by-file ' +
    '--dst-prefix --exit-code --find-copies --find-copies-harder --find-object --find-renames --full-index ' +
    '--function-context --git --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol ' +
    '--ignore-matching-lines --ignore-space-at-eol --ignore-space-change --ignore-submodules ' +
    '--indent-heuristic --inter-hunk-context --irreversible-delete --ita-invisible-in-index ' +
    '--ita-visible-in-index --line-prefix --merge-base --minimal --name-only --name-status --no-color ' +
    '--no-color-moved --no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-index --no-patch ' +
    '--no-prefix --no-relative --no-renames --no-textconv --numstat --ours --output-indicator-context ' +
    '--output-indicator-new --output-indicator-old --patch --patch-with-raw --patch-with-stat --patience ' +
    '--pickaxe-all --pickaxe-regex --quiet --raw --refresh --relative --rotate-to --shortstat --skip-to ' +
    '--src-prefix --staged --stat --stat-count --stat-graph-width --stat-name-width --stat-width --submodule ' +
    '--summary --text --textconv --theirs --unified --word-diff --word-diff-regex --ws-error-highlight',
  'diff-files':
    '-BCDGIMNOPRSUWXabclpqrstuwz0123456789 --abbrev --anchored --base --binary --break-rewrites --cached --cc ' +
    '--check --color --color-moved --color-moved-ws --color-words --combined --combined-all-paths ' +
    '--compact-summary --cumulative --diff-algorithm --diff-filter --diff-merges --dirstat --dirstat-by-file ' +
    '--dst-prefix --exit-code --find-copies --find-copies-harder --find-object --find-renames --full-index ' +
    '--function-context --git --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol ' +
    '--ignore-matching-lines --ignore-space-at-eol --ignore-space-change --ignore-submodules ' +
    '--indent-heuristic --inter-hunk-context --irreversible-delete --ita-invisible-in-index ' +
    '--ita-visible-in-index --line-prefix --minimal --name-only --name-status --no-color --no-color-moved ' +
    '--no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-patch --no-prefix --no-relative ' +
    '--no-renames --no-textconv --numstat --ours --output-indicator-context --output-indicator-new ' +
    '--output-indicator-old --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all ' +
    '--pickaxe-regex --quiet --raw --relative --rotate-to --shortstat --skip-to --src-prefix --stat ' +
    '--stat-count --stat-graph-width --stat-name-width --stat-width --submodule --summary --text --textconv ' +
    '--theirs --unified --word-diff --word-diff-regex --ws-error-highlight',
  'diff-index':
    '-BCDGIMNOPRSUWXabclmprstuwz0123456789 --abbrev --anchored --binary --break-rewrites --cached --cc ' +
    '--check --color --color-moved --color-moved-ws --color-words --combined --combined-all-paths ' +
    '--compact-summary --cumulative --diff-algorithm --diff-filter --diff-merges --dirstat --dirstat-by-file ' +
    '--dst-prefix --exit-code --find-copies --find-copies-harder --find-object --find-renames --full-index ' +
    '--function-context --git --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol ' +
    '--ignore-matching-lines --ignore-space-at-eol --ignore-space-change --ignore-submodules ' +
    '--indent-heuristic --inter-hunk-context --irreversible-delete --ita-invisible-in-index ' +
    '--ita-visible-in-index --line-prefix --merge-base --minimal --name-only --name-status --no-color ' +
    '--no-color-moved --no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-patch --no-prefix ' +
    '--no-relative --no-renames --no-textconv --numstat --output-indicator-context --output-indicator-new ' +
    '--output-indicator-old --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all ' +
    '--pickaxe-regex --quiet --raw --relative --rotate-to --shortstat --skip-to --src-prefix --stat ' +
    '--stat-count --stat-graph-width --stat-name-width --stat-width --submodule --summary --text --textconv ' +
    '--unified --word-diff --word-diff-regex --ws-error-highlight',
  'diff-tree':
    '-BCDGIMNOPRSUWXabcglmprstuvwz0123456789 --abbrev --abbrev-commit --always --anchored --binary ' +
    '--break-rewrites --cached --cc --check --color --color-moved --color-moved-ws --color-words --combined ' +
    '--combined-all-paths --compact-summary --cumulative --date --decorate --diff-algorithm --diff-filter ' +
    '--diff-merges --dirstat --dirstat-by-file --dst-prefix --encoding --exit-code --expand-tabs ' +
    '--find-copies --find-copies-harder --find-object --find-renames --format --full-index --function-context ' +
    '--git --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-matching-lines ' +
    '--ignore-space-at-eol --ignore-space-change --ignore-submodules --indent-heuristic --inter-hunk-context ' +
    '--irreversible-delete --ita-invisible-in-index --ita-visible-in-index --line-prefix --merge-base ' +
    '--minimal --name-only --name-status --no-abbrev --no-abbrev-commit --no-color --no-color-moved ' +
    '--no-color-moved-ws --no-commit-id --no-expand-tabs --no-ext-diff --no-indent-heuristic --no-notes ' +
    '--no-patch --no-prefix --no-relative --no-renames --no-textconv --notes --numstat --oneline ' +
    '--output-indicator-context --output-indicator-new --output-indicator-old --patch --patch-with-raw ' +
    '--patch-with-stat --patience --pickaxe-all --pickaxe-regex --pretty --quiet --raw --relative --root ' +
    '--rotate-to --shortstat --show-notes --skip-to --source --src-prefix --stat ' +
    '--stat-count --stat-graph-width --stat-name-width --stat-width --stdin --submodule --summary --text ' +
    '--textconv --unfold --unified --verify --walk-reflogs --word-diff --word-diff-regex --ws-error-highlight',
  'for-each-ref':
    '-es0123456789 --color --contains --count --date --format --ignore-case --merged --no-contains ' +
    '--no-merged --perl --points-at --python --quote --shell --sort --tcl',
  fsck:
    '-0123456789 --cache --connectivity-only --full --name-objects --no-dangling --no-full --no-progress ' +
    '--no-reflogs --progress --root --strict --tags --unreachable --verbose',
  grep:
    '-ABCEFGHILPWacefhilmnopqrvwz0123456789 --after-context --all-match --and --basic-regexp --before-context ' +
    '--break --cached --color --column --context --count --exclude-standard --extended-regexp ' +
    '--files-with-matches --files-without-match --fixed-strings --full-name --function-context --heading ' +
    '--ignore-case --invert-match --line-number --max-count --max-depth --name-only --no-color ' +
    '--no-exclude-standard --no-index --no-recursive --no-textconv --not --null --only-matching --or ' +
    '--parent-basename --perl-regexp --quiet --recursive --show-function --text --textconv --threads ' +
    '--untracked --word-regexp',
  log: LOG,
  'ls-files':
    '-cdfikmostuvxz0123456789 --abbrev --cached --debug --deduplicate --deleted --directory --eol ' +
    '--error-unmatch --exclude --exclude-per-directory --exclude-standard --format --full-name ' +
    '--ignored --killed --modified --name-status --no-empty-directory --others --porcelain --resolve-undo ' +
    '--short --sparse --stage --unmerged --with-tree',
  'ls-tree':
    '-adlrtz0123456789 --abbrev --format --full-name --full-tree --index-info --long --name-only ' +
    '--name-status --object-only --stdin',
  'merge-base': '-ac0123456789 --all --fork-point --independent --is-ancestor --merge-base --octopus --onto --verify',
  'name-rev':
    '-0123456789 --all --always --annotate-stdin --exclude --name-only --no-exclude --no-refs --no-undefined ' +
    '--refs --stdin --tags',
  'range-diff':
    '-T0123456789 --color --creation-factor --dual-color --left-only --no-color --no-dual-color --right-only ' +
    '--stable --stat',
  'rev-list':
    '-EFPcginpvw0123456789 --abbrev --abbrev-commit --after --all --all-match --alternate-refs ' +
    '--ancestry-path --author --author-date-order --basic-regexp --batch-check --before --bisect --bisect-all ' +
    '--bisect-vars --boundary --branches --cherry --cherry-mark --cherry-pick --children --color ' +
    '--commit-header --committer --count --date --date-order --decorate --dense --disk-usage --do-walk ' +
    '--encoding --exclude --exclude-first-parent-only --exclude-hidden --exclude-promisor-objects ' +
    '--expand-tabs --extended-regexp --filter --filter-print-omitted --filter-provided-objects --first-parent ' +
    '--fixed-strings --format --full-history --glob --graph --grep --grep-reflog --header --ignore-missing ' +
    '--in-commit-order --indexed-objects --invert-grep --left-only --left-right --max-age --max-count ' +
    '--max-parents --merge --merges --min-age --min-parents --missing --no-abbrev --no-abbrev-commit ' +
    '--no-commit-header --no-expand-tabs --no-filter --no-max-parents --no-merges --no-min-parents ' +
    '--no-object-names --no-walk --not --object-names --objects --objects-edge --objects-edge-aggressive ' +
    '--oneline --parents --perl-regexp --pretty --progress --quiet --raw --reflog --regexp-ignore-case ' +
    '--relative-date --remotes --remove-empty --reverse --right-only --show-linear-break --show-pulls ' +
    '--simplify-by-decoration --simplify-merges --since --since-as-filter --single-worktree ' +
    '--skip --source --sparse --stdin --tags --timestamp --topo-order --unfold --unpacked --until ' +
    '--use-bitmap-index --verify --walk-reflogs',
  'rev-parse':
    '-CSchq0123456789 --abbrev-ref --absolute-git-dir --after --all --before --branches --default ' +
    '--disambiguate --exclude --exclude-hidden --flags --git-common-dir --git-dir --git-path --glob --help ' +
    '--help-all --is-bare-repository --is-inside-git-dir --is-inside-work-tree --is-shallow-repository ' +
    '--keep-dashdash --local-env-vars --max-age --min-age --no-flags --no-revs --not --parseopt --path-format ' +
    '--prefix --quiet --remotes --resolve-git-dir --revs-only --shared-index-path --short --show-cdup ' +
    '--show-object-format --show-prefix --show-superproject-working-tree --show-toplevel --since --sq ' +
    '--sq-quote --stop-at-non-option --stuck-long --symbolic --symbolic-full-name --tags --until --verify',
  shortlog:
    '-EFPceginsw0123456789 --after --all --all-match --alternate-refs --ancestry-path --author --basic-regexp ' +
    '--before --bisect --boundary --branches --cherry --cherry-mark --cherry-pick --children --committer ' +
    '--date --dense --email --exclude --exclude-first-parent-only --exclude-hidden --extended-regexp ' +
    '--first-parent --fixed-strings --format --full-history --glob --grep --grep-reflog --group ' +
    '--ignore-missing --indexed-objects --invert-grep --left-only --left-right --max-count --max-parents ' +
    '--merge --merges --min-parents --no-max-parents --no-merges --no-min-parents --not --notes --numbered ' +
    '--parents --perl-regexp --pretty --reflog --regexp-ignore-case --remotes --remove-empty --reverse ' +
    '--right-only --show-pulls --simplify-by-decoration --simplify-merges --since --since-as-filter ' +
    '--single-worktree --skip --sparse --stdin --summary --tags --until --walk-reflogs',
  show:
    '-BCDGIMNOPRSUWXabcglmpstuwz0123456789 --abbrev --abbrev-commit --anchored --binary --break-rewrites ' +
    '--cached --cc --check --color --color-moved --color-moved-ws --color-words --combined ' +
    '--combined-all-paths --compact-summary --cumulative --date --decorate --diff-algorithm --diff-filter ' +
    '--diff-merges --dirstat --dirstat-by-file --dst-prefix --encoding --exit-code --expand-tabs ' +
    '--find-copies --find-copies-harder --find-object --find-renames --first-parent --follow --format ' +
    '--full-index --function-context --git --histogram --ignore-all-space --ignore-blank-lines ' +
    '--ignore-cr-at-eol --ignore-matching-lines --ignore-space-at-eol --ignore-space-change ' +
    '--ignore-submodules --indent-heuristic --inter-hunk-context --irreversible-delete ' +
    '--ita-invisible-in-index --ita-visible-in-index --line-prefix --minimal --name-only --name-status ' +
    '--no-abbrev --no-abbrev-commit --no-color --no-color-moved --no-color-moved-ws --no-diff-merges ' +
    '--no-expand-tabs --no-ext-diff --no-indent-heuristic --no-notes --no-patch --no-prefix --no-relative ' +
    '--no-renames --no-textconv --notes --numstat --oneline --output-indicator-context --output-indicator-new ' +
    '--output-indicator-old --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all ' +
    '--pickaxe-regex --pretty --raw --relative --remerge-diff --rotate-to --shortstat --show-notes ' +
    '--skip-to --source --src-prefix --stat --stat-count --stat-graph-width ' +
    '--stat-name-width --stat-width --submodule --summary --text --textconv --unfold --unified --verify ' +
    '--walk-reflogs --word-diff --word-diff-regex --ws-error-highlight',
  'show-branch':
    '-agr0123456789 --all --color --current --date-order --force --independent --list --merge-base --more ' +
    '--no-color --no-name --reflog --remotes --sha1-name --sparse --topics --topo-order',
  'show-ref': '-dqs0123456789 --abbrev --dereference --exclude-existing --hash --head --heads --quiet --tags --verify',
  status:
    '-bsuvz0123456789 --ahead-behind --branch --cached --column --find-renames --ignore-submodules --ignored ' +
    '--long --merge --no-ahead-behind --no-column --no-optional-locks --no-renames --porcelain --renames ' +
    '--short --show-stash --split-index --summary-limit --untracked-cache --untracked-files --verbose',
  var: '-l0123456789 --nofork',
  'verify-commit': '-Sv0123456789 --raw --verbose',
  'verify-tag': '-v0123456789 --format --raw --verbose',
  // git whatchanged is git log with other defaults: the same options.
  whatchanged: LOG,
};
