export { type BashParser, loadBashParser } from './bash-parser-handle.js';
export { assessCommand, type CommandAssessOptions } from './command-assessor.js';
export { type CommandRunResult, type RunCommandOptions, runCommand } from './command-runner.js';
export {
  COMMAND_TOOL_NAME,
  type CommandToolOptions,
  createExecuteCommandTool,
  executeCommandParameters,
} from './execute-command-tool.js';
// Used on its own, a tool needs two parts of the gate as well: its JSON schema for a model's API
// (with risk_level) and the gate's verdict. Re-exported so an app can install this package alone.
export {
  DEFAULT_POLICY,
  type Decision,
  evaluateToolCall,
  type GatePolicy,
  toolFunctionDefinition,
} from '@riskgate/risk';
export { type ChildEnvironmentOptions, childEnvironment } from './child-environment.js';
export { bubblewrapArguments, type ProbeOptions, probeSandbox, type SandboxStatus } from './sandbox.js';
export { type HostReader, splitHostReader } from './host-reader.js';
export {
  type BoundMechanism,
  cgroupHome,
  DEFAULT_BOUNDS,
  describeBounds,
  probeCgroupHome,
  type ResourceBounds,
} from './resource-bounds.js';
export { prepareFirstRun } from './run-cgroup.js';
export type { LimitHit, LimitKind } from './run-limits.js';
export { type HiddenPath, hiddenPaths } from './sandbox-hidden-paths.js';
