// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the output is bash, whose ${…} are bash expansions
/**
 * A grammar of bash lines for the differential test: words, quotes, expansions (every
 * `${…}` operator, allowlisted or not), substitutions, here-documents, arithmetic, builtins
 * that evaluate or rebind, and compound commands, mixed with read-only programs and payloads
 * (`id`, `touch`, `rm`) that must never run behind a whitelisted verdict. A fixed seed makes it
 * repeatable. Each production is counted so the test can say which constructs it exercised.
 */

/** mulberry32: a small, fast, seedable generator. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values a variable may hold: plain, numeric, and each of bash's ways to turn a value into a command. */
const VALUES = [
  "'3'",
  '7',
  'README.md',
  "'a[$(id)]'",
  "'$(id)'",
  "'`id`'",
  "'\\$(id)'",
  "'x[`id`]'",
  "'*'",
  "'id'",
  '"$HOME"',
  "'1+1'",
  "'b[$(touch pwned)]'",
];
const PAYLOADS = ['id', 'touch pwned', 'rm -f README.md', 'sh -c id', 'bash -c id', 'mkdir d'];
const READERS = [
  'cat README.md',
  'ls',
  'ls -la src',
  'wc -l data.csv',
  'head -n 1 README.md',
  'sort data.csv',
  'grep -n x README.md',
  'tr a b < README.md',
  'cut -d, -f1 data.csv',
  'echo hi',
  'printf "%s\\n" x',
  'date',
  'true',
  'basename a/b',
  'seq 3',
  'uniq data.csv',
  'jq .name package.json',
  "awk '{print $1}' data.csv",
  'sed -n 1p README.md',
  'find src -name "*.ts"',
  'dirname a/b',
  'test -f README.md',
  ':',
];
const EXPANSION_OPERATORS = [
  '',
  ':-WORD',
  '-WORD',
  ':+WORD',
  '+WORD',
  ':?WORD',
  '#a',
  '##*/',
  '%.md',
  '%%.*',
  '/a/b',
  '//a/WORD',
  '/#a/b',
  '/%a/b',
  '^',
  '^^',
  ',',
  ',,',
  ':1',
  ':1:2',
  ':$n',
  ':n',
  ':=WORD',
  '=WORD',
  '@P',
  '@Q',
  '@E',
  '@A',
  '@a',
  '@U',
  '@u',
  '@L',
  '@K',
];

/** awk statements: harmless ones and each way out of awk. */
const AWK_PIECES = [
  'print $1',
  'print NR',
  's += $2',
  'print length($0)',
  'printf "%s\\n", $1',
  'print toupper($1)',
  'if ($1 > 0) print',
  'n = split($0, a, ",")',
  'print "x" > "/dev/stderr"',
  'print $1 / 2',
  'x = (NR) / 2 / 1',
  'print /x/ ? 1 : 0',
  'print substr($0, 1, 2)',
  'system("id")',
  'print | "sh"',
  '"id" | getline x',
  'print > "pwned"',
  'print ENVIRON["GITHUB_TOKEN"]',
  'f = "system"; @f("id")',
  'close("x")',
  'print "x" >> "pwned"',
  'getline l < "/proc/self/environ"; print l',
  'ARGV[1] = "/proc/self/environ"; ARGC = 2',
  'printf("x") > "pwned"',
  'if (1) /"/; system("id"); x = /"/',
  'print "id" |& "sh"',
  'awk::system("id")',
  'for (k in ENVIRON) print ENVIRON[k]',
];
/** jq filters: harmless ones and each way out of the filter. */
const JQ_PIECES = [
  '.name',
  'keys',
  'map(.)',
  '.[]?',
  'length',
  '{a: .name}',
  '"\\(.name)"',
  'to_entries',
  '@base64',
  'tostring',
  'env.GITHUB_TOKEN',
  '$ENV.GITHUB_TOKEN',
  '$ENV',
  'env',
  'input',
  '[inputs]',
  'input_filename',
  '$__loc__',
  'debug',
  '{a: env}',
  '"\\(env.GITHUB_TOKEN)"',
  'import "x" as $k; $k',
  'stderr',
  'get_search_list',
];

export interface GeneratedLine {
  readonly line: string;
  readonly constructs: readonly string[];
}

export function generateLines(count: number, seed: number): GeneratedLine[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (probability: number) => next() < probability;
  let used: string[] = [];
  const mark = (construct: string) => used.push(construct);

  const innerCommand = (): string => (chance(0.5) ? pick(READERS) : pick(PAYLOADS));
  const expansion = (): string => {
    const form = pick([
      'plain',
      'braced',
      'operator',
      'operator',
      'length',
      'indirect',
      'array',
      'arraylength',
      'prefix',
    ]);
    mark(`expansion:${form}`);
    const name = pick(['v', 'n', 'f', 'HOME', 'PATH', 'a', 'u']);
    switch (form) {
      case 'plain':
        return `$${name}`;
      case 'braced':
        return `\${${name}}`;
      case 'length':
        return `\${#${name}}`;
      case 'indirect':
        return `\${!${name}}`;
      case 'array':
        return `\${a[${pick(['0', '1', '@', '*', '$n', 'n', '$v', 'v', '$(id)', 'i+1'])}]}`;
      case 'arraylength':
        return '${#a[@]}';
      case 'prefix':
        return `\${!${pick(['H', 'P', 'a'])}${pick(['*', '@'])}}`;
      default: {
        const operator = pick(EXPANSION_OPERATORS);
        mark(`expansion-operator:${operator.replace('WORD', 'w') || 'none'}`);
        return `\${${name}${operator.replace('WORD', () => (chance(0.6) ? word(1) : pick(['x', "'y'", '"z"'])))}}`;
      }
    }
  };
  const arithmetic = (): string => {
    const operand = () =>
      pick([
        '1',
        '2',
        '0x1f',
        'n',
        '$n',
        'v',
        '$v',
        'a[1]',
        'a[$n]',
        'i',
        '$#',
        '${#v}',
        `$(${innerCommand()})`,
        'x',
        'RANDOM',
      ]);
    mark('arithmetic');
    return chance(0.3)
      ? `${pick(['i', 'n', 'x'])}${pick(['=', '+=', '++'])}${operand()}`.replace('++', '++ +')
      : `${operand()} ${pick(['+', '*', '<', '==', '?1:'])} ${operand()}`.replace('?1: ', '?1:');
  };
  const word = (depth: number): string => {
    const kind =
      depth > 2
        ? pick(['literal', 'single', 'double'])
        : pick([
            'literal',
            'literal',
            'single',
            'double',
            'double',
            'expansion',
            'expansion',
            'substitution',
            'backquote',
            'arithmetic',
            'process',
            'brace',
            'glob',
            'tilde',
            'ansi',
            'concat',
            'escaped-backquote',
          ]);
    mark(`word:${kind}`);
    switch (kind) {
      case 'literal':
        return pick(['README.md', 'data.csv', 'src', 'x', '-n', '1', 'a/b']);
      case 'single':
        return pick(["'a b'", "'$(id)'", "'`id`'", "'${x@P}'"]);
      case 'double':
        return `"${pick(['a ', '', '$v ', '\\$(id) ', '\\`id\\` '])}${depth < 2 && chance(0.4) ? word(depth + 1) : ''}"`.replace(
          /""$/,
          '"',
        );
      case 'expansion':
        return expansion();
      case 'substitution':
        return `$(${statement(depth + 1)})`;
      case 'backquote':
        return `\`${innerCommand()}\``;
      case 'escaped-backquote':
        return pick(['`echo \\`id\\``', '"`echo \\`id\\``"', '`echo \\\\`id\\\\``', '`echo \\$(id)`']);
      case 'arithmetic':
        return `$((${arithmetic()}))`;
      case 'process':
        return `<(${innerCommand()})`;
      case 'brace':
        return pick(['{a,b}', '{1..3}', 'x{README,data}.md']);
      case 'glob':
        return pick(['*.md', 's?c', '[a-z]*']);
      case 'tilde':
        return pick(['~', '~/.ssh/id_rsa', '~root']);
      case 'ansi':
        return pick(["$'\\x69d'", "$'a\\nb'"]);
      default:
        return `${word(depth + 1)}${word(depth + 1)}`;
    }
  };
  const simple = (depth: number): string => {
    const head = chance(0.6)
      ? pick(READERS)
      : chance(0.5)
        ? pick(['echo', 'printf "%s\\n"', 'cat', 'ls', 'test -n', '[ -n'])
        : pick(PAYLOADS);
    mark(`command:${head.split(' ')[0]}`);
    const words = Array.from({ length: Math.floor(next() * 3) }, () => word(depth));
    const text = `${head}${words.length > 0 ? ` ${words.join(' ')}` : ''}${head.startsWith('[') ? ' ]' : ''}`;
    if (!chance(0.25)) return text;
    const redirect = pick([
      '> /dev/null',
      '2>&1',
      '< README.md',
      '> out.txt',
      '>> out.txt',
      `> ${word(depth)}`,
      '<<< "$v"',
      '2>/dev/null',
      '&> /dev/null',
      '3<README.md',
    ]);
    mark(`redirect:${redirect.split(' ')[0]}`);
    return `${text} ${redirect}`;
  };
  const builtin = (): string => {
    const form = pick([
      'mapfile -C id -c 1 arr < README.md',
      'readarray -C "$v" -c 1 arr < README.md',
      "compgen -W '$(id)'",
      'compgen -W "$v"',
      'declare -n r=v; echo "$r"',
      'declare -n r=PATH; r=/tmp; ls',
      'local -n r=v',
      'typeset -n r=v',
      'printf -v PATH %s /tmp; ls',
      'printf -v "$v" %s x',
      "printf -v 'a[$(id)]' %s x",
      'printf -v x %s 1; echo $x',
      'unset PATH; ls',
      'unset IFS',
      'unset "$v"',
      'unset -f ls; ls',
      'exec 3<README.md',
      'exec >/dev/null',
      'exec ls',
      "trap 'id' EXIT",
      'trap id DEBUG; :',
      'trap -l',
      'eval "$v"',
      "eval 'echo hi'",
      'eval echo "$(id)"',
      'source README.md',
      '. ./README.md',
      'shopt -s expand_aliases',
      'shopt -s extglob; ls',
      'alias ls=id; ls',
      'set -o posix',
      'set -euo pipefail; ls',
      'set -k; ls PATH=/tmp',
      'set -- "$v"; echo $(( $1 ))',
      'enable -n echo',
      'enable -f x y',
      'read PATH < README.md; ls',
      'read v < README.md',
      'for PATH in /tmp; do ls; done',
      'for v in 1 2; do echo $((v)); done',
      'select PATH in a; do ls; done < /dev/null',
      'coproc id',
      'let "x=$v"',
      'let x=1+2',
      'let n++',
      'declare -i x; x=$v',
      'declare "$v"=1',
      'test -v "$v"',
      '[[ -v $v ]]',
      '[[ $v -lt 3 ]]',
      '[[ $n -eq 7 ]]',
      '[ "$v" -lt 3 ]',
      'wait -p PATH',
      'command -v ls',
      'type ls',
      'hash -p /usr/bin/id ls; ls',
      'builtin echo hi',
      'command ls',
      'f() { v=$1; }; f "a[$(id)]"; echo $((v))',
      'i=0; while read -r l; do i=$((i+1)); done < README.md; echo $i',
      'x=1; f() { echo $((x)); }; x=$v; f',
      'false && ls() { :; }; ls',
      'true || id() { :; }; id',
      'ls() { :; }; unset -f ls; ls',
    ]);
    mark(`builtin:${form.split(/[ ;(]/)[0]}`);
    return form;
  };
  const compound = (depth: number): string => {
    const kind = pick([
      'subshell',
      'group',
      'if',
      'for',
      'while-read',
      'case',
      'function',
      'c-for',
      'arith',
      'test',
      'negate',
      'pipeline',
      'and',
      'or',
      'assign-then',
      'prefix-assign',
    ]);
    mark(`compound:${kind}`);
    const inner = () => statement(depth + 1);
    switch (kind) {
      case 'subshell':
        return `( ${inner()} )`;
      case 'group':
        return `{ ${inner()}; }`;
      case 'if':
        return `if ${inner()}; then ${inner()}; else ${inner()}; fi`;
      case 'for':
        return `for v in ${word(depth)} ${word(depth)}; do ${inner()}; done`;
      case 'while-read':
        return `while read -r v; do ${inner()}; done < README.md`;
      case 'case':
        return `case ${word(depth)} in a*) ${inner()};; *) ${inner()};; esac`;
      case 'function':
        return `g() { ${inner()}; }; g`;
      case 'c-for':
        return `for ((i=0; i<2; i++)); do ${inner()}; done`;
      case 'arith':
        return `(( ${arithmetic()} ))`;
      case 'test':
        return `[[ ${word(depth)} ${pick(['==', '-lt', '=~', '!=', '-eq'])} ${word(depth)} ]]`;
      case 'negate':
        return `! ${inner()}`;
      case 'pipeline':
        return `${inner()} | ${inner()}`;
      case 'and':
        return `${inner()} && ${inner()}`;
      case 'or':
        return `${inner()} || ${inner()}`;
      case 'assign-then':
        return `${pick(['v', 'n', 'f', 'u'])}=${pick(VALUES)}; ${inner()}`;
      default:
        return `${pick(['v', 'LC_ALL', 'PATH', 'n'])}=${pick(VALUES)} ${simple(depth)}`;
    }
  };
  const awk = (): string => {
    const pieces = [pick(AWK_PIECES), ...(chance(0.4) ? [pick(AWK_PIECES)] : [])];
    for (const piece of pieces) mark(`awk:${piece.slice(0, 14)}`);
    const program = chance(0.5) ? `BEGIN { ${pieces.join('; ')} }` : `{ ${pieces.join('; ')} }`;
    const name = pick(['awk', 'gawk', 'mawk']);
    const option = pick([
      '',
      '-F, ',
      '-v x=1 ',
      ...(name === 'gawk' ? ['-e '] : []),
      ...(name === 'mawk' ? ['-Wsource='] : []),
    ]);
    return option === '-Wsource=' ? `${name} -Wsource='${program}' data.csv` : `${name} ${option}'${program}' data.csv`;
  };
  const jq = (): string => {
    const pieces = [pick(JQ_PIECES), ...(chance(0.3) ? [pick(JQ_PIECES)] : [])];
    for (const piece of pieces) mark(`jq:${piece.slice(0, 14)}`);
    const option = pick(['', '-r ', '-c ', '--rawfile k ~/.ssh/id_rsa ', '-L / ']);
    return `jq ${option}'${pieces.join(' | ')}' package.json`;
  };
  const statement = (depth: number): string => {
    if (depth >= 3) return simple(depth);
    const roll = next();
    if (roll < 0.03) {
      // Where a comment starts: bash and a parser may disagree on what counts as a blank.
      const blank = pick([' ', '\t', '\f', '\v', '\r', '', ';', '\\ ']);
      mark(`comment-after:${JSON.stringify(blank)}`);
      return `${simple(depth)}${blank}#${pick(['$(id)', '`id`', ' touch pwned', '$(touch pwned)'])}`;
    }
    if (roll < 0.08) return awk();
    if (roll < 0.14) return jq();
    if (roll < 0.4) return simple(depth);
    if (roll < 0.55) return builtin();
    return compound(depth);
  };
  const heredoc = (): string => {
    const form = pick(['plain', 'quoted', 'dash', 'split', 'herestring']);
    mark(`heredoc:${form}`);
    const body = pick(['$(id)', '`id`', '$v', '${v@P}', 'plain text', '\\$(id)', '$((v))']);
    switch (form) {
      case 'plain':
        return `cat <<EOF\n${body}\nEOF`;
      case 'quoted':
        return `cat <<'EOF'\n${body}\nEOF`;
      case 'dash':
        return `cat <<-EOF\n\t${body}\n\tEOF`;
      case 'split':
        return `cat <<E\\\nOF\n${body}\nEOF\nE`;
      default:
        return `cat <<< "${body}"`;
    }
  };

  const lines: GeneratedLine[] = [];
  const seen = new Set<string>();
  while (lines.length < count) {
    used = [];
    const setup = chance(0.7) ? `v=${pick(VALUES)}; n=${pick(['3', '7', "'4'"])}; a=(1 2); ` : '';
    const body = chance(0.12) ? heredoc() : statement(0);
    const line = `${setup}${body}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push({ line, constructs: [...new Set(used)] });
  }
  return lines;
}
