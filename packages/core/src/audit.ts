import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Decision, type RiskLevel, redactValue } from '@riskgate/risk';

/** One line per gated tool call. */
export interface AuditEntry {
  readonly time: string;
  readonly session?: string;
  readonly toolCallId: string;
  readonly tool: string;
  /** The arguments that ran (or would have): the person's edit when there was one; secrets redacted. */
  readonly args: unknown;
  /** After an edit (`e`): the arguments the model proposed, which did not run. */
  readonly proposedArgs?: unknown;
  /** The note the person gave with their "no" (`m`). */
  readonly note?: string;
  readonly llmLevel: RiskLevel | null;
  readonly code: { readonly level: RiskLevel | null; readonly whitelisted: boolean };
  readonly decision: { readonly action: Decision['action']; readonly source: Decision['source']; readonly rule?: string; readonly reasons: readonly string[] };
  /** What the operation does, in plain words (secrets redacted). */
  readonly effects: readonly string[];
  /** The model said low and the code found it dangerous. */
  readonly disagreement: boolean;
  /** The person's answer, when asked. */
  readonly answer: 'approve' | 'deny' | 'always' | 'edit' | 'not-asked';
  readonly outcome: 'succeeded' | 'failed' | 'denied' | 'cancelled';
  readonly errorCode?: string;
  /** How long the operation ran (0 when it did not run); the person's answer is not in it. */
  readonly durationMs: number;
  /** When the person was asked: how long they took to answer. */
  readonly waitedMs?: number;
}

export class AuditLog {
  constructor(readonly path: string) {}

  record(entry: AuditEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, `${JSON.stringify({ ...entry, args: redactValue(entry.args), ...(entry.proposedArgs === undefined ? {} : { proposedArgs: redactValue(entry.proposedArgs) }), ...(entry.note === undefined ? {} : { note: redactValue(entry.note) }), decision: { ...entry.decision, reasons: redactValue(entry.decision.reasons) }, effects: redactValue(entry.effects) })}
`, { mode: 0o600 });
  }
}
