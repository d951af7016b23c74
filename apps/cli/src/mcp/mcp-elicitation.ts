import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import type { OperationDescription } from '@riskgate/risk';

/** How long a confirmation may wait for the person at the client (an MCP request's own default is 60 s). */
const CONFIRMATION_TIMEOUT_MS = 15 * 60_000;

/** As the SDK's client decides it: an empty elicitation capability means form mode. */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

export async function askThroughElicitation(
  server: Server,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const question = request.question.replace(/\s*\[y\/N\]$/, '');
  const result = await server.elicitInput(
    {
      mode: 'form',
      message: elicitationMessage(request),
      requestedSchema: {
        type: 'object',
        properties: {
          approve: {
            type: 'boolean',
            title: question,
            description: 'Yes runs it as shown; no refuses it.',
            default: false,
          },
        },
        required: ['approve'],
      },
    },
    { signal, timeout: CONFIRMATION_TIMEOUT_MS },
  );
  if (result.action === 'accept' && result.content?.approve === true) return { type: 'approve' };
  // A "no" and a declined form are the person's answer; a form closed unanswered is no consent.
  return result.action === 'cancel'
    ? { type: 'deny', refusal: 'the confirmation was closed without an answer' }
    : { type: 'deny' };
}

/** What the person reads before answering: the operation in full, then why riskgate asks. */
export function elicitationMessage(request: ApprovalRequest): string {
  const lines = [
    `riskgate: ${request.toolName} wants to run this, and it needs your confirmation.`,
    '',
    ...operationLines(request.description),
    '',
  ];
  lines.push('Why it asks:', ...request.decision.reasons.map((reason) => `  - ${reason}`));
  return lines.join('\n');
}

function operationLines(description: OperationDescription): string[] {
  const details = description.details.map((detail) => `  ${detail}`);
  switch (description.kind) {
    case 'sql':
      return [description.sql, ...details];
    case 'command':
      return [`$ ${description.command}`, `  (in ${description.cwd})`, ...details];
    case 'file':
      return [
        `${description.operation} ${description.path}`,
        ...(description.diff === undefined ? [] : [description.diff]),
        ...details,
      ];
    case 'http':
      return [
        description.requestLine,
        ...description.headers.map((header) => `  ${header}`),
        ...(description.bodyPreview === undefined ? [] : [description.bodyPreview]),
        ...details,
      ];
    case 'generic':
      return [description.summary, ...details];
    default: {
      const unreachable: never = description;
      return [String(unreachable)];
    }
  }
}
