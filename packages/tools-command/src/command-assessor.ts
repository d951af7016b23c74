import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { EffectReport } from '@riskgate/risk';
import { Walk } from './assess/walk.js';
import { loadBashParser } from './bash-parser.js';

/**
 * The execute_command assessor: the line is parsed with tree-sitter-bash and walked; every
 * word yields effects (files read, written, deleted; programs run; connections; environment
 * reads), and every simple command — and every command a wrapper runs — yields a rule subject.
 * It describes; `judgeEffects` in @riskgate/risk decides.
 */
export interface CommandAssessOptions {
  /** Where the line runs: relative paths resolve against it. */
  readonly cwd: string;
  /** The home directory (`~`); defaults to the real one. */
  readonly home?: string;
  /** The call will run inside riskgate's sandbox: rows not marked core may then be whitelisted (without it, only core rows). */
  readonly sandbox?: boolean;
}

export async function assessCommand(command: string, options: CommandAssessOptions): Promise<EffectReport> {
  if (command.trim() === '') return { effects: [{ kind: 'unknown', detail: 'the command is empty' }], subjects: [] };
  const parser = await loadBashParser();
  const tree = parser.parse(command);
  if (tree === null) throw new Error('the bash parser returned no tree');
  try {
    const home = options.home ?? homedir();
    const walk = new Walk(
      command,
      { home, sandbox: options.sandbox === true, parser },
      { cwd: resolve(options.cwd), vars: new Map(), functions: new Map(), opaque: false },
      0,
    );
    walk.walkRoot(tree.rootNode);
    return { effects: walk.effects, subjects: walk.subjects };
  } finally {
    tree.delete();
  }
}
