import { Box, Text } from 'ink';
import type { Item } from './conversation.js';

type ReasoningItem = Extract<Item, { kind: 'reasoning' }>;

/** Lines of reasoning shown while it comes. */
const LIVE_LINES = 3;

/**
 * What the model thinks before it answers, dimmed, apart from the answer: its last lines while it
 * comes, then one line (`/view N` opens the whole of it in the pager). The text is kept as the
 * reducer made it (escape sequences shown as codes).
 */
export function ReasoningView({ item }: { readonly item: ReasoningItem }) {
  const lines = item.text.split('\n').filter((line) => line.trim() !== '');
  // Some servers stream a reasoning of blank lines only: nothing to fold.
  if (item.done && lines.length === 0) return null;
  if (item.done) {
    const count = `${lines.length} ${lines.length === 1 ? 'line' : 'lines'}`;
    return (
      <Text dimColor wrap="truncate-end">
        ▸ reasoning ({count}, /view {item.id}): {lines[0]?.trim() ?? ''}
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      <Text dimColor italic>
        reasoning…
      </Text>
      {lines.slice(-LIVE_LINES).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines are redrawn whole, in order
        <Text key={index} dimColor wrap="truncate-end">
          {'  '}
          {line}
        </Text>
      ))}
    </Box>
  );
}
