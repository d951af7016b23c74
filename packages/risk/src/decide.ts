import { type LlmRiskLevel, RISK_LEVELS, type RiskLevel } from './levels.js';
import { findRule, type Rule, type RuleStyle } from './rules.js';
import type { Assessment } from './tool.js';

/**
 * - `smart` (default): the specification — the model's `risk_level`, then the whitelist, then ask.
 * - `strict`: ask about everything.
 * - `guarded`: smart, but what the code finds positively dangerous is asked about whatever the
 *   model said.
 * - `yolo`: run everything (explicit opt-in only). Deny rules still hold.
 */
export type SafetyMode = 'strict' | 'smart' | 'guarded' | 'yolo';
export const SAFETY_MODES: readonly SafetyMode[] = ['strict', 'smart', 'guarded', 'yolo'];
export const DEFAULT_SAFETY_MODE: SafetyMode = 'smart';

export type DecisionAction = 'execute' | 'confirm' | 'deny';

/** Which step of the gate decided. */
export type DecisionSource = 'invalid' | 'rule' | 'mode' | 'guard' | 'llm' | 'whitelist' | 'default';

export interface GatePolicy {
  readonly mode: SafetyMode;
  readonly rules: readonly Rule[];
}

export const DEFAULT_POLICY: GatePolicy = { mode: DEFAULT_SAFETY_MODE, rules: [] };

export type DecideInput =
  | {
      readonly toolName: string;
      readonly valid: false;
      /** Why the arguments failed the tool's schema. */
      readonly validationError: string;
      readonly llm: LlmRiskLevel;
      readonly policy: GatePolicy;
    }
  | {
      readonly toolName: string;
      readonly valid: true;
      readonly ruleStyle: RuleStyle;
      readonly assessment: Assessment;
      readonly llm: LlmRiskLevel;
      readonly policy: GatePolicy;
    };

export interface Decision {
  readonly action: DecisionAction;
  readonly source: DecisionSource;
  /**
   * The level the decision rests on: the model's when `source` is `llm`, otherwise the code
   * assessor's; null when the arguments were invalid and nothing was assessed.
   */
  readonly level: RiskLevel | null;
  /** The model's valid `risk_level`, or null when absent or invalid. */
  readonly llmLevel: RiskLevel | null;
  /** The code assessor's level, or null when the arguments were invalid. */
  readonly codeLevel: RiskLevel | null;
  readonly whitelisted: boolean;
  /** The decision first, then what the assessor found. */
  readonly reasons: readonly string[];
  /** The user rule that decided, as written. */
  readonly rule?: string;
  /**
   * The model said `low` while the code found the operation `high`. In smart mode the call runs
   * (that is the specification); the flag lets the UI and the audit log show the disagreement.
   */
  readonly disagreement: boolean;
}

/** The gate, in the order of DESIGN.md "The gate": first match wins. */
export function decide(input: DecideInput): Decision {
  const { llm, policy } = input;
  const llmLevel = llm.kind === 'valid' ? llm.level : null;
  const llmNotes =
    llm.kind === 'invalid'
      ? [`risk_level ${JSON.stringify(llm.value)} is not one of ${RISK_LEVELS.join(', ')}; treated as absent`]
      : [];

  // 1. Arguments that fail the schema are never executed; the error goes back to the model.
  if (!input.valid) {
    return {
      action: 'deny',
      source: 'invalid',
      level: null,
      llmLevel,
      codeLevel: null,
      whitelisted: false,
      reasons: [`invalid arguments: ${input.validationError}`, ...llmNotes],
      disagreement: false,
    };
  }

  const { assessment } = input;
  const disagreement = llmLevel === 'low' && assessment.level === 'high';
  const base = {
    llmLevel,
    codeLevel: assessment.level,
    whitelisted: assessment.whitelisted,
    disagreement,
  };
  const found = [...assessment.reasons, ...llmNotes];
  const codeDecision = (action: DecisionAction, source: DecisionSource, why: string, rule?: Rule): Decision => ({
    ...base,
    action,
    source,
    level: assessment.level,
    reasons: [why, ...found],
    ...(rule === undefined ? {} : { rule: rule.text }),
  });
  const match = (effect: Rule['effect']) =>
    findRule(policy.rules, effect, input.toolName, input.ruleStyle, assessment.subjects);

  // 2. A deny rule wins over everything, yolo included.
  const deny = match('deny');
  if (deny !== undefined) return codeDecision('deny', 'rule', `denied by rule ${deny.text}`, deny);

  // 3. Modes that do not weigh the operation.
  if (policy.mode === 'strict') return codeDecision('confirm', 'mode', 'strict mode confirms every operation');
  if (policy.mode === 'yolo') return codeDecision('execute', 'mode', 'yolo mode executes every operation unasked');

  // 4. The person's own allow and ask rules.
  const ask = match('ask');
  if (ask !== undefined) return codeDecision('confirm', 'rule', `rule ${ask.text} asks first`, ask);
  const allow = match('allow');
  if (allow !== undefined) return codeDecision('execute', 'rule', `allowed by rule ${allow.text}`, allow);

  // 5. Guarded mode: what the code finds positively dangerous is asked, whatever the model said.
  if (policy.mode === 'guarded' && assessment.level === 'high') {
    const why =
      llmLevel === 'low'
        ? 'guarded mode: the model said low, but the code found this dangerous'
        : 'guarded mode: the code found this dangerous';
    return codeDecision('confirm', 'guard', why);
  }

  // 6. The model's own rating, when it gave a valid one.
  if (llmLevel !== null) {
    const action: DecisionAction = llmLevel === 'low' ? 'execute' : 'confirm';
    const why = `the model rated this ${llmLevel}`;
    const warning = disagreement ? ['the code found this dangerous; running it because the model rated it low'] : [];
    return { ...base, action, source: 'llm', level: llmLevel, reasons: [why, ...warning, ...found] };
  }

  // 7. The code whitelist.
  if (assessment.whitelisted) return codeDecision('execute', 'whitelist', 'on the whitelist of safe operations');

  // 8. The conservative default.
  return codeDecision('confirm', 'default', 'not on the whitelist, and the model gave no risk_level');
}
