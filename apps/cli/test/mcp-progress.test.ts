import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_INTERVAL_MS, reportProgress } from '../src/mcp/mcp-progress.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progress of one tools/call', () => {
  it('reports every second with rising progress and the lines so far, and nothing after it ends', () => {
    const sent: ServerNotification[] = [];
    const reporter = reportProgress('token-1', async (notification) => {
      sent.push(notification);
    });
    reporter.onEvent({ type: 'tool-output', toolCallId: 'c', chunk: 'one\ntwo\nthr' });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    reporter.onEvent({ type: 'tool-output', toolCallId: 'c', chunk: 'ee\n' });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent.map((notification) => notification.params)).toEqual([
      { progressToken: 'token-1', progress: 1, message: 'running for 1.0 s; 2 lines of output so far' },
      { progressToken: 'token-1', progress: 2, message: 'running for 2.0 s; 3 lines of output so far' },
    ]);
    reporter.stop();
    vi.advanceTimersByTime(5 * PROGRESS_INTERVAL_MS);
    expect(sent).toHaveLength(2);
  });

  it('names the wait for the person, and goes on rising', () => {
    const sent: ServerNotification[] = [];
    const reporter = reportProgress(7, async (notification) => {
      sent.push(notification);
    });
    reporter.onEvent({ type: 'tool-state', toolCallId: 'c', state: 'awaiting-approval' });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    reporter.onEvent({ type: 'tool-state', toolCallId: 'c', state: 'executing' });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    reporter.stop();
    expect(sent.map((notification) => (notification.params as { message: string }).message)).toEqual([
      "waiting for the person's confirmation (1.0 s)",
      'running for 2.0 s; 0 lines of output so far',
    ]);
  });
});
