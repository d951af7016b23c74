import type { AgentEvent } from '@riskgate/core';

/** A retry the person sees, in the TUI and headless alike: why, how long, which attempt. */
export function retryText(event: Extract<AgentEvent, { type: 'retry' }>): string {
  const seconds = Math.max(1, Math.round(event.waitMs / 1000));
  return `${event.reason} — retrying in ${seconds} s (attempt ${event.attempt} of ${event.maxRetries})`;
}
