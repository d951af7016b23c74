import { readdirSync, realpathSync } from 'node:fs';
import { MODE_STRICTNESS, type SafetyMode } from '@riskgate/risk/config';
import type { ConfigFile } from './config-schema.js';

/** A project that has not been trusted may move the mode only to the right of the person's own (MODE_STRICTNESS). */
export function isStricterMode(candidate: SafetyMode, than: SafetyMode): boolean {
  return MODE_STRICTNESS.indexOf(candidate) > MODE_STRICTNESS.indexOf(than);
}

type Treatment = 'not-a-setting' | 'stricter-mode-only' | 'ask-and-deny-rules-only' | 'needs-trust';

/**
 * What an untrusted project's config.json may do, one row per top-level field. The type makes
 * a new field in the schema a compile error here until someone decides its row: nothing from a
 * checkout applies by default.
 */
export const UNTRUSTED_PROJECT_FIELDS = {
  // An editor's hint; riskgate never reads it.
  $schema: 'not-a-setting',
  // A checkout may ask for more care (guarded, strict), never for less (yolo, or smart when the person has guarded).
  mode: 'stricter-mode-only',
  // ask and deny rules only add questions and refusals; allow rules would let calls run unasked.
  rules: 'ask-and-deny-rules-only',
  // The model, endpoint and key decide where the conversation and the person's API key go.
  model: 'needs-trust',
  baseURL: 'needs-trust',
  apiKey: 'needs-trust',
  // Limits tune the loop and the tools. Telling a raise from a lowering would need a second copy
  // of every tool's default, so they all wait for trust; none of them is a gate.
  maxSteps: 'needs-trust',
  requestTimeoutMs: 'needs-trust',
  maxRetries: 'needs-trust',
  // sql.database picks what "riskgate sql" opens: a postgres:// URL elsewhere receives the
  // person's PGPASSWORD and PGUSER, a path elsewhere points the model at another file.
  sql: 'needs-trust',
  commands: 'needs-trust',
  // allowLoopback and allowPrivate let requests to this machine and private networks run unasked.
  http: 'needs-trust',
  // Telemetry decides where every decision (and the operations' text) is sent.
  telemetry: 'needs-trust',
  // Trust is read from the person's own file only: a project cannot trust itself.
  trustedProjects: 'needs-trust',
} as const satisfies Record<keyof ConfigFile, Treatment>;

export interface RestrictedProject {
  /** What still applies: ask and deny rules. */
  readonly kept: ConfigFile;
  /** The project's mode when it is stricter than the person's; it then wins over every layer. */
  readonly stricterMode?: SafetyMode;
  /** What was left out, in words for the notice: "mode yolo", "allow rules (2)", "http.allowPrivate". */
  readonly ignored: readonly string[];
}

/** An untrusted project's config cut down to what can only tighten the gate. */
export function restrictUntrustedProject(values: ConfigFile, personMode: SafetyMode): RestrictedProject {
  const ignored: string[] = [];
  let kept: ConfigFile = {};
  let stricterMode: SafetyMode | undefined;
  for (const [field, treatment] of Object.entries(UNTRUSTED_PROJECT_FIELDS) as [keyof ConfigFile, Treatment][]) {
    const value = values[field];
    if (value === undefined) continue;
    switch (treatment) {
      case 'not-a-setting':
        break;
      case 'stricter-mode-only': {
        const mode = value as SafetyMode;
        if (isStricterMode(mode, personMode)) stricterMode = mode;
        else if (mode !== personMode) ignored.push(`mode ${mode}`);
        break;
      }
      case 'ask-and-deny-rules-only': {
        const { allow, ask, deny } = value as NonNullable<ConfigFile['rules']>;
        kept = { rules: { ...(ask === undefined ? {} : { ask }), ...(deny === undefined ? {} : { deny }) } };
        if (allow !== undefined && allow.length > 0) ignored.push(`allow rules (${allow.length})`);
        break;
      }
      case 'needs-trust':
        ignored.push(...fieldNames(field, value));
        break;
      default: {
        const unreachable: never = treatment;
        throw new Error(`no treatment ${String(unreachable)}`);
      }
    }
  }
  return { kept, ignored, ...(stricterMode === undefined ? {} : { stricterMode }) };
}

/** "sql.database" rather than "sql", so the person sees exactly what waits for trust. */
function fieldNames(field: string, value: unknown): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const names = Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([name]) => `${field}.${name}`);
    return names.length > 0 ? names : [];
  }
  return [field];
}

/** The directory's real path (symlinks resolved), or undefined when it does not exist. */
export function realDirectory(directory: string): string | undefined {
  try {
    return realpathSync.native(directory);
  } catch {
    return undefined;
  }
}

/**
 * Trusted means this very folder, by real path, is on the person's list. A trusted parent
 * does not cover a clone below it, and a symlink to a trusted folder is the trusted folder.
 */
export function isTrustedProject(directory: string, trusted: readonly string[]): boolean {
  const real = realDirectory(directory);
  return real !== undefined && trusted.includes(real);
}

/** The `.md` templates in a project's prompts folder: overrides that wait for trust. */
export function listPromptOverrides(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => name.endsWith('.md'))
      .sort();
  } catch {
    // Absent, not a folder or unreadable: nothing would be loaded from it while untrusted.
    return [];
  }
}
