import { type LlmRiskLevel, RISK_LEVELS, type RiskLevel } from './levels.js';
import { findRule, type Rule, type RuleStyle } from './rules.js';
import type { JudgedEffect } from './judge.js';
import type { Assessment } from './tool.js';

/** One effect as every surface shows it: the panel, `riskgate assess`, headless output, the audit log. */
export type EffectLine = Pick<JudgedEffect, 'text' | 'verdict' | 'level'>;

/**
 * - `smart` (default): the specification — the model's `risk_level`, then the whitelist, then ask.
 * - `strict`: ask about everything.
 * - `guarded`: smart, but the model's `low` decides only operations the code could not read
 *   (unknown): a known write, delete, program run, connection, process or privilege change, or
 *   secret read is asked about whatever the model said; and after a call that brought in
 *   content from outside the person's trust, the model's `low` is not taken for the rest of
 *   the turn.
 * - `yolo`: run everything (explicit opt-in only). Deny rules still hold.
 */
export type SafetyMode = 'strict' | 'smart' | 'guarded' | 'yolo';
export const SAFETY_MODES: readonly SafetyMode[] = ['strict', 'smart', 'guarded', 'yolo'];
export const DEFAULT_SAFETY_MODE: SafetyMode = 'smart';
/** From the loosest to the strictest: a project's .riskgate/ may only move a person's mode rightwards. */
export const MODE_STRICTNESS: readonly SafetyMode[] = ['yolo', 'smart', 'guarded', 'strict'];

export type DecisionAction = 'execute' | 'confirm' | 'deny';

/** Which step of the gate decided. */
export type DecisionSource = 'invalid' | 'rule' | 'mode' | 'guard' | 'llm' | 'whitelist' | 'default';

export interface GatePolicy {
  readonly mode: SafetyMode;
  readonly rules: readonly Rule[];
  /**
   * An organisation's managed policy (docs/policy.md): its deny and ask rules come before every
   * other step, yolo and the person's allow rules included, and its floor holds whatever `mode`
   * says — `decide()` reads the stricter of the two, so a later `/mode` or a host's own policy
   * object cannot go below it.
   */
  readonly managed?: ManagedGate;
}

export interface ManagedGate {
  /** Only `ask` and `deny` rules: a managed policy never lets anything run. */
  readonly rules: readonly Rule[];
  /** The loosest mode allowed (`smart` forbids yolo). */
  readonly floor?: SafetyMode;
  /** The files it came from, for messages. */
  readonly sources: readonly string[];
}

/** The mode `decide()` applies: the policy's, raised to the managed floor. */
export function effectiveMode(policy: GatePolicy): SafetyMode {
  const floor = policy.managed?.floor;
  if (floor === undefined) return policy.mode;
  return MODE_STRICTNESS.indexOf(floor) > MODE_STRICTNESS.indexOf(policy.mode) ? floor : policy.mode;
}

export const DEFAULT_POLICY: GatePolicy = { mode: DEFAULT_SAFETY_MODE, rules: [] };

/** What the gate remembers within one turn of the conversation. */
export interface TurnState {
  /**
   * An earlier call of this turn brought in content from outside the person's trust (an HTTP
   * body, a file outside the workspace): in guarded mode the model's `low` is no longer taken,
   * since that content may be steering the model. Says where it came from.
   */
  readonly untrusted?: string;
}

export type DecideInput =
  | {
      readonly toolName: string;
      readonly valid: false;
      /** Why the arguments failed the tool's schema. */
      readonly validationError: string;
      readonly llm: LlmRiskLevel;
      readonly policy: GatePolicy;
      readonly turn?: TurnState;
    }
  | {
      readonly toolName: string;
      readonly valid: true;
      readonly ruleStyle: RuleStyle;
      readonly assessment: Assessment;
      readonly llm: LlmRiskLevel;
      readonly policy: GatePolicy;
      readonly turn?: TurnState;
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
  /** Why the gate decided so, in one sentence ("not on the whitelist, and the model gave no risk_level"). */
  readonly why: string;
  /** What the code's assessor found, one plain sentence each (empty when the arguments were invalid). */
  readonly findings: readonly string[];
  /** What else the person should know: a disagreement, an invalid risk_level, guarded mode's untrusted turn. */
  readonly notes: readonly string[];
  /** All of it in one list, for logs and JSON: `why`, then the notes, then the findings. */
  readonly reasons: readonly string[];
  /** The user rule that decided, as written. */
  readonly rule?: string;
  /** The organisation's managed policy decided (its rule, or its mode floor): every surface names it. */
  readonly managed?: true;
  /** What the operation does, in plain words ("reads ~/.aws/credentials (AWS credentials)"); empty when invalid. */
  readonly effects: readonly EffectLine[];
  /**
   * The model said `low` while the code found the operation `high`. In smart mode the call runs
   * (that is the specification); the flag lets the UI and the audit log show the disagreement.
   */
  readonly disagreement: boolean;
}

/** The gate, in the order of DESIGN.md "The gate": first match wins. */
export function decide(input: DecideInput): Decision {
  const { llm } = input;
  const llmLevel = llm.kind === 'valid' ? llm.level : null;
  const llmNotes =
    llm.kind === 'invalid'
      ? [`risk_level ${JSON.stringify(llm.value)} is not one of ${RISK_LEVELS.join(', ')}; treated as absent`]
      : [];

  // 1. Arguments that fail the schema are never executed; the error goes back to the model.
  if (!input.valid) {
    const why = `invalid arguments: ${input.validationError}`;
    return {
      action: 'deny',
      source: 'invalid',
      level: null,
      llmLevel,
      codeLevel: null,
      whitelisted: false,
      ...explained(why, [], llmNotes),
      effects: [],
      disagreement: false,
    };
  }
  const verdict = verdictFor(input, llmLevel, llmNotes);
  return byRulesAndModes(input, verdict) ?? byLevels(input, verdict, llmLevel);
}

type Valid = Extract<DecideInput, { valid: true }>;

/** Makes a decision that rests on the code's assessment, with its findings. */
type Verdict = (
  action: DecisionAction,
  source: DecisionSource,
  why: string,
  options?: { rule?: Rule; notes?: readonly string[]; managed?: boolean },
) => Decision;

function verdictFor(input: Valid, llmLevel: RiskLevel | null, llmNotes: readonly string[]): Verdict {
  const { assessment } = input;
  const base = {
    llmLevel,
    codeLevel: assessment.level,
    whitelisted: assessment.whitelisted,
    effects: assessment.effects.map(({ text, verdict, level }) => ({ text, verdict, level })),
    disagreement: llmLevel === 'low' && (assessment.level === 'high' || assessment.knownDanger),
  };
  return (action, source, why, options = {}) => ({
    ...base,
    action,
    source,
    level: assessment.level,
    ...explained(why, assessment.reasons, [...(options.notes ?? []), ...llmNotes]),
    ...(options.rule === undefined ? {} : { rule: options.rule.text }),
    ...(options.managed === true ? { managed: true as const } : {}),
  });
}

/** The note a decision by the mode carries when the managed floor is what set it. */
function floorNotes(policy: GatePolicy): { notes: readonly string[]; managed: boolean } {
  const floor = policy.managed?.floor;
  if (floor === undefined || effectiveMode(policy) !== floor) return { notes: [], managed: false };
  return { notes: [`your organisation's policy sets the mode to at least ${floor}`], managed: true };
}

/** Steps 2–4: the organisation's and the person's rules, and the modes that do not weigh the operation. */
function byRulesAndModes(input: Valid, verdict: Verdict): Decision | undefined {
  const { policy } = input;
  const match = (effect: Rule['effect'], rules = policy.rules) =>
    findRule(rules, effect, input.toolName, input.ruleStyle, input.assessment.subjects);
  const managedRules = policy.managed?.rules ?? [];

  // 2. A deny rule wins over everything, yolo included; the organisation's first, so it is named.
  const managedDeny = match('deny', managedRules);
  if (managedDeny !== undefined) {
    const why = `your organisation's policy denies ${managedDeny.text}`;
    return verdict('deny', 'rule', why, { rule: managedDeny, managed: true });
  }
  const deny = match('deny');
  if (deny !== undefined) return verdict('deny', 'rule', `denied by rule ${deny.text}`, { rule: deny });
  // 2a. The organisation's ask rules beat yolo and the person's allow rules.
  const managedAsk = match('ask', managedRules);
  if (managedAsk !== undefined) {
    const why = `your organisation's policy asks for ${managedAsk.text}`;
    return verdict('confirm', 'rule', why, { rule: managedAsk, managed: true });
  }

  // 3. Modes that do not weigh the operation (raised to the managed floor).
  const mode = effectiveMode(policy);
  if (mode === 'strict') return verdict('confirm', 'mode', 'strict mode confirms every operation', floorNotes(policy));
  if (mode === 'yolo') return verdict('execute', 'mode', 'yolo mode executes every operation unasked');

  // 4. The person's own allow and ask rules.
  const ask = match('ask');
  if (ask !== undefined) return verdict('confirm', 'rule', `rule ${ask.text} asks first`, { rule: ask });
  const allow = match('allow');
  if (allow !== undefined) return verdict('execute', 'rule', `allowed by rule ${allow.text}`, { rule: allow });
  return undefined;
}

/** Steps 5–8: guarded mode, the model's rating, the whitelist, the default. */
function byLevels(input: Valid, verdict: Verdict, llmLevel: RiskLevel | null): Decision {
  const { assessment } = input;
  // 5. Guarded mode: what the code knows to do something (or to read a secret) is asked,
  //    whatever the model said; the model's `low` only ever decides unknown operations.
  const guarded = effectiveMode(input.policy) === 'guarded';
  if (guarded && assessment.knownDanger) {
    const why =
      llmLevel === 'low'
        ? 'guarded mode: the model said low, but the code found what this does'
        : 'guarded mode: the code found what this does';
    return verdict('confirm', 'guard', why, floorNotes(input.policy));
  }
  const untrusted = guarded && llmLevel === 'low' ? input.turn?.untrusted : undefined;

  // 6. The model's own rating, when it gave a valid one (in guarded mode, not its `low` once
  //    the turn has brought in untrusted content: the whitelist or the default decides).
  if (llmLevel !== null && untrusted === undefined) {
    const action: DecisionAction = llmLevel === 'low' ? 'execute' : 'confirm';
    const decision = verdict(action, 'llm', `the model rated this ${llmLevel}`);
    const warning = decision.disagreement
      ? ['the code found what this does; running it because the model rated it low']
      : [];
    return { ...verdict(action, 'llm', decision.why, { notes: warning }), level: llmLevel };
  }

  const untrustedNote =
    untrusted === undefined
      ? []
      : [`guarded mode: the model's low is not taken for the rest of this turn, which brought in ${untrusted}`];

  // 7. The code whitelist.
  if (assessment.whitelisted)
    return verdict('execute', 'whitelist', 'on the whitelist of safe operations', { notes: untrustedNote });

  // 8. The conservative default.
  if (untrusted !== undefined) return verdict('confirm', 'guard', untrustedNote[0]!);
  return verdict('confirm', 'default', 'not on the whitelist, and the model gave no risk_level');
}

/** The three parts of an explanation, and the one list logs and JSON carry. */
function explained(
  why: string,
  findings: readonly string[],
  notes: readonly string[],
): Pick<Decision, 'why' | 'findings' | 'notes' | 'reasons'> {
  return { why, findings, notes, reasons: [why, ...notes, ...findings] };
}
