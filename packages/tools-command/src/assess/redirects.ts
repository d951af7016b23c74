import type { Node } from 'web-tree-sitter';
import { pathEffects } from './paths.js';
import type { WalkHost as Walk } from './walk-host.js';
import { childrenOf, textOf, type WordValue } from './words.js';

/** A redirection: its effects; returns the words that follow it and belong to the command. */
export function redirectEffects(walk: Walk, node: Node): WordValue[] {
  if (node.type === 'herestring_redirect' || node.type === 'heredoc_redirect') {
    for (const child of childrenOf(node)) {
      if (child.type === 'heredoc_body') heredocBody(walk, node, child);
      else if (child.type === 'heredoc_start' || child.type === 'heredoc_end' || !child.isNamed) continue;
      else if (node.type === 'herestring_redirect') walk.word(child);
      else walk.visit(child);
    }
    return [];
  }
  const text = textOf(node, walk.source);
  let operator = '';
  const destinations: Node[] = [];
  for (const child of childrenOf(node)) {
    if (child.type === 'file_descriptor') continue;
    if (!child.isNamed) operator ||= child.type;
    else if (child.type === 'ERROR') operator = text.includes('<>') ? '<>' : operator;
    else destinations.push(child);
  }
  const [first, ...rest] = destinations.map((child) => walk.word(child));
  if (first !== undefined) {
    const duplicate =
      (operator === '>&' || operator === '<&') && first.texts.every((value) => /^(\d+-?|-)$/.test(value));
    if (!duplicate) {
      const via = text.slice(0, 60);
      if (operator === '<' || operator === '<&') pathEffects(walk, 'read', first, { via });
      else if (operator === '<>') {
        pathEffects(walk, 'read', first, { via });
        pathEffects(walk, 'write', first, { via });
      } else pathEffects(walk, 'write', first, { via });
      // A write is a rule subject of its own: `allow execute_command(git log *)` does not cover `git log > /etc/passwd`.
      if (operator !== '<' && operator !== '<&' && first.value !== '/dev/null')
        walk.subjects.push(`${operator} ${first.value ?? first.raw}`);
    }
  }
  return rest;
}

/**
 * An unquoted here-document expands `$VAR`, `$(…)` and backticks (the parser leaves
 * backticks in the text); a quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) expands nothing.
 */
function heredocBody(walk: Walk, redirect: Node, body: Node): void {
  const start = [...childrenOf(redirect)].find((child) => child.type === 'heredoc_start');
  if (start !== undefined && /['"\\]/.test(textOf(start, walk.source))) return;
  // The parser leaves backticks in the body's text (with or without content nodes around them).
  // A command substituted into a here-document is a payload's hiding place, not an everyday
  // read: a program run, and the command judged too.
  const substituted = (command: string | undefined) =>
    walk.emit({
      kind: 'run-program',
      program: command === undefined ? 'a command substituted into a here-document' : `"${command.slice(0, 60)}"`,
      via: 'a here-document',
    });
  for (const match of textOf(body, walk.source).matchAll(/(?<!\\)`((?:[^`\\]|\\.)*)`/g)) {
    substituted(match[1]);
    walk.script(match[1], 'a here-document');
  }
  let expansions = 0;
  for (const child of childrenOf(body)) {
    if (!child.isNamed || child.type === 'heredoc_content') continue;
    expansions++;
    if (/\$\(|`/.test(textOf(child, walk.source))) substituted(undefined);
    walk.word(child);
  }
  // The parser reads no expansions in some bodies (`<<-` with tab-indented lines): where the text
  // holds one it did not read, judge the body as bash would expand it, as a double-quoted word.
  const text = textOf(body, walk.source);
  if (expansions === 0 && /\$[({A-Za-z_0-9@*#?$!-]/.test(text)) {
    if (/\$\(/.test(text)) substituted(undefined);
    walk.script(
      `: "${text
        .replace(/^\t+/gm, '')
        .replace(/(["\\])/g, '\\$1')
        .replace(/\\\\\$/g, '\\$')}"`,
      'a here-document',
    );
  }
}
