import { type Decision, type RiskLevel, redactSecrets, redactValue } from '@riskgate/risk';
import { JsonlFile } from './jsonl-file.js';

/**
 * What became of a call. `started` is the write-ahead line written just before a call runs: a
 * `started` line with no later line for the same toolCallId means the session ended while the
 * call ran (it may have partly or wholly run). `unknown` is a call whose connection was lost after
 * the operation was sent: it may have taken effect.
 */
export type AuditOutcome = 'started' | 'succeeded' | 'failed' | 'unknown' | 'denied' | 'cancelled';

/** One line per gated tool call that did not run, two (started, then the outcome) per call that ran. */
export interface AuditEntry {
  readonly time: string;
  readonly session?: string;
  readonly toolCallId: string;
  readonly tool: string;
  /** One line naming what ran (the tool's `title` of the arguments that ran). Absent in older logs. */
  readonly title?: string;
  /** The title of what the model proposed, when the person edited it. */
  readonly proposedTitle?: string;
  /** The arguments that ran (or would have): the person's edit when there was one; secrets redacted. */
  readonly args: unknown;
  /** After an edit (`e`): the arguments the model proposed, which did not run. */
  readonly proposedArgs?: unknown;
  /** The note the person gave with their "no" (`m`). */
  readonly note?: string;
  /** Why no one could consent, when that is why it did not run (headless without a terminal). */
  readonly refusal?: string;
  readonly llmLevel: RiskLevel | null;
  readonly code: { readonly level: RiskLevel | null; readonly whitelisted: boolean };
  readonly decision: {
    readonly action: Decision['action'];
    /** `person`: the person's own act through riskgate (an `/undo`), not a gate decision. */
    readonly source: Decision['source'] | 'person';
    readonly rule?: string;
    /** The organisation's managed policy decided (its rule or its mode floor). */
    readonly managed?: true;
    readonly reasons: readonly string[];
  };
  /** What the operation does, in plain words (secrets redacted). */
  readonly effects: readonly string[];
  /** The model said low and the code found it dangerous. */
  readonly disagreement: boolean;
  /** The person's answer, when asked. */
  readonly answer: 'approve' | 'deny' | 'always' | 'edit' | 'not-asked';
  readonly outcome: AuditOutcome;
  readonly errorCode?: string;
  /** The operation was stopped part-way (a command at its timeout or on a cancel): what it did before stays done. */
  readonly partial?: true;
  /** How long the operation ran (0 when it did not run); the person's answer is not in it. */
  readonly durationMs: number;
  /** When the person was asked: how long they took to answer. */
  readonly waitedMs?: number;
}

export interface AuditLogOptions {
  /** Told once when the log cannot be written (a full or read-only disk); the session goes on. */
  readonly onFault?: (message: string) => void;
  /**
   * Gets every line as written, after redaction: the OpenTelemetry export (telemetry-export.ts)
   * sends exactly what the file holds, so a secret kept out of one is kept out of the other.
   */
  readonly forward?: (entry: AuditEntry) => void;
}

export class AuditLog {
  private readonly file: JsonlFile;
  private readonly forward: ((entry: AuditEntry) => void) | undefined;

  constructor(
    readonly path: string,
    options: AuditLogOptions = {},
  ) {
    this.file = new JsonlFile(path, options.onFault);
    this.forward = options.forward;
  }

  record(entry: AuditEntry): void {
    const redacted: AuditEntry = {
      ...entry,
      ...(entry.title === undefined ? {} : { title: redactSecrets(entry.title) }),
      ...(entry.proposedTitle === undefined ? {} : { proposedTitle: redactSecrets(entry.proposedTitle) }),
      args: redactValue(entry.args),
      ...(entry.proposedArgs === undefined ? {} : { proposedArgs: redactValue(entry.proposedArgs) }),
      ...(entry.note === undefined ? {} : { note: redactValue(entry.note) as string }),
      decision: { ...entry.decision, reasons: redactValue(entry.decision.reasons) as readonly string[] },
      effects: redactValue(entry.effects) as readonly string[],
    };
    this.file.append(redacted);
    try {
      this.forward?.(redacted);
    } catch {
      // An exporter's fault never costs the call or the file's line; the exporter reports its own.
    }
  }
}
