import { Box, Text } from 'ink';
import { lexer, type Token, type Tokens } from 'marked';
import type { ReactNode } from 'react';
import stringWidth from 'string-width';
import { Highlighted } from './Highlighted.js';

// The Markdown a model writes, through marked's lexer (CommonMark and GitHub's tables), drawn
// with Ink: what the lexer does not know is shown as the model wrote it, never dropped.

/** The characters a run of inline tokens shows: what table columns are measured by. */
function plain(tokens: readonly Token[] | undefined, fallback: string): string {
  if (tokens === undefined || tokens.length === 0) return fallback;
  return tokens.map((token) => plainOne(token)).join('');
}

function plainOne(token: Token): string {
  switch (token.type) {
    case 'link': {
      const link = token as Tokens.Link;
      const text = plain(link.tokens, link.text);
      return text === link.href ? text : `${text} (${link.href})`;
    }
    case 'br':
      return ' ';
    case 'image':
      return `[image: ${(token as Tokens.Image).text}]`;
    default:
      return 'tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0
        ? plain(token.tokens as Token[], '')
        : ((token as { text?: string }).text ?? token.raw);
  }
}

function inline(tokens: readonly Token[] | undefined, fallback: string, key: string): ReactNode[] {
  if (tokens === undefined || tokens.length === 0) return [<Text key={key}>{fallback}</Text>];
  return tokens.map((token, index) => inlineOne(token, `${key}.${index}`));
}

function inlineOne(token: Token, key: string): ReactNode {
  switch (token.type) {
    case 'strong':
      return (
        <Text key={key} bold>
          {inline((token as Tokens.Strong).tokens, token.text, key)}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {inline((token as Tokens.Em).tokens, token.text, key)}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {inline((token as Tokens.Del).tokens, token.text, key)}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color="cyan">
          {(token as Tokens.Codespan).text}
        </Text>
      );
    case 'link': {
      const link = token as Tokens.Link;
      const text = plain(link.tokens, link.text);
      // The address is printed: a terminal cannot be trusted to show where a styled link goes.
      return (
        <Text key={key}>
          <Text color="blue" underline>
            {inline(link.tokens, link.text, key)}
          </Text>
          {text === link.href ? '' : <Text dimColor>{` (${link.href})`}</Text>}
        </Text>
      );
    }
    case 'br':
      return <Text key={key}>{'\n'}</Text>;
    case 'text':
    case 'escape':
    case 'html':
    case 'image':
      return 'tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0 ? (
        <Text key={key}>{inline(token.tokens as Token[], '', key)}</Text>
      ) : (
        <Text key={key}>{plainOne(token)}</Text>
      );
    default:
      return <Text key={key}>{token.raw}</Text>;
  }
}

function Table({ table }: { readonly table: Tokens.Table }) {
  const header = table.header.map((cell) => plain(cell.tokens, cell.text));
  const rows = table.rows.map((row) => row.map((cell) => plain(cell.tokens, cell.text)));
  // Terminal cells, not characters: CJK and emoji take two columns.
  const widths = header.map((text, column) =>
    Math.max(stringWidth(text), ...rows.map((row) => stringWidth(row[column] ?? '')), 1),
  );
  const pad = (text: string, column: number) => {
    const space = widths[column]! - stringWidth(text);
    const align = table.align[column];
    if (align === 'right') return [' '.repeat(space), ''];
    if (align === 'center') return [' '.repeat(Math.floor(space / 2)), ' '.repeat(Math.ceil(space / 2))];
    return ['', ' '.repeat(space)];
  };
  const line = (cells: readonly Tokens.TableCell[], texts: readonly string[], key: string, bold: boolean) => (
    <Text key={key} bold={bold}>
      {widths.map((_, column) => {
        const [before, after] = pad(texts[column] ?? '', column);
        const cell = cells[column];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a column is its place.
          <Text key={column}>
            {column === 0 ? '' : ' │ '}
            {before}
            {cell === undefined ? '' : inline(cell.tokens, cell.text, `${key}.${column}`)}
            {after}
          </Text>
        );
      })}
    </Text>
  );
  return (
    <Box flexDirection="column">
      {line(table.header, header, 'h', true)}
      <Text dimColor>{widths.map((width) => '─'.repeat(width)).join('─┼─')}</Text>
      {table.rows.map((row, index) => line(row, rows[index]!, `r${index}`, false))}
    </Box>
  );
}

function List({ list }: { readonly list: Tokens.List }) {
  const start = typeof list.start === 'number' ? list.start : 1;
  return (
    <Box flexDirection="column">
      {list.items.map((item, index) => {
        const marker = `${item.task ? (item.checked ? '[x]' : '[ ]') : list.ordered ? `${start + index}.` : '•'} `;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: an item is its place.
          <Box key={index}>
            <Text>{marker}</Text>
            <Box flexDirection="column">
              {blocks(
                item.tokens.filter((token) => token.type !== 'checkbox' && token.type !== 'space'),
                `i${index}`,
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

function block(token: Token, key: string): ReactNode {
  switch (token.type) {
    case 'space':
      // A blank line between blocks, as written.
      return <Text key={key}> </Text>;
    case 'heading': {
      const heading = token as Tokens.Heading;
      return (
        <Text key={key} bold underline={heading.depth <= 2} color={heading.depth === 1 ? 'magenta' : undefined}>
          {inline(heading.tokens, heading.text, key)}
        </Text>
      );
    }
    case 'paragraph':
      return <Text key={key}>{inline((token as Tokens.Paragraph).tokens, token.text, key)}</Text>;
    case 'text': {
      // A tight list item's text: inline tokens, or plain text.
      const text = token as Tokens.Text;
      return <Text key={key}>{inline(text.tokens, text.text, key)}</Text>;
    }
    case 'code': {
      const code = token as Tokens.Code;
      const language = code.lang?.toLowerCase();
      return (
        <Box key={key} paddingLeft={2}>
          {language === 'sql' ? (
            <Highlighted text={code.text} language="sql" />
          ) : language === 'sh' || language === 'bash' || language === 'shell' ? (
            <Highlighted text={code.text} language="shell" />
          ) : (
            <Text color="yellow">{code.text}</Text>
          )}
        </Box>
      );
    }
    case 'blockquote':
      return (
        <Box
          key={key}
          borderStyle="bold"
          borderColor="gray"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          paddingLeft={1}
          flexDirection="column"
        >
          {blocks((token as Tokens.Blockquote).tokens, key)}
        </Box>
      );
    case 'list':
      return <List key={key} list={token as Tokens.List} />;
    case 'table':
      return <Table key={key} table={token as Tokens.Table} />;
    case 'hr':
      return (
        <Text key={key} dimColor>
          {'─'.repeat(40)}
        </Text>
      );
    default:
      // html, def and what marked may add later: as written.
      return <Text key={key}>{token.raw.replace(/\n+$/, '')}</Text>;
  }
}

function blocks(tokens: readonly Token[], key: string): ReactNode[] {
  return tokens.map((token, index) => block(token, `${key}.${index}`));
}

/** The Markdown a model writes, in the terminal. */
export function Markdown({ text }: { readonly text: string }) {
  const tokens = lexer(text);
  while (tokens.at(-1)?.type === 'space') tokens.pop();
  return <Box flexDirection="column">{blocks(tokens, 'm')}</Box>;
}
