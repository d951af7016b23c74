import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

function inline(text: string, key: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, index) => {
    const id = `${key}-${index}`;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <Text key={id} color="cyan">{part.slice(1, -1)}</Text>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <Text key={id} bold>{part.slice(2, -2)}</Text>;
    return <Text key={id}>{part}</Text>;
  });
}

/** The Markdown a model writes, in the terminal: headings, lists, code blocks, `code`, **bold**. */
export function Markdown({ text }: { readonly text: string }) {
  const blocks: ReactNode[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith('```')) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.startsWith('```')) code.push(lines[index++]!);
      blocks.push(
        <Box key={index} paddingLeft={2}>
          <Text color="yellow">{code.join('\n')}</Text>
        </Box>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      blocks.push(<Text key={index} bold underline>{heading[2]}</Text>);
      continue;
    }
    const bullet = /^(\s*)[-*]\s+(.*)$/.exec(line);
    if (bullet !== null) {
      blocks.push(<Text key={index}>{`${bullet[1]}• `}{inline(bullet[2]!, String(index))}</Text>);
      continue;
    }
    blocks.push(<Text key={index}>{inline(line, String(index))}</Text>);
  }
  return <Box flexDirection="column">{blocks}</Box>;
}
