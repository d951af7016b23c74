/// <reference path="./markdown.d.ts" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import riskGuidance from '../templates/risk-guidance.md';
import systemChat from '../templates/system-chat.md';
import systemSql from '../templates/system-sql.md';

/** The templates riskgate ships, by name. */
export const BUILT_IN_PROMPTS: Readonly<Record<string, string>> = {
  'risk-guidance': riskGuidance,
  'system-sql': systemSql,
  'system-chat': systemChat,
};

export type PromptName = keyof typeof BUILT_IN_PROMPTS;

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
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new PromptError(`cannot read prompt override ${path}: ${(error as Error).message}`);
    }
  }
  const builtIn = BUILT_IN_PROMPTS[name];
  if (builtIn === undefined) {
    throw new PromptError(`no prompt template named "${name}"; templates: ${Object.keys(BUILT_IN_PROMPTS).join(', ')}`);
  }
  return { text: builtIn, origin: `built-in ${name}.md` };
}

/**
 * A template by name with `{{> other}}` includes expanded and `{{variables}}` filled. A
 * variable the template uses but the caller did not give is an error naming both.
 */
export function loadPrompt(name: string, variables: Readonly<Record<string, string>> = {}, sources: PromptSources = {}, including: readonly string[] = []): string {
  if (including.includes(name)) throw new PromptError(`prompt templates include each other in a loop: ${[...including, name].join(' → ')}`);
  const { text, origin } = findTemplate(name, sources);
  const expanded = text.replace(INCLUDE, (_whole, included: string) => loadPrompt(included, variables, sources, [...including, name]).trimEnd());
  return expanded.replace(VARIABLE, (_whole, variable: string) => {
    const value = variables[variable];
    if (value === undefined) {
      throw new PromptError(`${origin} uses {{${variable}}}, which is not a known variable here; known: ${Object.keys(variables).join(', ') || 'none'}`);
    }
    return value;
  });
}
