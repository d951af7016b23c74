export {
  createFileOperationsTool,
  FILE_OPERATIONS,
  FILE_TOOL_NAME,
  type FileData,
  type FileOperationsArgs,
  type FilePlan,
  type FileToolOptions,
  fileOperationsParameters,
  type ListEntry,
} from './file-operations-tool.js';
export { expandHome } from '@riskgate/risk';
export { type ResolvedPath, resolvePath } from './paths.js';
// Used on its own, a tool needs two parts of the gate as well: its JSON schema for a model's API
// (with risk_level) and the gate's verdict. Re-exported so an app can install this package alone.
export {
  DEFAULT_POLICY,
  type Decision,
  evaluateToolCall,
  type GatePolicy,
  toolFunctionDefinition,
} from '@riskgate/risk';
