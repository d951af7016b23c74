import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import { useEffect, useState } from 'react';
import { narrowestRule } from '../operation-text.js';
import type { Session } from '../session/create-session.js';
import type { TtyConfirmer } from './tty-confirmer.js';

export interface Pending {
  readonly request: ApprovalRequest;
  readonly answer: (reply: ApprovalAnswer) => void;
}

/**
 * The approval the gate waits for (`pending`, shown in a panel), how it is answered, and the
 * "always allow" rule the panel offers for it.
 */
export function useApproval(confirmer: TtyConfirmer, session: Session | undefined) {
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  useEffect(() => {
    confirmer.setHandler((request, answer) => setPending({ request, answer }));
    return () => confirmer.setHandler(undefined);
  }, [confirmer]);
  const answer = (reply: ApprovalAnswer) => {
    pending?.answer(reply);
    setPending(undefined);
  };
  // Strict mode asks about everything, rules or not: offering "always allow" there would be a lie.
  // So would it when the organisation's policy asked: its ask beats every allow rule.
  const suggested =
    pending === undefined ||
    session === undefined ||
    session.agent.currentPolicy.mode === 'strict' ||
    pending.request.decision.managed === true
      ? undefined
      : narrowestRule(pending.request.toolName, pending.request.ruleStyle, pending.request.subjects);
  return { pending, answer, suggested };
}
