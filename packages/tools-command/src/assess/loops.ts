import type { Node } from 'web-tree-sitter';
import { isKnownNumber, NUMBER } from './arithmetic.js';
import type { WalkHost as Walk } from './walk-host.js';
import { childrenOf, textOf } from './words.js';

/**
 * The walk visits a loop once, but bash runs it again with the values its body left behind
 * (`x=1; while read l; do echo $((x)); x=$l; done`). Before the loop, every variable the loop
 * may set — its name written bare somewhere in the loop (`x=`, `read x`, `(( x++ ))`, `for x`),
 * as opposed to read as `$x` — is forgotten. A variable that held a number and is only touched
 * by arithmetic keeps holding some number.
 */
export function forgetAssigned(walk: Walk, node: Node): void {
  const text = textOf(node, walk.source);
  const arithmetic = arithmeticRanges(node, walk.source);
  for (const name of [...walk.scope.vars.keys()]) {
    let found = false;
    let numeric = isKnownNumber(walk, name);
    for (const match of text.matchAll(barePattern(name))) {
      found = true;
      const at = node.startIndex + match.index + match[1]!.length;
      if (!arithmetic.some(([start, end]) => at >= start && at < end)) numeric = false;
    }
    if (found) walk.scope.vars.set(name, numeric ? NUMBER : null);
  }
}

/** The variables a call of a function may change: those written bare in its body. */
export function forgetAssignedBy(walk: Walk, body: string): void {
  for (const name of [...walk.scope.vars.keys()]) if (barePattern(name).test(body)) walk.scope.vars.set(name, null);
}

/** `name` not preceded by `$`, `${`, `${#`, `${!` or a word character. */
function barePattern(name: string): RegExp {
  return new RegExp(`(^|[^$\\w{#!])${name.replace(/[^\w]/g, (char) => `\\${char}`)}(?!\\w)`, 'g');
}

/** Source ranges of the loop's arithmetic (`((…))`, `$((…))`, `for ((…))` headers, `let`). */
function arithmeticRanges(node: Node, source: string): (readonly [number, number])[] {
  const ranges: (readonly [number, number])[] = [];
  const visit = (current: Node) => {
    const first = current.child(0);
    if (current.type === 'arithmetic_expansion' || (current.type === 'compound_statement' && first?.type === '((')) {
      ranges.push([current.startIndex, current.endIndex]);
      return;
    }
    if (current.type === 'c_style_for_statement') {
      const body = current.childForFieldName('body');
      ranges.push([current.startIndex, body?.startIndex ?? current.endIndex]);
    }
    if (current.type === 'command' && /^let\b/.test(textOf(current, source))) {
      ranges.push([current.startIndex, current.endIndex]);
      return;
    }
    for (const child of childrenOf(current)) visit(child);
  };
  visit(node);
  return ranges;
}
