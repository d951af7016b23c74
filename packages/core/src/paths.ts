import { homedir } from 'node:os';
import { join } from 'node:path';

type Environment = Readonly<Record<string, string | undefined>>;

/** `$XDG_CONFIG_HOME/riskgate` (~/.config/riskgate): config.json and prompts/. */
export function configDirectory(env: Environment = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'riskgate');
}

/** `$XDG_STATE_HOME/riskgate` (~/.local/state/riskgate): sessions/ and audit.jsonl. */
export function stateDirectory(env: Environment = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'riskgate');
}

export function projectConfigPath(projectDirectory: string): string {
  return join(projectDirectory, '.riskgate', 'config.json');
}

export function projectPromptsDirectory(projectDirectory: string): string {
  return join(projectDirectory, '.riskgate', 'prompts');
}
