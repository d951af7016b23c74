// What the app shows once its session is open — Markdown (marked), result tables, confirmation
// panels, the session picker, slash commands — loaded after the first frame, with the session:
// the first frame needs only the prompt and the status line (bench/first-frame.mjs).
export { listSessions, stateDirectory } from '@riskgate/core';
export { ConfirmPanel } from './ConfirmPanel.js';
export { cycleMode, runSlashCommand } from './commands.js';
export { Markdown } from './Markdown.js';
export { ModelPicker } from './ModelPicker.js';
export { SessionPicker } from './SessionPicker.js';
export { ToolView } from './ToolView.js';
