// biome-ignore-all lint/suspicious/noTemplateCurlyInString: rows are bash command lines, whose ${…} are bash expansions
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox, runCommand } from '../src/index.js';
import { TRICKY_LINES } from './differential/tricky-lines.js';
import { createGateFixture, gate } from './gate-fixture.js';

/**
 * Syntax the walker does not model completely is unknown, so never whitelisted: every class of
 * issue 18's list (prompt expansion, backquotes in ${v-…}, nested escaped backquotes, arithmetic
 * on run-time values, mapfile -C, compgen -W, split here-document delimiters, PATH bound by
 * for/read/select/printf -v/declare -n/unset, awk and jq programs that reach outside) in many
 * spellings. Each row is judged without the sandbox (it must be asked, also when the model says
 * low in guarded mode), and run the way an unasked call runs — in the sandbox — with its
 * payload turned into a write, which must not happen.
 */
const fixture = createGateFixture();
afterAll(() => fixture.cleanup());

const rows = Object.entries(TRICKY_LINES).flatMap(([kind, lines]) => lines.map((line) => [kind, line] as const));

/** Spellings beyond the collected lines: the same classes, other quoting and places. */
const MORE: readonly (readonly [string, string])[] = [
  ['prompt expansion', 'v=x; printf "%s" "${v@P}"'],
  ['prompt expansion', 'cat "${HOME@P}/README.md"'],
  ['case change with @', 'echo ${HOME@U}'],
  ['indirection', 'n=HOME; cat ${!n}/.ssh/id_rsa'],
  ['replacement with a substitution', 'echo ${HOME/$(id)/x}'],
  ['replacement with a variable', 'echo ${HOME//a/$x}'],
  ['substring at a run-time offset', 'echo ${HOME:$n}'],
  ['assignment expansion', 'echo ${x:=$(id)}'],
  ['array index', 'a=(1); echo ${a[$(id)]}'],
  ['array element index', 'a=([$(id)]=1)'],
  ['array element index', 'a=([i]=1)'],
  ['arithmetic on the environment', 'echo $((SHLVL + 1))'],
  ['arithmetic on positional', 'f() { echo $(( $1 )); }; f 1'],
  ['arithmetic in a subscript', 'a=(1 2); echo $((a[1]))'],
  ['arithmetic base prefix', 'echo $(( 10#$x ))'],
  ['old arithmetic', 'echo $[x]'],
  ['declare -i', 'declare -i n=1'],
  ['local -i', 'f() { local -i n=$1; }; f 2'],
  ['declare -n', 'declare -n ref'],
  ['readonly -n', 'declare -rn ref=PATH'],
  ['set changing behaviour', 'set -B'],
  ['set changing behaviour', 'set -o history'],
  ['shopt', 'shopt -u sourcepath'],
  ['exec with redirections only', 'exec 2>&1'],
  ['exec with redirections only', 'exec 3>&-'],
  ['compgen in a substitution', 'echo $(compgen -c)'],
  ['escaped backquote in double quotes', 'echo "\\`id\\`" `echo \\`id\\``'],
  ['awk with -i', "awk -i inplace '{print}' README.md"],
  ['awk with -l', "awk -l filefuncs 'BEGIN{}'"],
  ['awk with -E', 'awk -E /dev/null'],
  ['awk close', 'awk \'BEGIN{close("x")}\''],
  ['awk fflush', 'awk \'BEGIN{fflush("x")}\''],
  ['jq module path', "jq -L . '.' package.json"],
  ['jq from a file', 'jq -f filter.jq package.json'],
  ['jq input_line_number', "jq 'input_line_number' package.json"],
  ['jq halt_error', 'jq -n \'"x" | halt_error\''],
  ['jq get_search_list', "jq -n 'get_search_list'"],
  // GNU getopt stops at the first operand under POSIXLY_CORRECT: `-e FILE` is then a file read.
  ['options read another way', 'POSIXLY_CORRECT=1 grep x README.md -e ../home/.ssh/id_rsa'],
  ['options read another way', 'export POSIXLY_CORRECT=1; grep x README.md -e ../home/.ssh/id_rsa'],
  ['options read another way', 'env POSIXLY_CORRECT=y grep x README.md -e ../home/.ssh/id_rsa'],
  ['options read another way', 'x=POSIXLY_CORRECT; export $x=1; grep x README.md -e ../home/.ssh/id_rsa'],
  ['options read another way', 'declare -x "POSIXLY_CORRECT=1"; grep x README.md -e ../home/.ssh/id_rsa'],
];

describe('syntax the walker does not model is asked about', () => {
  it.each([...rows, ...MORE])('%s: asks before %j', async (_kind, command) => {
    const smart = await gate(fixture, { command }, { mode: 'smart', rules: [] }, false);
    expect(smart.decision.action).not.toBe('execute');
    if (!smart.valid) return;
    expect(smart.assessment.whitelisted).toBe(false);
    const guarded = await gate(fixture, { command, risk_level: 'low' }, { mode: 'guarded', rules: [] }, false);
    expect(guarded.decision.action).not.toBe('execute');
  });
});

const sandboxWorks = (await probeSandbox()).available;
const root = mkdtempSync('/var/tmp/riskgate-syntax-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A fresh workspace whose PATH starts with a program named `id` that writes a marker file into
 * the workspace; the lines' other payload, `touch pwned`, writes the same marker.
 */
function prepare(line: string): { workspace: string; marker: string; command: string; env: Record<string, string> } {
  const workspace = join(root, `w${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(workspace, '.bin'), { recursive: true });
  writeFileSync(join(workspace, 'README.md'), 'readme\n');
  writeFileSync(join(workspace, 'package.json'), '{"name":"x"}\n');
  const marker = join(workspace, 'pwned-by-payload');
  writeFileSync(join(workspace, '.bin', 'id'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  const command = line.replace(/\bpwned\b/g, marker);
  return {
    workspace,
    marker,
    command,
    env: { PATH: `${join(workspace, '.bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: workspace },
  };
}

const run = (prepared: ReturnType<typeof prepare>, sandbox: boolean) =>
  runCommand(prepared.command, {
    cwd: prepared.workspace,
    env: prepared.env,
    signal: new AbortController().signal,
    maxOutputBytes: 4096,
    timeoutMs: 5_000,
    sandbox,
  });

describe.runIf(sandboxWorks)('the same lines, run the way an unasked call runs (in the sandbox), cannot write', () => {
  const harmful: string[] = [];
  it.each(rows)('%s: %j leaves the workspace as it was', async (_kind, line) => {
    // Outside the sandbox (a scratch workspace) the payload shows whether the harm is real.
    const outside = prepare(line);
    await run(outside, false);
    if (existsSync(outside.marker)) harmful.push(line);
    const inside = prepare(line);
    await run(inside, true);
    expect(existsSync(inside.marker)).toBe(false);
    expect(readdirSync(inside.workspace).sort()).toEqual(['.bin', 'README.md', 'package.json']);
  });

  it('covers lines whose payload really runs outside the sandbox', () => {
    console.log(
      `syntax attacks: payload ran outside the sandbox in ${harmful.length} of ${rows.length} lines, inside in none`,
    );
    expect(harmful.length).toBeGreaterThan(40);
  });
});
