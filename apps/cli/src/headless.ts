import { createInterface } from 'node:readline/promises';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest, Confirmer } from '@riskgate/core';
import { confirmationQuestion, describeOperation } from './operation-text.js';
import type { Session } from './session/create-session.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface HeadlessOptions {
  readonly format: OutputFormat;
  /** Approve everything the gate asks about (deny rules still refuse). */
  readonly yes: boolean;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** A terminal to ask on; undefined when there is none (pipes, CI). */
  readonly terminal?: { readonly input: NodeJS.ReadableStream; readonly output: NodeJS.WritableStream };
}

/** A refusal: something needed confirmation and nobody could give it. */
export interface Refusal {
  readonly tool: string;
  readonly operation: string;
  readonly reasons: readonly string[];
}

/**
 * Confirms in headless mode: --yes approves; a terminal gets the specification's question;
 * with neither, the operation is refused and named.
 */
export class HeadlessConfirmer implements Confirmer {
  readonly refusals: Refusal[] = [];

  constructor(private readonly options: Pick<HeadlessOptions, 'yes' | 'stderr' | 'terminal'>) {}

  async confirm(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.options.yes) return { type: 'approve' };
    const operation = describeOperation(request.description);
    if (this.options.terminal === undefined) {
      this.refusals.push({ tool: request.toolName, operation, reasons: request.decision.reasons });
      this.options.stderr.write(
        `riskgate: refused ${request.toolName}: ${operation}\n${effectLines(request.decision)}  why it needs confirmation: ${request.decision.reasons.join('; ')}\n  there is no terminal to ask; run with --yes to allow what needs confirmation\n`,
      );
      return { type: 'deny', note: 'riskgate ran without a terminal and could not ask the person; the operation was refused' };
    }
    const { input, output } = this.options.terminal;
    output.write(`\n${request.toolName}: ${operation}\n${effectLines(request.decision)}  ${request.decision.reasons.join('\n  ')}\n`);
    const readline = createInterface({ input, output });
    try {
      const answer = await readline.question(`${confirmationQuestion(request.toolName)} `, { signal });
      return /^y(es)?$/i.test(answer.trim()) ? { type: 'approve' } : { type: 'deny' };
    } catch {
      return { type: 'deny', note: 'cancelled' };
    } finally {
      readline.close();
    }
  }
}

export interface HeadlessResult {
  readonly exitCode: 0 | 1 | 2;
}

export async function runHeadless(session: Session, prompt: string, confirmer: HeadlessConfirmer, options: HeadlessOptions, signal: AbortSignal): Promise<HeadlessResult> {
  const calls: { tool: string; arguments: string; decision?: unknown; state?: string; result?: string }[] = [];
  const errors: string[] = [];
  let endedOnLine = true;
  let replyEnded = false;
  const onEvent = (event: AgentEvent) => {
    if (options.format === 'stream-json') options.stdout.write(`${JSON.stringify(event)}\n`);
    switch (event.type) {
      case 'text-delta':
        if (options.format === 'text') {
          // A new model reply after tool calls starts on a line of its own.
          if (replyEnded && !endedOnLine) options.stdout.write('\n');
          replyEnded = false;
          options.stdout.write(event.text);
          endedOnLine = event.text.endsWith('\n');
        }
        break;
      case 'tool-call':
        calls.push({ tool: event.toolName, arguments: event.argumentsText });
        break;
      case 'decision': {
        const call = calls.at(-1);
        if (call !== undefined) call.decision = { action: event.decision.action, source: event.decision.source, level: event.decision.level, reasons: event.decision.reasons, effects: event.decision.effects };
        break;
      }
      case 'tool-result': {
        replyEnded = true;
        const call = calls.at(-1);
        if (call !== undefined) {
          call.state = event.state;
          call.result = event.forModel;
        }
        if (options.format === 'text') options.stderr.write(`[${event.toolName}: ${event.state}]\n`);
        break;
      }
      case 'error':
        errors.push(event.message);
        if (options.format !== 'stream-json') options.stderr.write(`riskgate: ${event.message}\n`);
        break;
      default:
        break;
    }
  };
  const outcome = await session.agent.runTurn(prompt, { signal, onEvent });
  if (options.format === 'text' && !endedOnLine) options.stdout.write('\n');
  const exitCode: 0 | 1 | 2 = outcome.reason === 'error' || outcome.reason === 'step-limit' ? 1 : confirmer.refusals.length > 0 || calls.some((call) => call.state === 'denied' && (call.decision as { source?: string } | undefined)?.source === 'rule') ? 2 : 0;
  if (options.format === 'json') {
    options.stdout.write(
      `${JSON.stringify({ text: outcome.text, reason: outcome.reason, toolCalls: calls, refused: confirmer.refusals, errors, exitCode, transcript: session.info.transcriptPath })}\n`,
    );
  }
  return { exitCode };
}

/** What the operation does, one line each, for the person reading headless output. */
function effectLines(decision: { readonly effects: readonly { readonly text: string }[] }): string {
  return decision.effects.map((effect) => `  does: ${effect.text}\n`).join('');
}
