export { Agent, type AgentOptions, type CompactionOutcome, type TurnOptions, type TurnOutcome } from './agent.js';
export { argumentsTooLarge, boundedArguments, MAX_ARGUMENTS_CHARS } from './argument-limits.js';
export { type AuditEntry, AuditLog, type AuditLogOptions, type AuditOutcome } from './audit.js';
export {
  type ChangeSet,
  type ChangeSetMeta,
  type CheckpointLimits,
  type CheckpointOptions,
  Checkpoints,
  DEFAULT_CHECKPOINT_LIMITS,
  DEFAULT_KEPT_CHANGE_SETS,
  type KeptItem,
  type PendingChangeSet,
  type UndoPlan,
  type UndoResult,
  type UndoTarget,
  undoAuditEntry,
  undoNote,
} from './checkpoints.js';
export {
  ConfigError,
  type ConfigFile,
  type ConfigLayer,
  configJsonSchema,
  configSchema,
  environmentLayer,
  type LoadConfigOptions,
  loadConfig,
  mergeLayers,
  type ProjectTrust,
  type ResolvedConfig,
  type ResolvedTelemetry,
  readConfigFile,
} from './config.js';
export {
  createDecisionExporter,
  type DecisionExporter,
  type DecisionExporterOptions,
} from './telemetry-export.js';
export { decisionAttributes, decisionOutcome } from './telemetry-attributes.js';
export {
  loadManagedPolicy,
  MANAGED_POLICY_PATH,
  MANAGED_POLICY_VARIABLE,
  type ManagedPolicy,
  ManagedPolicyError,
  managedPolicySchema,
  underManagedPolicy,
} from './managed-policy.js';
export type { AgentEvent, ApprovalAnswer, ApprovalRequest, Confirmer, ToolCallState, TurnEndReason } from './events.js';
export {
  createGatedExecutor,
  EXECUTOR_DEFAULT_POLICY,
  type GateContext,
  type GatedCallOutcome,
  type GatedCallState,
  type GatedExecutor,
  type GatedExecutorOptions,
  runGatedToolCall,
  type ToolCallInput,
  type ToolSource,
} from './gated-executor.js';
export {
  configDirectory,
  projectConfigPath,
  projectPromptsDirectory,
  projectSettingsDirectory,
  stateDirectory,
  userConfigPath,
  userPromptsDirectory,
} from './paths.js';
export {
  isStricterMode,
  isTrustedProject,
  realDirectory,
  restrictUntrustedProject,
  UNTRUSTED_PROJECT_FIELDS,
} from './project-trust.js';
export { addTrustedProject, listTrustedProjects, removeTrustedProject, type TrustChange } from './trust-store.js';
export { COMPACT_AT, compactionCut, KEPT_TURNS, SUMMARY_OPENING } from './compaction.js';
export { listModels, MODEL_LIST_TIMEOUT_MS, type ModelList } from './model-list.js';
export { describeProviderError, type ProviderErrorKind, type ProviderProblem } from './provider-errors.js';
export {
  createOutputGuard,
  type GuardResult,
  guardToolResult,
  type OutputGuard,
  type OutputGuardOptions,
  withheldMarker,
  withheldOriginal,
} from './output-guard.js';
export { ToolRegistry } from './registry.js';
export {
  INTERRUPTED_RESULT,
  INTERRUPTED_RUNNING_RESULT,
  type LoadedTranscript,
  listSessions,
  type Message,
  readTranscript,
  type SessionMeta,
  type SessionSummary,
  TranscriptWriter,
} from './transcript.js';
export { DEFAULT_CONTEXT_TOKENS, estimateTokens, TRIMMED_RESULT, trimToBudget } from './context-budget.js';
export { addUsage, type ProviderUsage, readUsage } from './usage.js';
export {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_REPLY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_WAIT_MS,
  planRetry,
  type ReplyLimits,
  type RetryLimits,
  serverWaitMs,
} from './model-wait.js';
