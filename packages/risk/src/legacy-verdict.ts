import type { EffectReport } from './effects.js';
import type { RiskLevel } from './levels.js';

/**
 * @deprecated Transitional, while assessors move to effects: the old verdict shape (level,
 * whitelisted, reasons, subjects) as an effect report. What is not whitelisted becomes
 * `unknown` effects carrying the old level, so nothing the old assessor asked about runs
 * unasked. Remove once every assessor reports effects.
 */
export interface LegacyVerdict {
  readonly level: RiskLevel;
  readonly whitelisted: boolean;
  readonly reasons: readonly string[];
  readonly subjects: readonly string[];
}

/** @deprecated see LegacyVerdict. */
export function legacyReport(verdict: LegacyVerdict): EffectReport {
  if (verdict.whitelisted) return { effects: [], subjects: verdict.subjects };
  const reasons = verdict.reasons.length > 0 ? verdict.reasons : ['not on the whitelist'];
  return {
    effects: reasons.map((detail) => ({ kind: 'unknown', detail, severity: verdict.level === 'high' ? 'high' : 'medium' })),
    subjects: verdict.subjects,
  };
}
