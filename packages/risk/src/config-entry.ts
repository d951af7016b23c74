/**
 * What a config loader needs of the gate — the modes and the rules' grammar — without the
 * knowledge base, the secret engine and the judge that `@riskgate/risk` brings: the TUI loads its
 * config before its first frame (`@riskgate/core/config`), and this keeps them off that path.
 */
export {
  DEFAULT_SAFETY_MODE,
  type GatePolicy,
  type ManagedGate,
  MODE_STRICTNESS,
  SAFETY_MODES,
  type SafetyMode,
} from './decide.js';
export { parseRule, RULE_EFFECTS, type Rule } from './rules.js';
