import { Text } from 'ink';
import { highlightShell, highlightSql, type Token } from './highlight.js';

const COLOURS: Record<Token['kind'], string | undefined> = {
  keyword: 'magenta',
  string: 'green',
  number: 'yellow',
  command: 'cyan',
  option: 'yellow',
  operator: 'red',
  plain: undefined,
};

export function Highlighted({ text, language }: { readonly text: string; readonly language: 'sql' | 'shell' }) {
  const tokens = language === 'sql' ? highlightSql(text) : highlightShell(text);
  return (
    <Text>
      {tokens.map((token, index) => {
        const colour = COLOURS[token.kind];
        return colour === undefined ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity beyond their place.
          <Text key={index}>{token.text}</Text>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity beyond their place.
          <Text key={index} color={colour} bold={token.kind === 'keyword' || token.kind === 'command'}>
            {token.text}
          </Text>
        );
      })}
    </Text>
  );
}
