import type { AuditEntry } from './audit.js';

/** What became of a call, in the three words a dashboard groups by. */
export type DecisionOutcome = 'ran' | 'refused' | 'failed';

export function decisionOutcome(entry: AuditEntry): DecisionOutcome {
  switch (entry.outcome) {
    case 'succeeded':
    case 'started':
      return 'ran';
    case 'failed':
    case 'unknown':
      return 'failed';
    case 'denied':
    case 'cancelled':
      return 'refused';
    default: {
      const unreachable: never = entry.outcome;
      throw new Error(`no outcome ${String(unreachable)}`);
    }
  }
}

/** Who made the call's fate: the person (asked), the organisation's policy, or the gate alone. */
function decidedBy(entry: AuditEntry): 'person' | 'organisation-policy' | 'gate' {
  if (entry.answer !== 'not-asked') return 'person';
  return entry.decision.managed === true ? 'organisation-policy' : 'gate';
}

/**
 * The log record's and span's attributes, from the audit line as the audit log writes it: the
 * entry has already been through the audit log's redaction (AuditLog.record), so the operation's
 * text, arguments, reasons and effects carry no secret the file would not.
 */
export function decisionAttributes(entry: AuditEntry): Record<string, string | number | boolean | string[]> {
  return {
    'riskgate.tool.name': entry.tool,
    'riskgate.tool.call_id': entry.toolCallId,
    ...(entry.session === undefined ? {} : { 'riskgate.session.id': entry.session }),
    ...(entry.title === undefined ? {} : { 'riskgate.operation': entry.title }),
    'riskgate.operation.arguments': JSON.stringify(entry.args) ?? '',
    'riskgate.effects': [...entry.effects],
    'riskgate.decision.action': entry.decision.action,
    'riskgate.decision.source': entry.decision.source,
    ...(entry.decision.rule === undefined ? {} : { 'riskgate.decision.rule': entry.decision.rule }),
    'riskgate.decision.managed': entry.decision.managed === true,
    'riskgate.decision.reasons': [...entry.decision.reasons],
    'riskgate.decided_by': decidedBy(entry),
    'riskgate.answer': entry.answer,
    'riskgate.outcome': decisionOutcome(entry),
    'riskgate.outcome.state': entry.outcome,
    ...(entry.errorCode === undefined ? {} : { 'riskgate.error.code': entry.errorCode }),
    'riskgate.risk.model_level': entry.llmLevel ?? 'none',
    'riskgate.risk.code_level': entry.code.level ?? 'none',
    'riskgate.risk.whitelisted': entry.code.whitelisted,
    'riskgate.risk.disagreement': entry.disagreement,
    'riskgate.duration_ms': entry.durationMs,
    ...(entry.waitedMs === undefined ? {} : { 'riskgate.waited_ms': entry.waitedMs }),
  };
}

/** One line for a log viewer: `execute_command rm -rf build: deny by rule → refused`. */
export function decisionBody(entry: AuditEntry): string {
  const by = entry.decision.managed === true ? "your organisation's policy" : entry.decision.source;
  return `${entry.tool} ${entry.title ?? ''}: ${entry.decision.action} by ${by} → ${decisionOutcome(entry)}`;
}
