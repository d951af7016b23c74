export { looksBinary } from './binary.js';
export {
  DEFAULT_POLICY,
  DEFAULT_SAFETY_MODE,
  type Decision,
  type DecisionAction,
  type DecisionSource,
  type DecideInput,
  decide,
  type GatePolicy,
  SAFETY_MODES,
  type SafetyMode,
} from './decide.js';
export { type Evaluation, evaluateToolCall, formatZodError } from './evaluate.js';
export { type FunctionDefinition, toolFunctionDefinition } from './json-schema.js';
export {
  isRiskLevel,
  type LlmRiskLevel,
  maxRiskLevel,
  RISK_LEVEL_DESCRIPTION,
  RISK_LEVEL_PROPERTY,
  RISK_LEVELS,
  type RiskLevel,
  readLlmRiskLevel,
  riskLevelJsonSchema,
  withoutRiskLevel,
} from './levels.js';
export { findSecrets, redactSecrets, redactValue, SECRET_KEY_NAMES, SECRET_PATTERNS } from './secrets.js';
export {
  compilePattern,
  findRule,
  formatRule,
  parseRule,
  RULE_EFFECTS,
  type Rule,
  type RuleEffect,
  type RuleParseResult,
  type RuleStyle,
  ruleMatches,
} from './rules.js';
export {
  type AnyTool,
  type AssessContext,
  type Assessment,
  type Assessor,
  defineTool,
  type ExecuteContext,
  notWhitelisted,
  type OperationDescription,
  SQL_DIALECTS,
  type SqlDialect,
  type ToolDefinition,
  type ToolFailure,
  type ToolResult,
  type ToolSuccess,
  toolFailure,
  whitelisted,
} from './tool.js';
