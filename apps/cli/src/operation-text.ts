import type { OperationDescription } from '@riskgate/risk';

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
export function narrowestRule(toolName: string, style: 'text' | 'sql' | 'path' | 'url', subjects: readonly string[]): string | undefined {
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
