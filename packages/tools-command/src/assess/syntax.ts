// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows describe bash, whose ${…} are bash expansions
import type { Node } from 'web-tree-sitter';

/**
 * The bash the walk models completely, as data. The walk reads a line by its tree-sitter
 * tree; where bash and that tree disagree, or bash does more than the walk follows (prompt
 * expansion, indirection, arithmetic on run-time values), a harmless-looking line could run
 * anything. So syntax is allowlisted, not denylisted: a node type, a parameter-expansion
 * form or a leaf text not described here makes the line `unknown` (never whitelisted; the
 * sandbox still bounds whatever runs). Each row says why the walk models the construct fully.
 */
export const NODE_TYPES: ReadonlyMap<string, string> = new Map([
  ['program', 'the line: its statements walked in order'],
  ['list', '`a && b`, `a || b`, `a; b`: every part walked (over-approximates which parts run)'],
  ['pipeline', 'every part walked in a subshell of its own, the previous part its producer'],
  ['redirected_statement', 'the statement walked, each redirection judged as a read or write'],
  ['command', 'a simple command: its words evaluated, its name looked up in one table'],
  ['command_name', 'the first word of a simple command'],
  ['word', 'an unquoted word: backslash escapes applied, braces and ~ expanded, globs marked'],
  ['number', 'a word of digits: the same as a word'],
  ['string', '"…": its parts evaluated, nothing split or globbed'],
  ['string_content', 'literal text inside "…" (\\$ \\` \\" \\\\ and line continuations applied)'],
  ['raw_string', "'…': literal"],
  ['ansi_c_string', "$'…': decoded as bash decodes it (\\x, \\u, octal, \\c)"],
  ['concatenation', 'adjacent parts of one word, every combination kept'],
  ['simple_expansion', '$NAME: the variable read (set on the line, special, or from the environment)'],
  ['expansion', '${…}: only the forms in EXPANSION_FORMS below'],
  ['variable_name', 'a variable name'],
  ['special_variable_name', '$@ $* $# $? $$ $! $- $0…: set by bash itself'],
  ['subscript', 'name[index]: the index must be a literal (see arithmetic in walk.ts)'],
  ['command_substitution', '$(…) and `…`: walked as a nested line; its output is known only at run time'],
  ['process_substitution', '<(…) and >(…): walked as a nested line; the word is a pipe'],
  ['arithmetic_expansion', '$((…)): allowed only on literal numbers and variables known to hold numbers'],
  ['variable_assignment', 'NAME=value: the value evaluated and tracked; names that change what runs are effects'],
  ['variable_assignments', 'several NAME=value'],
  ['array', '(a b c): every element evaluated; `[i]=v` elements need a literal index'],
  ['declaration_command', 'declare/local/export/readonly/typeset: options read by builtins.ts'],
  ['unset_command', 'unset: names read by builtins.ts'],
  ['test_command', '[[ … ]] and [ … ]: operands evaluated; arithmetic operators need literal numbers'],
  ['binary_expression', 'an operator between two operands (tests, arithmetic)'],
  ['unary_expression', 'an operator before an operand (tests, arithmetic)'],
  ['parenthesized_expression', '( … ) in a test or arithmetic'],
  ['ternary_expression', 'a ? b : c in arithmetic'],
  ['postfix_expression', 'i++ / i-- in arithmetic'],
  ['test_operator', '-f, -lt, … inside a test'],
  ['regex', 'a pattern ([[ =~ ]], ${x#…}): matched, never run'],
  ['extglob_pattern', 'a case or [[ ]] pattern: matched, never run'],
  ['brace_expression', '{1..3}: expanded by words.ts'],
  [
    'file_redirect',
    '<, >, >>, &>, <>, >&, >|: a read or write of the named file (fd duplication only with literal numbers)',
  ],
  ['file_descriptor', 'the number before a redirection'],
  ['heredoc_redirect', '<<WORD: the body evaluated as a double-quoted word unless the delimiter is quoted'],
  ['heredoc_start', 'the here-document delimiter (checked against its end)'],
  ['heredoc_body', 'the here-document text'],
  ['heredoc_content', 'literal text of a here-document'],
  ['heredoc_end', 'the here-document delimiter line'],
  ['herestring_redirect', '<<< word: the word evaluated'],
  ['if_statement', 'every branch walked'],
  ['elif_clause', 'every branch walked'],
  ['else_clause', 'every branch walked'],
  ['for_statement', 'for NAME in words: the values tracked; loops walked with variables they change forgotten'],
  ['c_style_for_statement', 'for ((…)): arithmetic as for $((…)); runs until stopped (an unbounded effect)'],
  ['while_statement', 'while/until: condition and body walked with variables they change forgotten'],
  ['do_group', 'do … done: the loop body'],
  ['case_statement', 'every item walked'],
  ['case_item', 'patterns matched, body walked'],
  ['function_definition', 'the body judged where defined, with no variable trusted; calls forget what it sets'],
  ['compound_statement', '{ …; } walked in place; (( … )) is arithmetic'],
  ['subshell', '( … ): walked in a copy of the scope'],
  ['negated_command', '! cmd: the command walked'],
  ['comment', 'ignored by bash'],
]);

/**
 * The `${…}` forms the walk models, by operator (the text between the name and the operand).
 * Operands: `word` is evaluated as a word (its substitutions walked); `pattern` is a glob or
 * literal matched against the value; `literal` must hold no expansion at all; `number` must be
 * a literal integer (bash evaluates it as arithmetic, so a name there would evaluate a value).
 */
type Operand = 'none' | 'word' | 'pattern' | 'literal' | 'number';
export const EXPANSION_FORMS: ReadonlyMap<string, { readonly operand: Operand; readonly why: string }> = new Map([
  ['', { operand: 'none', why: '${x}: the value' }],
  ['-', { operand: 'word', why: '${x-w}: the value or the word, evaluated' }],
  [':-', { operand: 'word', why: '${x:-w}: the value or the word, evaluated' }],
  ['+', { operand: 'word', why: '${x+w}: the word or nothing' }],
  [':+', { operand: 'word', why: '${x:+w}: the word or nothing' }],
  ['?', { operand: 'word', why: '${x?w}: the value, or an error with the word' }],
  [':?', { operand: 'word', why: '${x:?w}: the value, or an error with the word' }],
  ['#', { operand: 'pattern', why: '${x#p}: the value less a prefix' }],
  ['##', { operand: 'pattern', why: '${x##p}: the value less a prefix' }],
  ['%', { operand: 'pattern', why: '${x%p}: the value less a suffix' }],
  ['%%', { operand: 'pattern', why: '${x%%p}: the value less a suffix' }],
  ['/', { operand: 'literal', why: '${x/p/r}: replacement with literal parts' }],
  ['//', { operand: 'literal', why: '${x//p/r}: replacement with literal parts' }],
  ['/#', { operand: 'literal', why: '${x/#p/r}: replacement with literal parts' }],
  ['/%', { operand: 'literal', why: '${x/%p/r}: replacement with literal parts' }],
  ['^', { operand: 'literal', why: '${x^}: case changed' }],
  ['^^', { operand: 'literal', why: '${x^^}: case changed' }],
  [',', { operand: 'literal', why: '${x,}: case changed' }],
  [',,', { operand: 'literal', why: '${x,,}: case changed' }],
  [':', { operand: 'number', why: '${x:offset:length}: a substring at literal positions' }],
]);
// Not listed, so unknown: `${x@P}` (prompt expansion runs $(…) stored in the value), `@E @Q @A @a
// @K @U @u @L`, `${!x}` and `${!prefix*}` (indirection), `${x=w}`/`${x:=w}` (assignment), and
// any form whose parts the parser could not place.

/** Subscripts the walk models: literal numbers, `@` and `*` (anything else is arithmetic on names). */
export const LITERAL_SUBSCRIPT = /^(-?[0-9]+|@|\*)$/;

/**
 * Leaf text that holds a substitution the parser did not turn into a node: bash would run it
 * (`${v-`id`}` leaves the backquotes in a word; `[[ x =~ <(id) ]]` leaves a process
 * substitution in the regex, which bash runs — found by the differential test).
 */
const HIDDEN_SUBSTITUTION = /`|\$\(|\$\[|\$\{|<\(|>\(/;
const LEAVES = new Set([
  'word',
  'string_content',
  'heredoc_content',
  'regex',
  'extglob_pattern',
  'number',
  'raw_string',
  'ansi_c_string',
]);
/** Leaves whose text bash takes literally, unless they sit inside a backquote substitution. */
const LITERAL_LEAVES = new Set(['raw_string', 'ansi_c_string']);

/**
 * Every construct of the tree the walk does not model completely, as the reasons the line is
 * unknown (empty when it models all of it).
 */
export function syntaxProblems(root: Node, source: string): string[] {
  const problems: string[] = [];
  const add = (node: Node, what: string) => {
    if (problems.length < 8) problems.push(`${what}: "${source.slice(node.startIndex, node.endIndex).slice(0, 40)}"`);
  };
  const visit = (node: Node, inBackquotes: boolean, quotedHeredoc: boolean): void => {
    if (node.isMissing) {
      add(node, 'the command is incomplete');
      return;
    }
    if (node.isNamed && !NODE_TYPES.has(node.type)) {
      add(node, 'uses shell syntax riskgate does not model');
      return;
    }
    if (!node.isNamed && node.type === 'select') add(node, 'select reads a choice from input into a variable');
    // `$"…"` is looked up in a message catalog (TEXTDOMAIN, TEXTDOMAINDIR) and the translation expanded.
    if (
      !node.isNamed &&
      node.type === '$' &&
      node.nextSibling?.type === 'string' &&
      node.parent?.type !== 'simple_expansion'
    ) {
      add(node, 'a $"…" string, which bash translates and then expands');
    }
    const text = source.slice(node.startIndex, node.endIndex);
    if (!node.isNamed && text.includes('`') && !(node.type === '`' && node.parent?.type === 'command_substitution')) {
      // `` `a` `b` `` parses as one substitution holding a "` `" token: the second never gets walked.
      add(node, 'backquotes the parser did not pair the way bash does');
    }
    if (LEAVES.has(node.type) && node.namedChildCount > 0) {
      // `3#$(cmd)`: the parser reads a number (base#digits) with a substitution inside, which the walk takes as text.
      add(node, 'a number or word with a substitution inside it');
    }
    if (LEAVES.has(node.type) && node.childCount === 0) {
      const literal = LITERAL_LEAVES.has(node.type) || (node.type === 'heredoc_content' && quotedHeredoc);
      // Outside backquotes an escaped `\$` or `` \` `` is literal (`echo "\$(id)"` prints it).
      const unescaped = literal || inBackquotes ? text : text.replace(/\\[\s\S]/g, '');
      if ((!literal || inBackquotes) && HIDDEN_SUBSTITUTION.test(unescaped))
        add(node, 'holds a substitution the parser did not read');
      if (inBackquotes && text.includes('\\')) add(node, 'escapes inside backquotes, which bash reads twice');
    }
    if (node.type === 'comment' && !startsComment(source, node.startIndex)) {
      // `a\ #$(cmd)`, `[ -n ]#$(cmd)`: to bash the `#` continues a word, which it runs; the parser saw a comment.
      add(node, 'a "#" that bash does not read as the start of a comment');
    }
    if (node.type === 'test_command' && node.child(0)?.type === '[' && bracketOperators(node)) {
      // `[` is a plain command to bash: `[ a > b ]` writes the file b, `[ x <(cmd) ]` runs cmd,
      // where the parser read a comparison and a group.
      add(node, 'a [ ] test whose < > ( ) bash reads as redirections and substitutions');
    }
    if (node.type === 'expansion') expansionProblem(node, source, add);
    else if (node.type === 'subscript') subscriptProblem(node, source, add);
    else if (node.type === 'array') arrayProblem(node, source, add);
    if (node.type === 'heredoc_redirect') heredocProblem(node, source, add);
    const backquotes = inBackquotes || (node.type === 'command_substitution' && text.startsWith('`'));
    const quoted = node.type === 'heredoc_redirect' ? /['"\\]/.test(startOf(node, source)) : quotedHeredoc;
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (child !== null) visit(child, backquotes, quoted);
    }
  };
  // The parser takes form feeds, vertical tabs and carriage returns for blanks; bash takes them
  // for word characters, so `echo a\f#$(cmd)` is a comment to one and a command to the other.
  const control = /[\x00-\x08\x0b-\x1f\x7f]/.exec(source);
  if (control !== null)
    problems.push(
      `holds a control character (code ${control[0].charCodeAt(0)}) that bash and riskgate's parser read differently`,
    );
  visit(root, false, false);
  return problems;
}

const BRACKET_OPERATORS = new Set(['<', '>', '(', ')', '>>', '<<', '&>', '>&', '<&', '>|', '<>', '&>>']);

/** An unquoted redirection or parenthesis token inside `[ … ]` (outside nested substitutions). */
function bracketOperators(node: Node): boolean {
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index)!;
    if (!child.isNamed && BRACKET_OPERATORS.has(child.type)) return true;
    if (child.isNamed && !/substitution|string|expansion/.test(child.type) && bracketOperators(child)) return true;
  }
  return false;
}

/** Bash starts a comment only at a word's start: after an unescaped blank or operator character. */
function startsComment(source: string, index: number): boolean {
  if (index === 0) return true;
  if (!/[ \t\n;&|()<>]/.test(source[index - 1]!)) return false;
  let backslashes = 0;
  for (let cursor = index - 2; cursor >= 0 && source[cursor] === '\\'; cursor--) backslashes++;
  return backslashes % 2 === 0;
}

function startOf(redirect: Node, source: string): string {
  for (let index = 0; index < redirect.childCount; index++) {
    const child = redirect.child(index);
    if (child?.type === 'heredoc_start') return source.slice(child.startIndex, child.endIndex);
  }
  return '';
}

/** A delimiter the parser and bash agree on: plain characters, whole-quoted or escaped, ending the body. */
function heredocProblem(node: Node, source: string, add: (node: Node, what: string) => void): void {
  const start = startOf(node, source);
  const plain = /^(?:[A-Za-z0-9_.-]+|'[A-Za-z0-9_.-]+'|"[A-Za-z0-9_.-]+"|\\[A-Za-z0-9_.-]+)$/;
  if (!plain.test(start)) add(node, 'a here-document delimiter riskgate does not read the way bash does');
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (
      child?.type === 'heredoc_end' &&
      source.slice(child.startIndex, child.endIndex) !== start.replace(/['"\\]/g, '')
    ) {
      add(node, 'a here-document whose end riskgate does not place the way bash does');
    }
  }
}

function expansionProblem(node: Node, source: string, add: (node: Node, what: string) => void): void {
  const text = source.slice(node.startIndex, node.endIndex);
  if (!text.startsWith('${')) return;
  let named = false;
  let operator = '';
  const operands: Node[] = [];
  const tokens: string[] = [];
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index)!;
    if (child.type === '${' || child.type === '}') continue;
    if (
      !named &&
      (child.type === 'variable_name' || child.type === 'special_variable_name' || child.type === 'subscript')
    ) {
      named = true;
      continue;
    }
    if (!named) {
      // Before the name only `#` (length) is modelled; `!` is indirection.
      if (child.type !== '#') {
        add(node, 'an expansion form riskgate does not model');
        return;
      }
      continue;
    }
    if (!child.isNamed) {
      if (operands.length === 0) operator += child.type;
      else tokens.push(child.type);
    } else operands.push(child);
  }
  const form = EXPANSION_FORMS.get(operator);
  if (!named || form === undefined) {
    add(node, 'an expansion form riskgate does not model');
    return;
  }
  if (form.operand === 'none' && (operands.length > 0 || tokens.length > 0)) {
    add(node, 'an expansion form riskgate does not model');
    return;
  }
  // `${x/p/r}` has one `/` between its parts; `${x:o:l}` one `:`.
  const separator =
    form.operand === 'number' ? ':' : form.operand === 'literal' && operator.startsWith('/') ? '/' : undefined;
  if (tokens.some((token) => token !== separator) || tokens.length > 1) {
    add(node, 'an expansion form riskgate does not model');
    return;
  }
  for (const operand of operands) {
    const value = source.slice(operand.startIndex, operand.endIndex);
    if (form.operand === 'number' && !/^ *-?[0-9]+$/.test(value))
      add(operand, 'a substring position bash evaluates as arithmetic');
    if (form.operand === 'literal' && /[$`]/.test(value))
      add(operand, 'an expansion with a part known only at run time');
  }
}

function subscriptProblem(node: Node, source: string, add: (node: Node, what: string) => void): void {
  const index = node.childForFieldName('index');
  const text = index === null ? '' : source.slice(index.startIndex, index.endIndex);
  if (!LITERAL_SUBSCRIPT.test(text)) add(node, 'an array index bash evaluates as arithmetic');
}

/** `(a [1]=b)`: an element with an index; bash evaluates the index as arithmetic. */
function arrayProblem(node: Node, source: string, add: (node: Node, what: string) => void): void {
  for (let index = 0; index < node.namedChildCount; index++) {
    const child = node.namedChild(index)!;
    const text = source.slice(child.startIndex, child.endIndex);
    if (text.startsWith('[') && !/^\[-?[0-9]+\]\+?=/.test(text))
      add(child, 'an array index bash evaluates as arithmetic');
  }
}
