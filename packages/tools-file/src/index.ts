export {
  createFileOperationsTool,
  FILE_OPERATIONS,
  FILE_TOOL_NAME,
  type FileData,
  type FileOperationsArgs,
  type FileToolOptions,
  fileOperationsParameters,
  type ListEntry,
} from './file-operations-tool.js';
export { expandHome, type ResolvedPath, resolvePath } from './paths.js';
