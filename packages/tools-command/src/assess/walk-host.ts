import type { Effect } from '@riskgate/risk';
import type { Node, Parser } from 'web-tree-sitter';
import type { Producer, WordHost, WordValue } from './words.js';

/** Where the line runs and what the walk has learnt so far about its shell. */
export interface Scope {
  /** The directory relative paths resolve against; undefined once a `cd` went somewhere only known at run time. */
  cwd: string | undefined;
  /** Variables the line set: their possible values, or null when only known at run time. */
  readonly vars: Map<string, readonly string[] | null>;
  /**
   * Functions the line defined: calling one runs its body, which was judged where it was defined.
   * `certain` when the definition surely ran before the call (a top-level statement); the text
   * tells which variables a call may change.
   */
  readonly functions: Map<
    string,
    { readonly text: string; readonly certain: boolean; readonly cwd?: string | undefined }
  >;
  /** Inside a function body: variables set later on the line may hold anything. */
  opaque: boolean;
}

export interface WalkOptions {
  readonly home: string;
  readonly sandbox: boolean;
  readonly parser: Parser;
}

/**
 * What the walk's helpers (apply, builtins, wrappers, redirects, loops, paths, arithmetic,
 * simple commands) use of the walk. Walk (walk.ts) implements it; the helpers depend on this
 * interface, not on walk.ts, which imports them: no import circle.
 */
export interface WalkHost extends WordHost {
  readonly effects: Effect[];
  readonly subjects: string[];
  /** The previous command of the pipeline being walked: where its output's file names lie. */
  readonly producer: Producer | undefined;
  readonly options: WalkOptions;
  scope: Scope;
  emit(effect: Effect): void;
  word(node: Node): WordValue;
  script(text: string | undefined, via: string): void;
  runWords(words: readonly WordValue[], via: string | undefined): void;
  visit(node: Node): void;
  redirect(node: Node): WordValue[];
  callFunction(name: string): boolean;
  resolvePath(text: string): string | undefined;
}
