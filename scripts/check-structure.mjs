#!/usr/bin/env node
// The structure CONVENTIONS.md asks for, checked on every lint: no function over 80 lines and no
// import circle (type imports included) in the source of the packages and the CLI. Tests,
// benches and scripts are not checked. Run: node scripts/check-structure.mjs [--max-lines N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const flag = process.argv.indexOf('--max-lines');
const maxLines = flag === -1 ? 80 : Number(process.argv[flag + 1]);

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /^(packages|apps)\/[^/]+\/src\//.test(file) && !file.endsWith('.d.ts'));

const problems = [];
const imports = new Map();

for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const targets = new Set();
  const visit = (node) => {
    if (isFunction(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > maxLines)
        problems.push(`${file}:${first + 1}: ${nameOf(node)} is ${last - first + 1} lines (at most ${maxLines})`);
    }
    // Static imports and exports, and `import('./x.js')` loaded on first use: a circle either way.
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] !== undefined &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier?.startsWith('.')) targets.add(join(dirname(file), specifier.replace(/\.js$/, '')));
    ts.forEachChild(node, visit);
  };
  visit(source);
  imports.set(file.replace(/\.tsx?$/, ''), targets);
}

for (const circle of circles(imports)) problems.push(`import circle: ${circle.join(' → ')}`);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} structure problem(s): split long functions by meaning; cut circles by moving what both sides need into a module of its own.`,
  );
  process.exit(1);
}
console.log(`structure: ${files.length} source files, no function over ${maxLines} lines, no import circle`);

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node)
  );
}

function nameOf(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return 'a function';
}

/** Strongly connected components of more than one file (Tarjan), each as a list of files. */
function circles(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const connect = (node) => {
    state.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!state.has(next)) {
        connect(next);
        state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
      } else if (state.get(next).onStack) state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
    }
    if (state.get(node).low === state.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!state.has(node)) connect(node);
  return found;
}
