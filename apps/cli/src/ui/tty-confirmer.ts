import type { ApprovalAnswer, ApprovalRequest, Confirmer } from '@riskgate/core';

export type ApprovalHandler = (request: ApprovalRequest, answer: (reply: ApprovalAnswer) => void) => void;

/** Carries the agent's confirmation requests into the Ink app, one at a time. */
export class TtyConfirmer implements Confirmer {
  private handler: ApprovalHandler | undefined;

  setHandler(handler: ApprovalHandler | undefined): void {
    this.handler = handler;
  }

  confirm(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (reply: ApprovalAnswer) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(reply);
      };
      const onAbort = () => settle({ type: 'deny', note: 'cancelled' });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      if (this.handler === undefined) return settle({ type: 'deny', note: 'no panel to ask in' });
      this.handler(request, settle);
    });
  }
}
