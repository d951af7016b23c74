import type { Decision, OperationDescription } from '@riskgate/risk';

/** Each tool call moves through these states; the UI switches on them. */
export type ToolCallState =
  | 'validating'
  | 'assessing'
  | 'awaiting-approval'
  | 'executing'
  | 'succeeded'
  | 'failed'
  | 'denied'
  | 'cancelled';

export interface ApprovalRequest {
  readonly toolCallId: string;
  readonly toolName: string;
  /** One line naming the call (the tool's `title`: its SQL, its command, `write notes.txt`). */
  readonly title: string;
  /** The specification's question for this tool: "Execute this query? [y/N]". */
  readonly question: string;
  /** The argument the person may edit (the tool's `editable`), when it is text. */
  readonly editable?: string;
  /** The validated arguments (without risk_level). */
  readonly args: unknown;
  readonly description: OperationDescription;
  readonly decision: Decision;
  /** The operation's parts as rules see them (for offering the narrowest "always allow" rule). */
  readonly subjects: readonly string[];
  /** How this tool's rule patterns read. */
  readonly ruleStyle: 'text' | 'sql' | 'path' | 'url';
  /**
   * What `/undo` could take back, when the call changes something and the host keeps
   * checkpoints: the paths it keeps, and each reason something cannot be undone.
   */
  readonly undo?: { readonly paths: readonly string[]; readonly cannot: readonly string[] };
}

/** The person's answer in a confirmation panel. */
export type ApprovalAnswer =
  | { readonly type: 'approve' }
  /**
   * Not run. `note`: the person's own words for the model. `refusal`: no one could consent (a
   * host without a person to ask, a dialog closed unanswered): why, in words the model, the
   * audit log and /audit all read as a refusal, never as the person's "no".
   */
  | { readonly type: 'deny'; readonly note?: string; readonly refusal?: string }
  /** Approve, and allow operations matching `rule` from now on (a rule such as execute_command(git log *)). */
  | { readonly type: 'always'; readonly rule: string }
  /** Run these arguments instead (the person edited the operation). */
  | { readonly type: 'edit'; readonly args: unknown };

/** The UI is a port: core asks it to confirm. */
export interface Confirmer {
  confirm(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

/** `refusal`: the model declined to answer (OpenAI's `refusal`); its words are the turn's text. */
export type TurnEndReason = 'answered' | 'refusal' | 'step-limit' | 'error' | 'cancelled';

export type AgentEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  /** What the model thinks before it answers (reasoning models); never part of the answer. */
  | { readonly type: 'reasoning-delta'; readonly text: string }
  /** The model declined to answer, in its words (OpenAI's `refusal`), once its reply finished. */
  | { readonly type: 'refusal'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly argumentsText: string;
      /** One line naming the call: the tool's `title` when the arguments are valid, their text otherwise. */
      readonly title: string;
    }
  | { readonly type: 'tool-state'; readonly toolCallId: string; readonly state: ToolCallState }
  | { readonly type: 'decision'; readonly toolCallId: string; readonly toolName: string; readonly decision: Decision }
  | { readonly type: 'tool-approval-request'; readonly request: ApprovalRequest }
  | { readonly type: 'tool-approval-answer'; readonly toolCallId: string; readonly answer: ApprovalAnswer }
  | { readonly type: 'rule-added'; readonly rule: string }
  /** A call brought in content from outside the person's trust; guarded mode stops taking the model's low for the rest of the turn. */
  | { readonly type: 'untrusted-content'; readonly toolCallId: string; readonly source: string }
  | { readonly type: 'tool-output'; readonly toolCallId: string; readonly chunk: string }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly state: 'succeeded' | 'failed' | 'denied' | 'cancelled';
      readonly forModel: string;
      /** The result as it was, for the screen, when the output guard withheld part of it from the model. */
      readonly forPerson?: string;
      readonly data?: unknown;
      /** How long the tool ran: 0 when it did not run; the time the person took to answer is not in it. */
      readonly durationMs: number;
    }
  | { readonly type: 'error'; readonly kind: string; readonly message: string }
  /** A request failed before any reply arrived and is tried again after `waitMs`; the turn's signal ends the wait. */
  | {
      readonly type: 'retry';
      readonly attempt: number;
      readonly maxRetries: number;
      readonly waitMs: number;
      readonly reason: string;
    }
  /**
   * What the provider reported one model request used (its `usage`); `cost` only when the provider
   * reports one (OpenRouter's `usage.cost`). Absent when the endpoint sends no usage.
   */
  | {
      readonly type: 'usage';
      readonly promptTokens: number;
      readonly completionTokens: number;
      readonly totalTokens: number;
      readonly cost?: number;
    }
  /** Old tool results were replaced by a note to keep the conversation within the model's context. */
  | {
      readonly type: 'context-trimmed';
      readonly results: number;
      readonly tokensSaved: number;
      readonly budget: number;
    }
  | { readonly type: 'turn-end'; readonly reason: TurnEndReason; readonly text: string };
