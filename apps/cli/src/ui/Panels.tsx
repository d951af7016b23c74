import type { ApprovalAnswer, SessionSummary } from '@riskgate/core';
import type { OpenRequest } from './commands.js';
import type { Pending } from './use-approval.js';
import type { Views } from './use-session.js';

/** A picker open over the prompt: earlier conversations (/resume) or the endpoint's models (/model). */
export type Picker =
  | { readonly kind: 'sessions'; readonly sessions: readonly SessionSummary[] }
  | {
      readonly kind: 'models';
      readonly models: readonly string[];
      readonly current: string;
      readonly pick: (model: string) => void;
    };

/**
 * The panels that take the keys from the prompt: the approval the gate waits for, and the
 * picker of earlier conversations (/resume). Both show once their views have loaded.
 */
export function Panels({
  views,
  pending,
  suggested,
  answer,
  guardMs,
  picker,
  setPicker,
  switchTo,
}: {
  readonly views: Views | undefined;
  readonly pending: Pending | undefined;
  readonly suggested: string | undefined;
  readonly answer: (reply: ApprovalAnswer) => void;
  readonly guardMs: number | undefined;
  readonly picker: Picker | undefined;
  readonly setPicker: (picker: Picker | undefined) => void;
  readonly switchTo: (request: OpenRequest) => Promise<void>;
}) {
  return (
    <>
      {pending === undefined || views === undefined ? null : (
        <views.ConfirmPanel
          key={pending.request.toolCallId}
          request={pending.request}
          {...(suggested === undefined ? {} : { suggestedRule: suggested })}
          onAnswer={answer}
          {...(guardMs === undefined ? {} : { guardMs })}
        />
      )}
      {picker?.kind !== 'models' || views === undefined ? null : (
        <views.ModelPicker
          models={picker.models}
          current={picker.current}
          onPick={(model) => {
            setPicker(undefined);
            picker.pick(model);
          }}
          onCancel={() => setPicker(undefined)}
        />
      )}
      {picker?.kind !== 'sessions' || views === undefined ? null : (
        <views.SessionPicker
          sessions={picker.sessions}
          onPick={(picked) => {
            setPicker(undefined);
            void switchTo({ kind: picked.kind, resume: picked.id });
          }}
          onCancel={() => setPicker(undefined)}
        />
      )}
    </>
  );
}
