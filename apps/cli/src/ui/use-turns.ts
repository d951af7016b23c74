import type { CompactionOutcome } from '@riskgate/core';
import type { Rule } from '@riskgate/risk';
import { type Dispatch, useCallback, useRef, useState } from 'react';
import type { Session } from '../session/create-session.js';
import type { ConversationAction } from './conversation.js';

/** Told on screen: what a compaction did, or why it did not. */
export function compactionText(outcome: CompactionOutcome): string {
  if (!outcome.compacted) return `not compacted: ${outcome.reason}`;
  const size = (tokens: number) => (tokens < 1000 ? `${tokens}` : `${(tokens / 1000).toFixed(1)}k`);
  return `compacted: ${outcome.messages} earlier messages replaced by the model's summary (≈${size(outcome.tokensBefore)} → ≈${size(outcome.tokensAfter)} tokens; the transcript keeps them all)`;
}

/**
 * Before a turn: a compaction still running (/compact) is waited for, and a conversation that
 * fills most of the model's window is compacted first.
 */
async function compactBeforeTurn(session: Session, signal: AbortSignal, dispatch: Dispatch<ConversationAction>) {
  await session.agent.pendingCompaction;
  if (!session.agent.contextLow) return;
  dispatch({ type: 'notice', tone: 'info', text: 'the context is running low: compacting the earlier conversation…' });
  const outcome = await session.agent.compact({ signal });
  dispatch({ type: 'notice', tone: outcome.compacted ? 'info' : 'warning', text: compactionText(outcome) });
}

/**
 * Runs the model's turns: the controller that cancels the running one, and the "always allow"
 * rules granted in this conversation.
 */
export function useTurns(session: Session | undefined, dispatch: Dispatch<ConversationAction>) {
  const [grants, setGrants] = useState<readonly Rule[]>([]);
  const controller = useRef<AbortController | undefined>(undefined);
  const runTurn = useCallback(
    async (text: string) => {
      if (session === undefined) return;
      // What the first call needs loads while the model thinks about this turn.
      session.warmUp();
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'user', text });
      try {
        await compactBeforeTurn(session, abort.signal, dispatch);
        await session.agent.runTurn(text, {
          signal: abort.signal,
          onEvent: (event) => {
            if (event.type === 'rule-added')
              setGrants((current) => [
                ...current,
                ...session.agent.currentPolicy.rules.filter((rule) => rule.text === event.rule).slice(-1),
              ]);
            dispatch({ type: 'event', event, now: Date.now() });
          },
        });
      } catch (error) {
        dispatch({
          type: 'event',
          event: { type: 'error', kind: 'internal', message: (error as Error).message },
          now: Date.now(),
        });
        dispatch({ type: 'event', event: { type: 'turn-end', reason: 'error', text: '' }, now: Date.now() });
      } finally {
        // A queued message may have started the next turn already: its controller stays.
        if (controller.current === abort) controller.current = undefined;
      }
    },
    [session, dispatch],
  );
  return { runTurn, controller, grants, setGrants };
}
