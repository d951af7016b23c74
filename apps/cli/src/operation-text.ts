import { type Decision, disagreementText } from '@riskgate/risk';

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
  const finding = decision.findings[0] ?? '';
  const disagreement =
    decision.source === 'llm'
      ? disagreementText(decision)
      : `${who}, but the code rated it ${decision.codeLevel ?? 'unknown'}`;
  return {
    text: `ran without asking: ${disagreement}${finding === '' ? '' : ` (${finding})`}`,
    warning: true,
  };
}
