/** How risky an operation is. `low` may run unasked; `medium` and `high` are asked about. */
export type RiskLevel = 'low' | 'medium' | 'high';

export const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

export const RISK_LEVEL_PROPERTY = 'risk_level';

/** The one description every tool's `risk_level` property carries (spec 002, option C). */
export const RISK_LEVEL_DESCRIPTION =
  "Optional: your risk assessment of this operation. 'low' = safe, executes automatically; " +
  "'medium' or 'high' = requires the user's confirmation before it runs. If omitted, the system " +
  'assesses the risk conservatively and asks when the operation is not clearly safe.';

/** The JSON Schema property added to every tool's parameters. */
export const riskLevelJsonSchema = {
  type: 'string',
  enum: [...RISK_LEVELS],
  description: RISK_LEVEL_DESCRIPTION,
} as const;

export function isRiskLevel(value: unknown): value is RiskLevel {
  return typeof value === 'string' && (RISK_LEVELS as readonly string[]).includes(value);
}

const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

export function maxRiskLevel(...levels: RiskLevel[]): RiskLevel {
  return levels.reduce<RiskLevel>((worst, level) => (RANK[level] > RANK[worst] ? level : worst), 'low');
}

/**
 * What the model said about `risk_level`: absent, a valid level, or a value that is not one
 * of the three (which the gate treats as absent, and says so).
 */
export type LlmRiskLevel =
  | { readonly kind: 'absent' }
  | { readonly kind: 'valid'; readonly level: RiskLevel }
  | { readonly kind: 'invalid'; readonly value: unknown };

export function readLlmRiskLevel(rawArgs: unknown): LlmRiskLevel {
  if (rawArgs === null || typeof rawArgs !== 'object' || Array.isArray(rawArgs)) return { kind: 'absent' };
  if (!Object.hasOwn(rawArgs, RISK_LEVEL_PROPERTY)) return { kind: 'absent' };
  const value = (rawArgs as Record<string, unknown>)[RISK_LEVEL_PROPERTY];
  if (value === undefined || value === null) return { kind: 'absent' };
  return isRiskLevel(value) ? { kind: 'valid', level: value } : { kind: 'invalid', value };
}

/** The arguments without `risk_level`, which is the gate's business, not the tool's. */
export function withoutRiskLevel(rawArgs: unknown): unknown {
  if (rawArgs === null || typeof rawArgs !== 'object' || Array.isArray(rawArgs)) return rawArgs;
  const { [RISK_LEVEL_PROPERTY]: _ignored, ...rest } = rawArgs as Record<string, unknown>;
  return rest;
}
