import type { Node } from 'web-tree-sitter';
import { NUMBER, readArithmetic } from './arithmetic.js';
import { PLAIN_VARIABLE_NAME, rebindsBehaviour } from './variables.js';
import type { WalkHost as Walk } from './walk-host.js';
import { childrenOf, textOf } from './words.js';

/** The walk's reading of tests and arithmetic, checked by arithmetic.ts. */

export function walkTestPart(walk: Walk, node: Node, doubleBracket: boolean): void {
  if (!node.isNamed) return;
  if (
    node.type === 'binary_expression' ||
    node.type === 'unary_expression' ||
    node.type === 'parenthesized_expression'
  ) {
    const operator =
      node.type === 'binary_expression'
        ? [...childrenOf(node)].find((child) => child.type === 'test_operator')
        : undefined;
    // `[[ a -lt b ]]` evaluates both sides as arithmetic (`[ a -lt b ]` only takes integers).
    const arithmetic =
      doubleBracket && operator !== undefined && /^-(eq|ne|lt|le|gt|ge)$/.test(textOf(operator, walk.source));
    // `[[ -v NAME ]]` and `-R` evaluate an index in NAME: a plain name, or a literal index.
    const first = node.type === 'unary_expression' ? node.child(0) : null;
    const names = first?.type === 'test_operator' && /^-[vR]$/.test(textOf(first, walk.source));
    for (const child of childrenOf(node)) {
      if (names && child.isNamed && child.type !== 'test_operator') {
        const value = walk.word(child).value;
        if (value === undefined || !PLAIN_VARIABLE_NAME.test(value))
          walk.emit({
            kind: 'unknown',
            severity: 'high',
            detail: `${textOf(node, walk.source).slice(0, 40)} evaluates an index in a variable name riskgate cannot read`,
          });
      } else if (arithmetic && child.isNamed && child.type !== 'test_operator') {
        const value = walk.word(child);
        if (value.unknown || value.glob)
          walk.emit({
            kind: 'unknown',
            severity: 'high',
            detail: `[[ ${textOf(node, walk.source).slice(0, 40)} ]] evaluates a value known only at run time as arithmetic`,
          });
        else for (const text of value.texts) checkArithmetic(walk, text, node);
      } else walkTestPart(walk, child, doubleBracket);
    }
  } else if (node.type === 'test_operator') return;
  else walk.word(node);
}

/**
 * `(( … ))`, `$(( … ))`, `for ((…))`: modelled only on literal numbers and variables known to
 * hold numbers (arithmetic.ts); variables read, substitutions run, names assigned hold numbers.
 */
export function walkArithmetic(walk: Walk, node: Node, check = true): void {
  if (check) {
    const text = textOf(node, walk.source);
    const inner = /^(\$\(\(|\(\()([\s\S]*)\)\)$/.exec(text) ?? /^(\$\[)([\s\S]*)\]$/.exec(text);
    checkArithmetic(walk, inner === null ? text : inner[2]!, node);
  }
  for (const child of childrenOf(node)) {
    if (!child.isNamed) continue;
    if (child.type === 'variable_name') {
      const name = textOf(child, walk.source);
      if (walk.variable(name) === undefined) walk.readEnvironment(name, textOf(node, walk.source).slice(0, 60));
    } else if (
      child.type === 'command_substitution' ||
      child.type === 'expansion' ||
      child.type === 'simple_expansion' ||
      child.type === 'string' ||
      child.type === 'raw_string'
    ) {
      walk.word(child);
    } else walkArithmetic(walk, child, false);
  }
}

/** One arithmetic expression's text: unknown unless fully modelled; assigned names then hold numbers. */
export function checkArithmetic(walk: Walk, text: string, node: Node | string): void {
  const reading = readArithmetic(text, walk);
  if (reading.problem !== undefined) {
    walk.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${reading.problem} (in ${(typeof node === 'string' ? node : textOf(node, walk.source)).slice(0, 40)})`,
    });
  }
  for (const name of reading.assigned) {
    rebindsBehaviour(walk, name, 'arithmetic');
    walk.scope.vars.set(name, NUMBER);
  }
}
