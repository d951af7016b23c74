import type { Effect, EffectSeverity } from '@riskgate/risk';

/** What the assessor found about one statement: its effects, described, never judged here. */
export interface StatementAnalysis {
  /** The statement normalised (comments out, whitespace collapsed): a rule subject. */
  readonly subject: string;
  readonly effects: readonly Effect[];
  /** For writes that a preview can measure: the table the statement changes. */
  readonly writeTarget?: string;
  /**
   * INSERT, UPDATE, DELETE or MERGE whose every function the engine vouches for: a rolled-back
   * run cannot act beyond the transaction. Connections add what they know (triggers, defaults).
   */
  readonly previewable: boolean;
  /** Why there is no rolled-back preview ("calls pg_terminate_backend, which a rollback cannot undo"). */
  readonly previewBlocker?: string;
  /** Relations the statement names, for connections that check views, policies and triggers. */
  readonly relations: readonly string[];
}

/** Only non-secret reads of database objects: what may run unasked. */
export function isReadOnly(analysis: StatementAnalysis): boolean {
  return analysis.effects.every((effect) => effect.kind === 'read-db' && effect.secret === undefined);
}

export function statement(
  subject: string,
  effects: readonly Effect[],
  extra: Partial<Omit<StatementAnalysis, 'subject' | 'effects'>> = {},
): StatementAnalysis {
  return { subject, effects, previewable: false, relations: [], ...extra };
}

/** A read of the objects named (or of "the database" when the statement names none). */
export function reads(objects: readonly string[]): Effect[] {
  return objects.length === 0
    ? [{ kind: 'read-db', object: 'the database' }]
    : [...new Set(objects)].map((object) => ({ kind: 'read-db', object }));
}

export function writeDb(object: string, detail: string, severity?: EffectSeverity): Effect {
  return severity === undefined ? { kind: 'write-db', object, detail } : { kind: 'write-db', object, detail, severity };
}

export function unknownEffect(detail: string, severity?: EffectSeverity): Effect {
  return severity === undefined ? { kind: 'unknown', detail } : { kind: 'unknown', detail, severity };
}
