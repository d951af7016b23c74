import type { ApprovalAnswer } from '@riskgate/core';
import { useInput } from 'ink';
import { type RefObject, useRef } from 'react';
import type { Pending } from './use-approval.js';
import type { Session } from '../session/create-session.js';
import type { Notice } from './use-conversation.js';
import type { Views } from './use-session.js';

/** What the app-wide keys act on. */
export interface KeyParts {
  readonly controller: RefObject<AbortController | undefined>;
  readonly pending: Pending | undefined;
  readonly answer: (reply: ApprovalAnswer) => void;
  readonly input: string;
  readonly setInput: (value: string) => void;
  readonly exitWindowMs: number;
  readonly exit: () => void;
  readonly notice: Notice;
  /** Told when Esc or Ctrl-C stops what runs. */
  readonly interrupted?: () => void;
}

/** Ctrl-C and Esc, read whichever panel is active. */
export function useKeys({
  controller,
  pending,
  answer,
  input,
  setInput,
  exitWindowMs,
  exit,
  notice,
  interrupted,
}: KeyParts): void {
  const lastCtrlC = useRef(0);
  // Ctrl-C cancels what runs, not the session; twice at an empty prompt exits. Esc interrupts
  // the model or a running tool (in a panel, Esc is the panel's "no").
  useInput((typed, key) => {
    if (key.escape && pending === undefined && controller.current !== undefined) {
      controller.current.abort();
      interrupted?.();
      return;
    }
    if (!(key.ctrl && typed === 'c')) return;
    if (controller.current !== undefined) {
      controller.current.abort();
      interrupted?.();
      if (pending !== undefined) answer({ type: 'deny', note: 'cancelled' });
      return;
    }
    if (input !== '') {
      setInput('');
      return;
    }
    const now = Date.now();
    if (now - lastCtrlC.current < exitWindowMs) {
      exit();
      return;
    }
    lastCtrlC.current = now;
    notice('press Ctrl-C again to exit');
  });
}

/** Shift+Tab: the next safety mode (smart → strict → guarded; never yolo, never below a managed floor). */
export function useModeHotkey({
  session,
  views,
  setSession,
  notice,
  isActive,
}: {
  readonly session: Session | undefined;
  readonly views: Views | undefined;
  readonly setSession: (session: Session) => void;
  readonly notice: Notice;
  readonly isActive: boolean;
}): void {
  useInput(
    (_typed, key) => {
      if (key.tab && key.shift && session !== undefined && views !== undefined)
        views.cycleMode({ session, setSession, notice });
    },
    { isActive },
  );
}
