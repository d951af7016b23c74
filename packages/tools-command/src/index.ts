export { loadBashParser } from './bash-parser.js';
export { assessCommand, type CommandAssessment } from './command-assessor.js';
export { type CommandRunResult, type RunCommandOptions, runCommand } from './command-runner.js';
export { COMMAND_WHITELIST } from './command-specs.js';
export { COMMAND_TOOL_NAME, type CommandToolOptions, createExecuteCommandTool, executeCommandParameters } from './execute-command-tool.js';
