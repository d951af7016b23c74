import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Effect } from '@riskgate/risk';
import type { Node } from 'web-tree-sitter';
import { NUMBER } from './arithmetic.js';
import { checkArithmetic, walkArithmetic, walkTestPart } from './arithmetic-walk.js';
import { forgetAssigned, forgetAssignedBy } from './loops.js';
import { type Producer, producerOf } from './producers.js';
import { redirectEffects } from './redirects.js';
import { judgeSimpleCommand, runWords } from './simple-command.js';
import { syntaxProblems } from './syntax.js';
import { assignmentEffect, rebindsBehaviour } from './variables.js';
import type { Scope, WalkHost, WalkOptions } from './walk-host.js';
import { childrenOf, evaluateWord, textOf, UNKNOWN, type WordValue } from './words.js';

export type { Scope, WalkOptions } from './walk-host.js';

export const MAX_DEPTH = 4;
/** Subshells, substitutions and pipelines inside each other. */
export const MAX_NESTING = 200;

/** The walk of one bash line: every node visited, every word evaluated, effects collected. */
export class Walk implements WalkHost {
  readonly effects: Effect[] = [];
  readonly subjects: string[] = [];
  /** The previous command of the pipeline being walked: where its output's file names lie. */
  get producer(): Producer | undefined {
    // Worked out only when asked (xargs): a 1,250-part pipeline asks once, not 1,250 times.
    const source = this.producerSource;
    return source === undefined ? undefined : producerOf(source.node, this.source, source.cwd);
  }
  private producerSource: { readonly node: Node; readonly cwd: string | undefined } | undefined;
  private nesting = 0;
  private checkMissing = false;
  private tooDeep = false;

  constructor(
    readonly source: string,
    readonly options: WalkOptions,
    public scope: Scope,
    readonly depth: number,
  ) {}

  get home(): string {
    return this.options.home;
  }

  emit(effect: Effect): void {
    this.effects.push(effect);
  }

  // --- WordHost

  walkNested(node: Node): void {
    this.inSubshell(() => {
      if (node.type === 'arithmetic_expansion') walkArithmetic(this, node);
      else for (const child of childrenOf(node)) this.visit(child);
    });
  }

  variable(name: string): readonly string[] | null | undefined {
    const set = this.scope.vars.get(name);
    if (set !== undefined) return set;
    return this.scope.opaque && name !== 'HOME' ? null : undefined;
  }

  readEnvironment(name: string | 'all', via: string): void {
    this.emit({ kind: 'read-env', names: name === 'all' ? 'all' : [name], via });
  }

  // --- words

  /** Evaluate a word, and run what bash would evaluate inside it (array subscripts). */
  word(node: Node): WordValue {
    const value = evaluateWord(node, this);
    for (const text of value.texts) this.subscripts(text, value.raw);
    return value;
  }

  /**
   * Bash evaluates array subscripts wherever it takes a variable name or an arithmetic
   * operand (`printf -v 'a[$(cmd)]'`, `test -v`, `[[ x -lt 'a[$(cmd)]' ]]`, `$((x))`): any
   * `[…$(…)…]` or `` […`…`…] `` in a word's value is judged as the command it would run.
   */
  subscripts(text: string, raw: string): void {
    if (!/\[[^\]]*(\$\(|`)/.test(text)) return;
    let found = false;
    for (const match of text.matchAll(/\$\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)|`([^`]*)`/g)) {
      found = true;
      // A command hidden in a subscript bash evaluates is an injection, not everyday use: a program run.
      this.emit({
        kind: 'run-program',
        program: `"${(match[1] ?? match[2] ?? '').slice(0, 60)}"`,
        via: `the array subscript in ${raw}`,
      });
      this.script(match[1] ?? match[2] ?? '', `the array subscript in ${raw}`);
    }
    if (!found)
      this.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `bash may run a command from the array subscript in ${raw}`,
      });
  }

  // --- nested scripts

  /** Judge a script as its own line (sh -c, eval, an array subscript); its subjects count too. */
  script(text: string | undefined, via: string): void {
    if (text === undefined) {
      this.emit({ kind: 'run-program', program: 'a script known only at run time', via, severity: 'high' });
      return;
    }
    if (this.depth >= MAX_DEPTH) {
      this.emit({ kind: 'unknown', severity: 'high', detail: 'scripts nested too deep to check', via });
      return;
    }
    const tree = this.options.parser.parse(text);
    if (tree === null) throw new Error('the bash parser returned no tree');
    try {
      const inner = new Walk(text, this.options, copyScope(this.scope), this.depth + 1);
      inner.walkRoot(tree.rootNode);
      this.effects.push(...inner.effects);
      this.subjects.push(...inner.subjects);
    } finally {
      tree.delete();
    }
  }

  /**
   * Run a command given as words (a wrapper's program, `builtin`, `exec`, find -exec): judged as
   * a simple command. On the walk, so the tables that run commands need no import of the judge
   * that looks them up (simple-command.ts), which would close a cycle.
   */
  runWords(words: readonly WordValue[], via: string | undefined): void {
    runWords(this, words, via);
  }

  walkRoot(root: Node): void {
    this.checkMissing = root.hasError;
    if (root.hasError)
      this.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `the command does not parse as bash${this.depth > 0 ? ' (inside a nested script)' : ''}`,
      });
    // Syntax is allowlisted (syntax.ts): whatever the walk does not model completely is unknown.
    for (const problem of syntaxProblems(root, this.source))
      this.emit({ kind: 'unknown', severity: 'high', detail: problem });
    this.visit(root);
  }

  inSubshell(action: () => void): void {
    // Bash nests without limit; the walk stops at a depth no real line reaches (and the stack can hold).
    if (this.nesting >= MAX_NESTING) {
      if (!this.tooDeep)
        this.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `the line nests subshells and substitutions more than ${MAX_NESTING} deep`,
        });
      this.tooDeep = true;
      return;
    }
    this.nesting++;
    const saved = this.scope;
    const producer = this.producerSource;
    this.scope = copyScope(saved);
    this.producerSource = undefined;
    try {
      action();
    } finally {
      this.scope = saved;
      this.producerSource = producer;
      this.nesting--;
    }
  }

  // --- the tree

  visit(node: Node): void {
    // Missing nodes exist only in a tree whose root reports an error: each check is a WASM call.
    if (this.checkMissing && node.isMissing) {
      this.emit({ kind: 'unknown', severity: 'high', detail: 'the command is incomplete' });
      return;
    }
    switch (node.type) {
      case 'program':
      case 'list':
      case 'do_group':
      case 'else_clause':
      case 'elif_clause':
      case 'negated_command':
      case 'if_statement':
        for (const child of childrenOf(node)) this.visit(child);
        return;
      case 'compound_statement':
        if (node.child(0)?.type === '((') walkArithmetic(this, node);
        else for (const child of childrenOf(node)) this.visit(child);
        return;
      case 'subshell':
        this.inSubshell(() => {
          for (const child of childrenOf(node)) this.visit(child);
        });
        return;
      case 'pipeline':
        this.pipeline(node);
        return;
      case 'redirected_statement':
        this.redirectedStatement(node);
        return;
      case 'command':
        judgeSimpleCommand(this, node, []);
        return;
      case 'variable_assignment':
        this.assign(node);
        return;
      case 'variable_assignments':
        for (const child of childrenOf(node)) if (child.type === 'variable_assignment') this.assign(child);
        return;
      case 'declaration_command':
      case 'unset_command':
        judgeSimpleCommand(this, node, []);
        return;
      case 'test_command': {
        const doubleBracket = node.child(0)?.type === '[[';
        for (const child of childrenOf(node)) walkTestPart(this, child, doubleBracket);
        return;
      }
      case 'for_statement':
        this.forStatement(node);
        return;
      case 'while_statement':
        this.whileStatement(node);
        return;
      case 'c_style_for_statement':
        this.countingLoop(node);
        return;
      case 'case_statement':
      case 'case_item':
        this.caseStatement(node);
        return;
      case 'function_definition':
        this.functionDefinition(node);
        return;
      case 'comment':
      case 'heredoc_body':
        return;
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        this.redirect(node);
        return;
      default:
        this.unreadNode(node);
    }
  }

  /** `for ((…; …; …))`: may never end; its arithmetic runs, its body is walked. */
  private countingLoop(node: Node): void {
    this.emit({ kind: 'unbounded', resource: 'time', detail: 'a counting loop may run until it is stopped' });
    const parts = [...childrenOf(node)];
    const open = parts.find((child) => child.type === '((');
    const close = parts.find((child) => child.type === '))');
    if (open !== undefined && close !== undefined)
      checkArithmetic(this, this.source.slice(open.endIndex, close.startIndex), node);
    forgetAssigned(this, node);
    for (const child of parts) {
      if (child.type === 'do_group' || child.type === 'compound_statement') this.visit(child);
      else if (child.isNamed) walkArithmetic(this, child, false);
    }
  }

  /** `case WORD in …`: the word is expanded, each item's commands walked (its patterns only match). */
  private caseStatement(node: Node): void {
    for (const child of childrenOf(node)) {
      if (child.type === 'case_item') this.visit(child);
      else if (node.type === 'case_statement' && child.isNamed) this.word(child);
      else if (child.isNamed && child.type !== 'word' && child.type !== 'extglob_pattern') this.visit(child);
    }
  }

  /** Nodes with no reading of their own: a background job, a parse error, syntax the walk does not model. */
  private unreadNode(node: Node): void {
    if (node.type === '&') {
      // A background job outlives the call: nothing waits for it or stops it (nohup ./server &, fork bombs).
      this.emit({
        kind: 'unbounded',
        resource: 'time',
        detail: 'runs a command in the background, where it outlives the call',
      });
    } else if (node.type === 'ERROR') {
      this.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `the command does not parse as bash near "${textOf(node, this.source).slice(0, 40)}"`,
      });
    } else if (node.isNamed) {
      // A construct the walk does not read (the person never sees parser names).
      this.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `uses shell syntax riskgate does not read: "${textOf(node, this.source).slice(0, 40)}"`,
      });
    }
  }

  private pipeline(node: Node): void {
    let previous: { readonly node: Node; readonly cwd: string | undefined } | undefined;
    for (const child of childrenOf(node)) {
      if (!child.isNamed) continue;
      // Every part of a pipeline runs in a subshell of its own; it reads the previous part's output.
      this.inSubshell(() => {
        this.producerSource = previous;
        this.visit(child);
      });
      previous = { node: child, cwd: this.scope.cwd };
    }
  }

  private redirectedStatement(node: Node): void {
    const body = node.childForFieldName('body');
    const redirects: Node[] = [];
    for (const child of childrenOf(node)) if (child.id !== body?.id && child.isNamed) redirects.push(child);
    // Words after a redirection are still arguments: `git 2>/dev/null push --force`.
    const mark = this.subjects.length;
    const extra = redirects.flatMap((redirect) => this.redirect(redirect));
    const redirectSubjects = this.subjects.splice(mark);
    if (body !== null) {
      if (body.type === 'command') judgeSimpleCommand(this, body, extra);
      else {
        if (extra.length > 0)
          this.emit({
            kind: 'unknown',
            severity: 'high',
            detail: `words after a redirection that riskgate cannot place: ${extra.map((word) => word.raw).join(' ')}`,
          });
        this.visit(body);
      }
    }
    this.subjects.push(...redirectSubjects);
  }

  /** A redirection: its effects; returns the words that follow it and belong to the command. */
  redirect(node: Node): WordValue[] {
    return redirectEffects(this, node);
  }

  private assign(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    const name = nameNode === null ? '' : textOf(nameNode, this.source);
    if (nameNode !== null && nameNode.type === 'subscript') this.word(nameNode);
    const appends = textOf(node, this.source).startsWith(`${name}+=`);
    let values: readonly string[] | null = [''];
    if (value !== null) {
      if (value.type === 'arithmetic_expansion') {
        this.word(value);
        values = NUMBER;
      } else if (value.type === 'array') {
        for (const element of childrenOf(value)) if (element.isNamed) this.word(element);
        values = null;
      } else {
        const word = this.word(value);
        values = word.unknown || word.glob ? null : word.texts;
      }
    }
    const bare = nameNode?.type === 'subscript' ? undefined : name;
    if (bare !== undefined) this.scope.vars.set(bare, appends ? null : values);
    const effect = assignmentEffect(bare ?? name, textOf(node, this.source));
    if (effect !== undefined) this.emit(effect);
  }

  private forStatement(node: Node): void {
    const variable = node.childForFieldName('variable');
    const values: string[] = [];
    let known = true;
    let hasIn = false;
    for (const child of childrenOf(node)) {
      if (child.type === 'in') hasIn = true;
      if (
        child.id === variable?.id ||
        !child.isNamed ||
        child.type === 'do_group' ||
        child.type === 'compound_statement'
      )
        continue;
      const word = this.word(child);
      if (word.unknown) known = false;
      values.push(...word.texts);
    }
    forgetAssigned(this, node);
    if (variable !== null) {
      rebindsBehaviour(this, textOf(variable, this.source), 'for');
      this.scope.vars.set(textOf(variable, this.source), hasIn && known ? values : null);
    }
    const body = node.childForFieldName('body');
    if (body !== null) this.visit(body);
  }

  /**
   * `while read …` ends with its input; any other while/until loop may run until the timeout
   * (`while true; do …; done`).
   */
  private whileStatement(node: Node): void {
    const condition = node.childForFieldName('condition');
    const conditionText = condition === null ? '' : textOf(condition, this.source).trim();
    if (!/^((\w+=\S*\s+)*(read|mapfile|readarray)\b)/.test(conditionText)) {
      this.emit({
        kind: 'unbounded',
        resource: 'time',
        detail: `the loop "${textOf(node, this.source).slice(0, 40)}" may run until it is stopped`,
      });
    }
    forgetAssigned(this, node);
    for (const child of childrenOf(node)) this.visit(child);
  }

  private functionDefinition(node: Node): void {
    const name = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    // Sure to have run before a later call only as a top-level statement of the line itself.
    const certain = this.depth === 0 && this.nesting === 0 && node.parent?.type === 'program';
    if (name !== null)
      this.scope.functions.set(textOf(name, this.source), {
        text: body === null ? '' : textOf(body, this.source),
        certain,
        cwd: this.scope.cwd,
      });
    if (body === null) return;
    // The body runs when called, with arguments and variables the line may set later: no value is trusted.
    const saved = this.scope;
    const vars = new Map<string, readonly string[] | null>();
    for (const key of saved.vars.keys()) vars.set(key, null);
    this.scope = { ...copyScope(saved), vars, opaque: true };
    try {
      this.visit(body);
    } finally {
      this.scope = { ...saved, functions: new Map([...saved.functions, ...this.scope.functions]) };
    }
  }

  /**
   * A call of a function the line defined: its body was judged where defined; the variables it
   * may set are forgotten. Returns false when the definition may not have run (`false && f(){ :; }`),
   * so the name must be judged as the command it would otherwise be.
   */
  callFunction(name: string): boolean {
    const definition = this.scope.functions.get(name);
    if (definition === undefined) return false;
    // The body's relative paths were judged in the directory where it was defined; called after a
    // `cd` elsewhere (`f() { cat .msmtprc; }; cd ~; f`) they name other files.
    if (definition.cwd !== this.scope.cwd) {
      this.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `calls ${name} in another directory than the one its body was judged in`,
        via: name,
      });
    }
    forgetAssignedBy(this, definition.text);
    return definition.certain;
  }

  /** A directory relative paths resolve against, or undefined. */
  resolvePath(text: string): string | undefined {
    if (text.includes(UNKNOWN)) return undefined;
    if (text.startsWith('/')) return physicalDots(text);
    return this.scope.cwd === undefined ? undefined : physicalDots(`${this.scope.cwd}/${text}`);
  }
}

/**
 * A path as the kernel reads it: `..` goes up from where the path so far really is, so after a
 * symbolic link to a directory it leaves the link's target, not the directory holding the link
 * (`links/keys/../.netrc` is `~/.netrc` when links/keys is `~/.ssh`). A textual resolution
 * would judge another file. Without `..` the two agree (the judge follows links itself).
 */
export function physicalDots(path: string): string {
  if (!/(^|\/)\.\.(\/|$)/.test(path)) return resolve(path);
  let current = '/';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      let real = current;
      try {
        real = realpathSync(current);
      } catch {
        // Not there (yet): textual.
      }
      current = dirname(real);
    } else current = join(current, segment);
  }
  return current;
}

export function copyScope(scope: Scope): Scope {
  return { cwd: scope.cwd, vars: new Map(scope.vars), functions: new Map(scope.functions), opaque: scope.opaque };
}
