import type { Decision, OperationDescription } from '@riskgate/risk';

/** The specification's question, per tool kind. */
export function confirmationQuestion(toolName: string): string {
  switch (toolName) {
    case 'execute_sql':
      return 'Execute this query? [y/N]';
    case 'execute_command':
      return 'Execute this command? [y/N]';
    case 'file_operations':
      return 'Execute this file operation? [y/N]';
    case 'http_request':
      return 'Execute this request? [y/N]';
    default:
      return 'Execute this operation? [y/N]';
  }
}

/** One line naming the operation, for refusals and logs. */
export function describeOperation(description: OperationDescription): string {
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  switch (description.kind) {
    case 'sql':
      return flat(description.sql);
    case 'command':
      return flat(description.command);
    case 'file':
      return `${description.operation} ${description.path}`;
    case 'http':
      return description.requestLine;
    case 'generic':
      return flat(description.summary);
    default: {
      const unreachable: never = description;
      return String(unreachable);
    }
  }
}

/**
 * The narrowest rule that covers exactly this operation, as `a` (always allow) offers it:
 * this exact statement, command, path or request. Undefined when the operation has several
 * parts (no one pattern covers exactly them) or characters a pattern cannot say literally.
 */
export function narrowestRule(
  toolName: string,
  style: 'text' | 'sql' | 'path' | 'url',
  subjects: readonly string[],
): string | undefined {
  if (subjects.length !== 1) return undefined;
  const subject = subjects[0]!;
  if (subject.includes('\n')) return undefined;
  switch (style) {
    case 'text':
    case 'sql':
      return `${toolName}(${subject.replaceAll('*', '\\*')})`;
    case 'path':
      return /[*?]/.test(subject) ? undefined : `${toolName}(${subject})`;
    case 'url':
      return subject.includes('*') ? undefined : `${toolName}(${subject})`;
  }
}

/** Characters of a call's summary shown in the history and headless output; the rest is counted. */
export const SUMMARY_SHOWN_CHARS = 2_000;

/**
 * A call's arguments in one text (its SQL, its command, …), cut at SUMMARY_SHOWN_CHARS with a
 * count of what was cut: a model's huge argument never floods the screen or stderr.
 */
export function argumentsSummary(args: unknown): string {
  const text = fullSummary(args);
  if (text.length <= SUMMARY_SHOWN_CHARS) return text;
  return `${text.slice(0, SUMMARY_SHOWN_CHARS)}… (${(text.length - SUMMARY_SHOWN_CHARS).toLocaleString('en-US')} more characters not shown)`;
}

/** The operation of a call from its arguments (parsed or JSON text): its SQL, command, path or request. */
function fullSummary(args: unknown): string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return value as string;
    }
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.sql === 'string') return record.sql;
  if (typeof record.command === 'string') return record.command;
  if (typeof record.operation === 'string') return `${record.operation} ${String(record.path ?? '')}`;
  if (typeof record.method === 'string') return `${record.method} ${String(record.url ?? '')}`;
  return JSON.stringify(value);
}

/**
 * Why a call ran without a panel, when that is worth saying: undefined for the whitelist (a
 * read-only call) and for calls the person answered. A disagreement — the model rated low
 * what the code found dangerous — is always named, with the code's first finding.
 */
export function ranUnasked(
  decision: Decision | undefined,
): { readonly text: string; readonly warning: boolean } | undefined {
  if (decision === undefined || decision.action !== 'execute' || decision.source === 'whitelist') return undefined;
  const who =
    decision.source === 'llm'
      ? `the model rated it ${decision.llmLevel ?? 'low'}`
      : decision.source === 'rule'
        ? `your rule ${decision.rule ?? ''}`.trim()
        : decision.source === 'mode'
          ? 'yolo mode'
          : decision.source;
  if (!decision.disagreement) return { text: `ran without asking: ${who}`, warning: false };
  const finding =
    decision.reasons.find((reason) => !/^the (model|code)/.test(reason) && !reason.startsWith('running it')) ??
    decision.reasons.at(-1) ??
    '';
  return {
    text: `ran without asking: ${who}, but the code rated it ${decision.codeLevel ?? 'high'}${finding === '' ? '' : ` (${finding})`}`,
    warning: true,
  };
}
