import { Box, Text } from 'ink';
import type { InputHistory } from './input-history.js';
import { TextInput } from './TextInput.js';

/** The "›" prompt; it reads keys only while no panel is open, and sends only while no turn runs. */
export function Prompt({
  value,
  onChange,
  onSubmit,
  onEndOfInput,
  history,
  isActive,
  busy,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onEndOfInput: () => void;
  readonly history: InputHistory | undefined;
  readonly isActive: boolean;
  readonly busy: boolean;
}) {
  return (
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
        isActive={isActive}
        canSubmit={!busy}
        placeholder={busy ? '' : 'Ask anything, or /help'}
      />
    </Box>
  );
}
