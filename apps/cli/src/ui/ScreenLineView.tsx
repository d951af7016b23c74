import { Text } from 'ink';
import type { ScreenLine, Segment } from './panel-lines.js';

type Style = { color?: string; bold?: boolean; dimColor?: boolean; inverse?: boolean };

const STYLES: Record<NonNullable<Segment['style']>, Style> = {
  keyword: { color: 'magenta', bold: true },
  string: { color: 'green' },
  number: { color: 'yellow' },
  command: { color: 'cyan', bold: true },
  option: { color: 'yellow' },
  operator: { color: 'red' },
  added: { color: 'green' },
  removed: { color: 'red' },
  hunk: { dimColor: true },
  dim: { dimColor: true },
  bold: { bold: true },
  detail: { color: 'cyan' },
  // A control or invisible character shown as its code: marked so it never reads as typed text.
  escaped: { color: 'red', inverse: true },
  warn: { color: 'yellow' },
  danger: { color: 'red' },
};

/** One wrapped screen line of styled segments; an empty line keeps its row. */
export function ScreenLineView({ line }: { readonly line: ScreenLine }) {
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text>
      {line.map((segment, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional.
        <Text key={index} {...(segment.style === undefined ? {} : STYLES[segment.style])}>
          {segment.text}
        </Text>
      ))}
    </Text>
  );
}
