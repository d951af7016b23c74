import { Box, Text } from 'ink';
import type { Item } from './conversation.js';
import { shownTitle } from '../operation-text.js';
import { ranUnasked } from '../ran-unasked.js';
import { Highlighted } from './Highlighted.js';
import { type SqlData, sqlData } from './history-text.js';
import { foldLines } from '../fold.js';
import { Spinner } from './Spinner.js';
import { layoutTable } from './table-layout.js';
import { terminalText } from '../terminal-text.js';

type ToolItem = Extract<Item, { kind: 'tool' }>;

const SHOWN_ROWS = 50;

/** The call's arguments as drawn: a control character the model put in them shows as its code. */
const summary = (item: ToolItem): string => terminalText(shownTitle(item.title));

/** Why this call ran without a panel, when it did not run for being read-only; a disagreement in yellow. */
function Unasked({ item }: { readonly item: ToolItem }) {
  const note = ranUnasked(item.decision);
  if (note === undefined) return null;
  return (
    <Text color={note.warning ? 'yellow' : 'gray'}>
      {note.warning ? '⚠ ' : ''}
      {terminalText(note.text)}
    </Text>
  );
}

/** A result in the history: head and tail, and how many lines between are not shown. */
function FoldedText({ text, id, colour }: { readonly text: string; readonly id: number; readonly colour?: string }) {
  // A tool's result as it came: its escape sequences are shown as codes here, where it is drawn.
  const folded = foldLines(terminalText(text));
  const style = colour === undefined ? { dimColor: true } : { color: colour };
  return (
    <Box flexDirection="column">
      <Text {...style}>{folded.head.join('\n')}</Text>
      {folded.hidden === 0 ? null : (
        <Text color="cyan">
          … {folded.hidden.toLocaleString('en-US')} more {folded.hidden === 1 ? 'line' : 'lines'} not shown · /view {id}{' '}
          shows all
        </Text>
      )}
      {folded.tail.length === 0 ? null : <Text {...style}>{folded.tail.join('\n')}</Text>}
    </Box>
  );
}

/** Lines of an approved diff the history shows before it collapses the rest (/view shows it all). */
export const ASKED_LINES_SHOWN = 12;

/** What the person approved, as the panel showed it (a file's diff), collapsed to its first lines. */
function AskedDiff({ item }: { readonly item: ToolItem }) {
  const asked = item.asked;
  if (asked?.kind !== 'file' || asked.diff === undefined || asked.diff === '') return null;
  const lines = terminalText(asked.diff).replace(/\n$/, '').split('\n');
  const hidden = lines.length - ASKED_LINES_SHOWN;
  return (
    <Box flexDirection="column">
      {lines.slice(0, ASKED_LINES_SHOWN).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional.
        <Text key={index} {...diffStyle(line)}>
          {line === '' ? ' ' : line}
        </Text>
      ))}
      {hidden > 0 ? (
        <Text color="cyan">
          … {hidden.toLocaleString('en-US')} more {hidden === 1 ? 'line' : 'lines'} · /view {item.id} shows all
        </Text>
      ) : null}
    </Box>
  );
}

function diffStyle(line: string): { color?: string; dimColor?: boolean } {
  if (line.startsWith('+') && !line.startsWith('+++')) return { color: 'green' };
  if (line.startsWith('-') && !line.startsWith('---')) return { color: 'red' };
  return { dimColor: true };
}

function SqlResult({ data, width, id }: { readonly data: SqlData; readonly width: number; readonly id: number }) {
  return (
    <Box flexDirection="column">
      {data.statements.map((statement, index) => {
        if (statement.columns.length === 0) {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: statements are in script order.
            <Box key={index} flexDirection="column">
              <Text color="green">
                ✓{' '}
                {statement.affectedRows === null
                  ? 'done'
                  : `${statement.affectedRows.toLocaleString('en-US')} ${statement.affectedRows === 1 ? 'row' : 'rows'} changed`}
              </Text>
              <Text dimColor>{statement.statement}</Text>
            </Box>
          );
        }
        const table = layoutTable(statement.columns, statement.rows, {
          width: Math.max(20, width - 2),
          maxRows: SHOWN_ROWS,
          truncated: statement.truncated,
        });
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: statements are in script order.
          <Box key={index} flexDirection="column">
            {table.kind === 'table' ? <Text bold>{table.header}</Text> : null}
            {table.kind === 'table' ? <Text dimColor>{table.rule}</Text> : null}
            {table.styledRows.map((row, rowIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are in result order.
              <Text key={rowIndex}>
                {row.map((segment, segmentIndex) =>
                  segment.null === true ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional.
                    <Text key={segmentIndex} dimColor>
                      {segment.text}
                    </Text>
                  ) : (
                    segment.text
                  ),
                )}
              </Text>
            ))}
            <Text dimColor>
              {table.footer}
              {table.rows.length < statement.rows.length || statement.truncated ? ` · /view ${id} shows all` : ''}
            </Text>
            <Text dimColor>{statement.statement}</Text>
          </Box>
        );
      })}
    </Box>
  );
}

/** One tool call on screen, by its state. */
export function ToolView({ item, width }: { readonly item: ToolItem; readonly width: number }) {
  const text = summary(item);
  const language = item.toolName === 'execute_sql' ? 'sql' : 'shell';
  switch (item.state) {
    case 'validating':
    case 'assessing':
      return <Text dimColor>· {item.toolName}</Text>;
    case 'awaiting-approval':
      return <Text color="yellow">? {item.toolName} waits for your answer</Text>;
    case 'executing':
      return (
        <Box flexDirection="column">
          <Spinner
            since={item.startedAt}
            label={`${item.toolName}: ${text.replace(/\s+/g, ' ').slice(0, Math.max(10, width - 30))}`}
          />
          {item.output !== '' ? <Text dimColor>{item.output.split('\n').slice(-12).join('\n')}</Text> : null}
        </Box>
      );
    case 'succeeded': {
      const data = sqlData(item);
      if (data !== undefined) {
        return (
          <Box flexDirection="column">
            <SqlResult data={data} width={width} id={item.id} />
            <Unasked item={item} />
          </Box>
        );
      }
      return (
        <Box flexDirection="column">
          <Text>
            <Text color="green">✓ </Text>
            {item.toolName === 'execute_command' ? (
              <Highlighted text={text} language={language} />
            ) : (
              <Text>{`${item.toolName}: ${text}`}</Text>
            )}
            <Text dimColor> ({Math.round(item.result?.durationMs ?? 0)} ms)</Text>
          </Text>
          <Unasked item={item} />
          <AskedDiff item={item} />
          <FoldedText text={item.result?.forModel ?? ''} id={item.id} />
        </Box>
      );
    }
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color="red">
            ✗ {item.toolName}: {text}
          </Text>
          <Unasked item={item} />
          <AskedDiff item={item} />
          <FoldedText text={item.result?.forModel ?? ''} id={item.id} colour="red" />
        </Box>
      );
    case 'denied':
      return (
        <Text color="yellow">
          ⊘ {item.toolName} not run: {text.replace(/\s+/g, ' ')}
        </Text>
      );
    case 'cancelled':
      // One line says cancelled; what the call printed before it stays beneath, as it was.
      return (
        <Box flexDirection="column">
          <Text color="yellow">
            ⊘ {item.toolName} cancelled: {text.replace(/\s+/g, ' ')}
          </Text>
          {item.output === '' ? null : <FoldedText text={item.output} id={item.id} />}
        </Box>
      );
    default: {
      const unreachable: never = item.state;
      return <Text>{String(unreachable)}</Text>;
    }
  }
}
