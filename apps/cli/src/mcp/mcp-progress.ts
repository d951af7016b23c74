import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '@riskgate/core';

/** How often a call that carries a progress token is reported while it runs. */
export const PROGRESS_INTERVAL_MS = 1000;

export interface ProgressReporter {
  /** The gate's events for this call: output lines are counted, a confirmation is named. */
  readonly onEvent: (event: AgentEvent) => void;
  /** The call ended: no notification is sent after this. */
  stop(): void;
}

/**
 * `notifications/progress` for one tools/call that carried `_meta.progressToken`: every second
 * while it runs, the seconds so far (always rising, as MCP requires) and the output lines so far
 * (a command's, streamed by the tool), or that it waits for the person's confirmation.
 */
export function reportProgress(
  token: string | number,
  send: (notification: ServerNotification) => Promise<void>,
  interval = PROGRESS_INTERVAL_MS,
): ProgressReporter {
  const started = performance.now();
  let lines = 0;
  let waiting = false;
  let stopped = false;
  let last = 0;
  const tick = () => {
    if (stopped) return;
    // Strictly rising, even when two ticks land in the same tenth of a second.
    const seconds = Math.max(Math.round((performance.now() - started) / 100) / 10, last + 0.1);
    last = Math.round(seconds * 10) / 10;
    const message = waiting
      ? `waiting for the person's confirmation (${last.toFixed(1)} s)`
      : `running for ${last.toFixed(1)} s; ${lines} line${lines === 1 ? '' : 's'} of output so far`;
    void send({ method: 'notifications/progress', params: { progressToken: token, progress: last, message } }).catch(
      () => undefined,
    );
  };
  const timer = setInterval(tick, interval);
  timer.unref();
  return {
    onEvent(event) {
      if (event.type === 'tool-output') lines += countNewlines(event.chunk);
      else if (event.type === 'tool-state') waiting = event.state === 'awaiting-approval';
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
