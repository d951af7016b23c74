export {
  BUILT_IN_PROMPTS,
  findTemplate,
  loadPrompt,
  PromptError,
  type PromptName,
  type PromptSources,
} from './loader.js';
