import { Text } from 'ink';

/**
 * One row of a picker (/resume, /model). The chosen row is marked with "> " as well as drawn in
 * reverse video: with NO_COLOR (or a terminal without attributes) chalk drops the reverse video,
 * and the mark is what still shows which row Enter takes.
 */
export function PickerRow({ chosen, text }: { readonly chosen: boolean; readonly text: string }) {
  return (
    <Text>
      {chosen ? '> ' : '  '}
      <Text {...(chosen ? { inverse: true } : {})}>{text}</Text>
    </Text>
  );
}
