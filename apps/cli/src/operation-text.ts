// Types only: use-approval (on the TUI's start path) imports narrowestRule from here, and a value
// from @riskgate/risk would load the gate's modules before the first frame.
import type { Decision } from '@riskgate/risk';

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

/** A call's title as the history and headless output show it: cut at SUMMARY_SHOWN_CHARS, with a count of what was cut. */
export function shownTitle(title: string): string {
  if (title.length <= SUMMARY_SHOWN_CHARS) return title;
  return `${title.slice(0, SUMMARY_SHOWN_CHARS)}… (${(title.length - SUMMARY_SHOWN_CHARS).toLocaleString('en-US')} more characters not shown)`;
}
