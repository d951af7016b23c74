import { type Decision, disagreementText } from '@riskgate/risk';

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
