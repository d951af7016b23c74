import { Box, Text } from 'ink';
import type { InputHistory } from './input-history.js';
import { TextInput } from './TextInput.js';

/** A queued message in one line: its first line, cut to fit. */
function queuedLine(text: string, width: number): string {
  const first = text.split('\n')[0] ?? '';
  const room = Math.max(10, width - 12);
  const more = text.includes('\n') ? ' …' : '';
  return first.length + more.length > room ? `${first.slice(0, room - 1)}…` : `${first}${more}`;
}

/**
 * The "›" prompt; it reads keys only while no panel is open. What is sent while the model works
 * waits in the queue shown under it (use-queue.ts).
 */
export function Prompt({
  value,
  onChange,
  onSubmit,
  onEndOfInput,
  history,
  isActive,
  busy,
  queued = [],
  onRecall,
  width = 100,
  onEditorError,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onEndOfInput: () => void;
  readonly history: InputHistory | undefined;
  readonly isActive: boolean;
  readonly busy: boolean;
  readonly queued?: readonly string[];
  readonly onRecall?: () => string | undefined;
  readonly width?: number;
  /** Where a failed Ctrl-G ($EDITOR) is told. */
  readonly onEditorError?: (message: string) => void;
}) {
  return (
    <Box flexDirection="column">
      <Box>
        <Text color="blue" bold>
          {'› '}
        </Text>
        <TextInput
          value={value}
          onChange={onChange}
          onSubmit={onSubmit}
          onEndOfInput={onEndOfInput}
          {...(history === undefined ? {} : { history })}
          {...(onRecall === undefined ? {} : { onRecall })}
          {...(onEditorError === undefined ? {} : { onEditorError })}
          isActive={isActive}
          placeholder={busy ? '' : 'Ask anything, or /help'}
        />
      </Box>
      {queued.map((text, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue's order is its identity; equal texts may repeat.
        <Text key={index} dimColor>
          {'  queued: '}
          {queuedLine(text, width)}
        </Text>
      ))}
      {queued.length === 0 ? null : (
        <Text dimColor>{'  (sent when the model is done; ↑ on an empty prompt edits)'}</Text>
      )}
    </Box>
  );
}
