import type { RiskLevel } from '@riskgate/risk';

/** What the assessor found about one statement. */
export interface StatementAnalysis {
  /** The statement normalised (comments out, whitespace collapsed): a rule subject. */
  readonly subject: string;
  readonly readOnly: boolean;
  readonly level: RiskLevel;
  readonly reasons: readonly string[];
  /** For writes that a preview can measure: the table the statement changes. */
  readonly writeTarget?: string;
  /** INSERT, UPDATE, DELETE or MERGE, with no side-effect function: a rolled-back preview is safe. */
  readonly previewable: boolean;
}

export function readStatement(subject: string, reason?: string): StatementAnalysis {
  return { subject, readOnly: true, level: 'low', reasons: reason === undefined ? [] : [reason], previewable: false };
}

export function writeStatement(
  subject: string,
  level: RiskLevel,
  reasons: readonly string[],
  extra: { writeTarget?: string; previewable?: boolean } = {},
): StatementAnalysis {
  return { subject, readOnly: false, level, reasons, previewable: extra.previewable ?? false, ...(extra.writeTarget === undefined ? {} : { writeTarget: extra.writeTarget }) };
}
