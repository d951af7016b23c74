import { homedir } from 'node:os';
import { join } from 'node:path';

type Environment = Readonly<Record<string, string | undefined>>;

/** `$XDG_CONFIG_HOME/riskgate` (~/.config/riskgate): config.json and prompts/. */
export function configDirectory(env: Environment = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'riskgate');
}

/** The person's own config file; the only place workspace trust is recorded. */
export function userConfigPath(env: Environment = process.env): string {
  return join(configDirectory(env), 'config.json');
}

/** The person's own prompt overrides. */
export function userPromptsDirectory(env: Environment = process.env): string {
  return join(configDirectory(env), 'prompts');
}

/** `$XDG_STATE_HOME/riskgate` (~/.local/state/riskgate): sessions/ and audit.jsonl. */
export function stateDirectory(env: Environment = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'riskgate');
}

/** A project's own folder: config.json and prompts/ that apply fully only once trusted. */
export function projectSettingsDirectory(projectDirectory: string): string {
  return join(projectDirectory, '.riskgate');
}

export function projectConfigPath(projectDirectory: string): string {
  return join(projectSettingsDirectory(projectDirectory), 'config.json');
}

export function projectPromptsDirectory(projectDirectory: string): string {
  return join(projectSettingsDirectory(projectDirectory), 'prompts');
}
