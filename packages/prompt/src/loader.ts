import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPLATES_DIRECTORY } from './templates-directory.js';

/** The templates riskgate ships, by name: `templates/<name>.md`. */
export const BUILT_IN_PROMPTS = ['risk-guidance', 'system-sql', 'system-chat'] as const;

export type PromptName = (typeof BUILT_IN_PROMPTS)[number];

export interface PromptSources {
  /** `<project>/.riskgate/prompts`: overrides for one project. Searched first. */
  readonly projectDirectory?: string;
  /** `<config dir>/prompts`: the person's own overrides. */
  readonly userDirectory?: string;
}

export class PromptError extends Error {
  override readonly name = 'PromptError';
}

const INCLUDE = /\{\{>\s*([a-z0-9-]+)\s*\}\}/g;
const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Where a template comes from: an override file, or the built-in one. */
export function findTemplate(name: string, sources: PromptSources = {}): { text: string; origin: string } {
  for (const directory of [sources.projectDirectory, sources.userDirectory]) {
    if (directory === undefined) continue;
    const path = join(directory, `${name}.md`);
    try {
      return { text: readFileSync(path, 'utf8'), origin: path };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new PromptError(`cannot read prompt override ${path}: ${(error as Error).message}`);
    }
  }
  if (!(BUILT_IN_PROMPTS as readonly string[]).includes(name)) {
    throw new PromptError(`no prompt template named "${name}"; templates: ${BUILT_IN_PROMPTS.join(', ')}`);
  }
  // Only the names above reach the file system here, so a name cannot point elsewhere.
  const path = join(TEMPLATES_DIRECTORY, `${name}.md`);
  try {
    return { text: readFileSync(path, 'utf8'), origin: `built-in ${name}.md` };
  } catch (error) {
    throw new PromptError(`cannot read the built-in prompt template ${path}: ${(error as Error).message}`);
  }
}

/**
 * A template by name with `{{> other}}` includes expanded and `{{variables}}` filled. A
 * variable the template uses but the caller did not give is an error naming both.
 */
export function loadPrompt(
  name: string,
  variables: Readonly<Record<string, string>> = {},
  sources: PromptSources = {},
  including: readonly string[] = [],
): string {
  if (including.includes(name))
    throw new PromptError(`prompt templates include each other in a loop: ${[...including, name].join(' → ')}`);
  const { text, origin } = findTemplate(name, sources);
  const expanded = text.replace(INCLUDE, (_whole, included: string) =>
    loadPrompt(included, variables, sources, [...including, name]).trimEnd(),
  );
  return expanded.replace(VARIABLE, (_whole, variable: string) => {
    const value = variables[variable];
    if (value === undefined) {
      throw new PromptError(
        `${origin} uses {{${variable}}}, which is not a known variable here; known: ${Object.keys(variables).join(', ') || 'none'}`,
      );
    }
    return value;
  });
}
