import { createInterface } from 'node:readline/promises';
import {
  type AgentEvent,
  addUsage,
  type ApprovalAnswer,
  type ApprovalRequest,
  type Confirmer,
  type ProviderUsage,
} from '@riskgate/core';
import type { Decision } from '@riskgate/risk';
import { foldLines } from './fold.js';
import { retryText } from './retry-text.js';
import { shownTitle } from './operation-text.js';
import { ranUnasked } from './ran-unasked.js';
import type { Session } from './session/create-session.js';
import { terminalText } from './terminal-text.js';

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
  /** Operations the person answered "no" to on the terminal: not run for lack of consent too. */
  readonly declined: Refusal[] = [];

  constructor(private readonly options: Pick<HeadlessOptions, 'yes' | 'stderr' | 'terminal'>) {}

  async confirm(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.options.yes) return { type: 'approve' };
    const operation = request.title.replace(/\s+/g, ' ').trim();
    if (this.options.terminal === undefined) {
      this.refusals.push({ tool: request.toolName, operation, reasons: request.decision.reasons });
      this.options.stderr.write(
        terminalText(
          `riskgate: refused ${request.toolName}: ${operation}\n${effectLines(request.decision)}  why it needs confirmation: ${request.decision.reasons.join('; ')}\n  there is no terminal to ask; run with --yes to allow what needs confirmation\n`,
        ),
      );
      return {
        type: 'deny',
        refusal: 'riskgate ran without a terminal, so no one could be asked',
      };
    }
    const { input, output } = this.options.terminal;
    output.write(
      terminalText(
        `\n${request.toolName}: ${operation}\n${effectLines(request.decision)}${undoText(request.undo)}  ${request.decision.reasons.join('\n  ')}\n`,
      ),
    );
    const readline = createInterface({ input, output });
    try {
      const answer = await readline.question(`${request.question} `, { signal });
      if (/^y(es)?$/i.test(answer.trim())) return { type: 'approve' };
      this.declined.push({ tool: request.toolName, operation, reasons: request.decision.reasons });
      return { type: 'deny' };
    } catch {
      return { type: 'deny', note: 'cancelled' };
    } finally {
      readline.close();
    }
  }
}

interface HeadlessCall {
  id: string;
  tool: string;
  /** One line naming the call (the tool's `title`). */
  title: string;
  arguments: string;
  decision?: {
    action: string;
    source: string;
    level: string | null;
    reasons: readonly string[];
    effects: Decision['effects'];
  };
  state?: string;
  /** What the model got. */
  result?: string;
  /** The original with the note of what was withheld from the model, when the output guard withheld something. */
  original?: string;
}

/** Lines of a result headless text mode prints; longer ones are folded and say so. */
const HEADLESS_RESULT_LINES = 12;

/**
 * One operation in headless text mode, on stderr: which tool ran what, why it ran without
 * asking when that is worth saying, its state and its result (folded, never cut silently).
 */
function formatCall(call: HeadlessCall, decision: Decision | undefined): string {
  const unasked = ranUnasked(decision);
  // The person sees the original, with the note of what the model did not get (issue 17).
  const folded = foldLines(call.original ?? call.result ?? '', HEADLESS_RESULT_LINES);
  const indent = (lines: readonly string[]) => lines.map((line) => `    ${line}\n`).join('');
  // Everything here came from the model or a tool: no sequence in it reaches the terminal.
  return terminalText(
    [
      `[${call.tool}] ${shownTitle(call.title).replace(/\s+/g, ' ').trim()}\n`,
      unasked === undefined ? '' : `  ${unasked.warning ? 'warning: ' : ''}${unasked.text}\n${effectLines(decision!)}`,
      `  → ${call.state ?? 'unknown'}\n`,
      indent(folded.head),
      folded.hidden === 0
        ? ''
        : `    … ${folded.hidden.toLocaleString('en-US')} more lines not shown (--output json has them all)\n`,
      indent(folded.tail),
    ].join(''),
  );
}

export interface HeadlessResult {
  readonly exitCode: 0 | 1 | 2;
}

export async function runHeadless(
  session: Session,
  prompt: string,
  confirmer: HeadlessConfirmer,
  options: HeadlessOptions,
  signal: AbortSignal,
): Promise<HeadlessResult> {
  if (session.info.sandboxNotice !== undefined && options.format !== 'stream-json')
    options.stderr.write(`riskgate: ${session.info.sandboxNotice}\n`);
  // A database no --db named is said, so that a script knows which one it ran against (never a password).
  if (session.info.databaseSource !== undefined && options.format !== 'stream-json')
    options.stderr.write(`riskgate: SQL on ${session.info.database} (from ${session.info.databaseSource})\n`);
  // A full or read-only disk: said once on stderr (stream-json readers get it too), and the answer still comes.
  session.storage.listen((message) => options.stderr.write(`riskgate: ${message}\n`));
  const output = new HeadlessOutput(options);
  const outcome = await session.agent.runTurn(prompt, { signal, onEvent: (event) => output.on(event) });
  output.endLine();
  const { calls, errors } = output;
  const deniedByRule = calls.some((call) => call.state === 'denied' && call.decision?.source === 'rule');
  const exitCode: 0 | 1 | 2 =
    outcome.reason === 'error' || outcome.reason === 'step-limit'
      ? 1
      : confirmer.refusals.length > 0 || confirmer.declined.length > 0 || deniedByRule
        ? 2
        : 0;
  // The session id (what --resume takes), the turn's usage summed over its requests, and the
  // cost only as the provider reported it: null when unknown, never estimated (docs/cli.md).
  const { usage, cost } = usageFields(output.usage);
  const summary = { sessionId: session.id, usage, cost };
  if (options.format === 'json') {
    options.stdout.write(
      `${JSON.stringify({ text: outcome.text, reason: outcome.reason, ...summary, reasoning: output.reasoning === '' ? null : output.reasoning, toolCalls: calls, refused: confirmer.refusals, declined: confirmer.declined, errors, exitCode, transcript: session.info.transcriptPath })}\n`,
    );
  }
  if (options.format === 'stream-json')
    options.stdout.write(
      `${JSON.stringify({ type: 'result', text: outcome.text, reason: outcome.reason, ...summary, exitCode, transcript: session.info.transcriptPath })}\n`,
    );
  return { exitCode };
}

/** The JSON's usage and cost: both null when the provider reported no usage. */
function usageFields(usage: ProviderUsage | undefined) {
  if (usage === undefined) return { usage: null, cost: null };
  const { promptTokens, completionTokens, totalTokens, cost } = usage;
  return { usage: { promptTokens, completionTokens, totalTokens }, cost: cost ?? null };
}

/** What a headless run prints as the agent's events arrive, and what it keeps for the JSON. */
class HeadlessOutput {
  readonly calls: HeadlessCall[] = [];
  readonly errors: string[] = [];
  /** The provider's usage, summed over the turn's requests. */
  usage: ProviderUsage | undefined;
  /** What the model thought before it answered, over the turn's replies. */
  reasoning = '';
  private readonly decisions = new Map<string, Decision>();
  private endedOnLine = true;
  private replyEnded = false;

  constructor(private readonly options: HeadlessOptions) {}

  on(event: AgentEvent): void {
    const { options } = this;
    if (options.format === 'stream-json') options.stdout.write(`${JSON.stringify(event)}\n`);
    switch (event.type) {
      case 'text-delta':
        if (options.format === 'text') this.text(event.text);
        break;
      // The answer alone goes to stdout: reasoning is in the JSON (and stream-json's events).
      case 'reasoning-delta':
        this.reasoning += event.text;
        break;
      case 'refusal':
        // A refusal is the model's answer in its words: on stdout as the answer is, and said as what it is.
        if (options.format === 'text') {
          this.text(event.text);
          this.endLine();
          this.endedOnLine = true;
        }
        if (options.format !== 'stream-json') options.stderr.write('riskgate: the model refused to answer\n');
        break;
      case 'tool-call':
        this.calls.push({
          id: event.toolCallId,
          tool: event.toolName,
          title: event.title,
          arguments: event.argumentsText,
        });
        break;
      case 'decision':
        this.decided(event.toolCallId, event.decision);
        break;
      case 'tool-result':
        this.result(event);
        break;
      case 'error':
        this.errors.push(event.message);
        if (options.format !== 'stream-json') options.stderr.write(`riskgate: ${terminalText(event.message)}\n`);
        break;
      case 'usage':
        this.usage = addUsage(this.usage, event);
        break;
      case 'retry':
        if (options.format !== 'stream-json') options.stderr.write(`riskgate: ${retryText(event)} — Ctrl-C to stop\n`);
        break;
      default:
        break;
    }
  }

  /** The answer ends on a line of its own. */
  endLine(): void {
    if (this.options.format === 'text' && !this.endedOnLine) this.options.stdout.write('\n');
  }

  private text(text: string): void {
    // A new model reply after tool calls starts on a line of its own.
    if (this.replyEnded && !this.endedOnLine) this.options.stdout.write('\n');
    this.replyEnded = false;
    this.options.stdout.write(terminalText(text));
    this.endedOnLine = text.endsWith('\n');
  }

  private decided(id: string, decision: Decision): void {
    const call = this.calls.find((candidate) => candidate.id === id);
    if (call === undefined) return;
    const { action, source, level, reasons, effects } = decision;
    call.decision = { action, source, level, reasons, effects };
    this.decisions.set(id, decision);
  }

  private result(event: Extract<AgentEvent, { type: 'tool-result' }>): void {
    this.replyEnded = true;
    const call = this.calls.find((candidate) => candidate.id === event.toolCallId);
    if (call === undefined) return;
    call.state = event.state;
    call.result = event.forModel;
    if (event.forPerson !== undefined) call.original = event.forPerson;
    if (this.options.format !== 'text') return;
    // A reply in progress ends its line first, so the operation stands on lines of its own.
    this.endLine();
    this.endedOnLine = true;
    this.options.stderr.write(formatCall(call, this.decisions.get(event.toolCallId)));
  }
}

/** What the operation does, one line each, for the person reading headless output. */
/** The panel's word on `/undo`, for the terminal's question. */
function undoText(undo: ApprovalRequest['undo']): string {
  if (undo === undefined) return '';
  const kept = undo.paths.length === 0 ? '' : `  /undo can put back: ${undo.paths.join(', ')}\n`;
  return kept + undo.cannot.map((reason) => `  cannot be undone: ${reason}\n`).join('');
}

function effectLines(decision: { readonly effects: readonly { readonly text: string }[] }): string {
  return decision.effects.map((effect) => `  does: ${effect.text}\n`).join('');
}
