export { looksBinary } from './binary.js';
export {
  DEFAULT_POLICY,
  DEFAULT_SAFETY_MODE,
  MODE_STRICTNESS,
  type Decision,
  type DecisionAction,
  type DecisionSource,
  type DecideInput,
  type EffectLine,
  type TurnState,
  decide,
  effectiveMode,
  type GatePolicy,
  type ManagedGate,
  SAFETY_MODES,
  type SafetyMode,
} from './decide.js';
export { disagreementText } from './disagreement.js';
export {
  type Effect,
  type EffectKind,
  type EffectReport,
  type EffectSeverity,
  isPathEffect,
  type PathEffect,
} from './effects.js';
export { type Evaluation, evaluateToolCall, formatZodError, safeAssess } from './evaluate.js';
export { type JudgeContext, type JudgedEffect, type Judgement, judgeEffects } from './judge.js';
export {
  type AddressClass,
  addressAllowed,
  classifyAddress,
  classifyHostName,
  describeAddressClass,
  METADATA_ADDRESSES,
  METADATA_NAMES,
  type NetworkPolicy,
  STRICT_NETWORK,
} from './knowledge/addresses.js';
export {
  isSecretEnvironmentName,
  PUBLIC_ENVIRONMENT_NAMES,
  SECRET_ENVIRONMENT_NAMES,
} from './knowledge/environment.js';
export { isSecretColumnName, isSecretKeyName } from './knowledge/secret-columns.js';
export {
  CREDENTIAL_HEADERS,
  CREDENTIAL_QUERY_NAMES,
  credentialHeader,
  credentialQueryName,
  METHOD_OVERRIDE_HEADERS,
  METHOD_OVERRIDE_QUERY_NAMES,
  ROUTING_HEADERS,
} from './knowledge/http.js';
export { contentHoldsSecret } from './knowledge/content-secret.js';
export {
  HOME_ALLOWLIST,
  HOME_ALLOWLIST_GLOBS,
  type HomeAllowRow,
  type HomePrivacyOptions,
  isPrivateHomePath,
} from './knowledge/home-allowlist.js';
export {
  type SecretFile,
  type SecretFileOptions,
  type SecretFileScan,
  secretFilesBelow,
  walkedRecently,
} from './knowledge/secret-files.js';
export {
  type CompiledRow,
  compiledRows,
  displayPath,
  existingPaths,
  existingPathsOf,
  expandBraces,
  expandPattern,
  fileFacts,
  hasGlob,
  isInside,
  type PathFact,
  pathFacts,
  patternMayReach,
  realPathOf,
  tableFacts,
} from './knowledge/path-lookup.js';
export { type ClosedOptions, closedToOthers } from './knowledge/closed-files.js';
export { expandHome } from './home-path.js';
export { scanTree, type TreeScan, type TreeScanOptions } from './knowledge/tree-scan.js';
export {
  type PathClass,
  type PathRow,
  SECRET_CONTENT,
  SECRET_WHEN_CONTENT,
  SENSITIVE_PATHS,
} from './knowledge/sensitive-paths.js';
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
  callTitle,
  confirmationQuestion,
  type AssessContext,
  type Assessment,
  type Assessor,
  defineTool,
  type ExecuteContext,
  type OperationDescription,
  type PlanArgument,
  type PlannedReport,
  notAssessed,
  SQL_DIALECTS,
  type SqlDialect,
  type ToolDefinition,
  type ToolFailure,
  type ToolHints,
  type ToolResult,
  type ToolSuccess,
  report,
  toolFailure,
  withheldMarker,
} from './tool.js';
export { findSecretsIn, replaceFindings, textHoldsSecret } from './secret-engine/engine.js';
export type { SecretFinding } from './secret-engine/types.js';
export { namesSecret } from './secret-engine/placeholders.js';
export { findInTables } from './secret-engine/tables.js';
export { tokenRuleCount } from './secret-engine/token-rules.js';
