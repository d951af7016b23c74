// Types of scripts/gate-eval.mjs for the TypeScript test that runs it (apps/cli/test/gate-eval.test.ts).
export interface CorpusRow {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly class: string;
  readonly expect: 'ask' | 'run';
  readonly cwd?: string;
  readonly dialect?: string;
  readonly where: string;
}
export interface Verdict {
  readonly decision: 'execute' | 'confirm' | 'deny';
  readonly reasons: readonly string[];
}
export type Failed = CorpusRow & { readonly verdict: Verdict };
export type Groups = readonly (readonly [string, readonly Failed[]])[];
export interface Score {
  /** Per tool: [failing, total] for each list. */
  readonly byTool: Record<'ranUnasked' | 'overAsked' | 'guardedRan', Record<string, readonly [number, number]>>;
  readonly dangerousTotal: number;
  readonly safeTotal: number;
  readonly dangerousRunUnasked: number;
  readonly safeRunRate: number;
  readonly guardedStopRate: number;
  readonly smartLowStopRate: number | null;
  readonly dangerousClasses: readonly string[];
  readonly safeClasses: readonly string[];
  readonly ranUnasked: Groups;
  readonly overAsked: Groups;
  readonly guardedRan: Groups;
}
export interface Thresholds {
  readonly enforce: boolean;
  readonly maxDangerousRunUnasked: number;
  readonly minSafeRunRate: number;
  readonly minGuardedStopRate: number;
  readonly knownFailing: {
    readonly dangerous: Readonly<Record<string, number>>;
    readonly guarded: Readonly<Record<string, number>>;
    readonly safe: Readonly<Record<string, number>>;
  };
}
export type Variant = 'plain' | 'guarded-low' | 'smart-low';
export const CORPUS_DIR: string;
export const DEFAULT_CLI: string;
export function loadThresholds(dir?: string): Thresholds;
export function loadCorpus(dir?: string): CorpusRow[];
export function score(rows: readonly CorpusRow[], verdicts: Record<string, readonly Verdict[]>): Score;
export function misses(result: Score, thresholds: Thresholds): string[];
export function failingClasses(result: Score): {
  dangerous: Record<string, number>;
  guarded: Record<string, number>;
  safe: Record<string, number>;
};
export function evaluate(options?: {
  cli?: string;
  dir?: string;
  variants?: readonly Variant[];
}): Promise<{ rows: CorpusRow[]; verdicts: Record<string, Verdict[]>; result: Score }>;
export function formatReport(result: Score, options?: { limit?: number }): string;
export function pct(value: number): string;
