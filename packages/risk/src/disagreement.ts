import type { RiskLevel } from './levels.js';

/**
 * The model's `low` against the code's own level, in the one wording the panel, /audit,
 * headless output and `riskgate assess` share: the same two levels everywhere. A module of its
 * own, importing nothing at run time: the TUI's start path needs only these words, not the gate.
 */
export function disagreementText(decision: {
  readonly llmLevel: RiskLevel | null;
  readonly codeLevel: RiskLevel | null;
}): string {
  return `the model rated it ${decision.llmLevel ?? 'low'}, but the code rated it ${decision.codeLevel ?? 'unknown'}`;
}
