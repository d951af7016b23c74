import { terminalText } from '../terminal-text.js';
import { Box, Text } from 'ink';
import type { Item, NoticeTone } from './conversation.js';
import { ReasoningView } from './ReasoningView.js';
import type { Views } from './use-session.js';

const NOTICE_COLOR: Record<NoticeTone, string> = { info: 'gray', warning: 'yellow', error: 'red' };

export function ItemView({
  item,
  width,
  views,
}: {
  readonly item: Item;
  readonly width: number;
  readonly views: Views | undefined;
}) {
  switch (item.kind) {
    case 'user':
      return (
        <Text bold color="blue">
          › {item.text}
        </Text>
      );
    case 'assistant':
      // Answers and tool calls come from turns, which need the session; it is set with the views.
      if (views === undefined) return null;
      return item.question ? (
        <Box borderStyle="single" borderColor="yellow" paddingX={1} flexDirection="column">
          <Text color="yellow" bold>
            The model asks:
          </Text>
          <views.Markdown text={item.text} />
        </Box>
      ) : (
        <views.Markdown text={item.text} />
      );
    case 'tool':
      return views === undefined ? null : <views.ToolView item={item} width={width} />;
    case 'notice':
      // A notice may name files (/undo list): their names' escapes are shown, not obeyed.
      return <Text color={NOTICE_COLOR[item.tone]}>{terminalText(item.text)}</Text>;
    case 'reasoning':
      return <ReasoningView item={item} />;
    default: {
      const unreachable: never = item;
      return <Text>{String(unreachable)}</Text>;
    }
  }
}
