import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import type { Decision } from '@riskgate/risk';
import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { openInPager } from './pager.js';
import { terminalText } from '../terminal-text.js';
import { panelBody } from './panel-lines.js';
import { ScreenLineView } from './ScreenLineView.js';
import { fits, initialScroll, scrollReducer, unseenLines } from './scroll.js';
import { TextInput } from './TextInput.js';

/** Keys pressed this soon after the panel appears never answer it (type-ahead protection). */
export const TYPE_AHEAD_GUARD_MS = 400;

export interface ConfirmPanelProps {
  readonly request: ApprovalRequest;
  /** The narrowest rule `a` would add; `a` is not offered without one. */
  readonly suggestedRule?: string;
  readonly onAnswer: (answer: ApprovalAnswer) => void;
  readonly guardMs?: number;
  /** Shows a text in $PAGER; returns an error message when it could not. */
  readonly pager?: (text: string) => string | undefined;
}

/** Which argument `e` edits, per tool. */
const EDITABLE: Record<string, string> = { execute_sql: 'sql', execute_command: 'command' };

export function decidedBy(decision: Decision): string {
  switch (decision.source) {
    case 'llm':
      return `the model rated it ${decision.llmLevel}`;
    case 'default':
      return 'riskgate: not on the whitelist of safe operations';
    case 'rule':
      return `your rule ${decision.rule ?? ''}`.trim();
    case 'guard':
      return 'guarded mode: the code found it dangerous';
    case 'mode':
      return 'strict mode asks about everything';
    case 'whitelist':
    case 'invalid':
      return decision.source;
    default: {
      const unreachable: never = decision.source;
      return String(unreachable);
    }
  }
}

type Stage =
  | { readonly kind: 'choose' }
  | { readonly kind: 'edit'; readonly value: string }
  | { readonly kind: 'note'; readonly value: string };

/** Rows the panel keeps for itself and the prompt beneath it: borders, status, level, question, keys. */
const RESERVED_ROWS = 12;

const number = (value: number) => value.toLocaleString('en-US');

/** The confirmation panel: one per tool kind, with the specification's question. */
export function ConfirmPanel({
  request,
  suggestedRule,
  onAnswer,
  guardMs = TYPE_AHEAD_GUARD_MS,
  pager = openInPager,
}: ConfirmPanelProps) {
  const { stdout } = useStdout();
  const columns = stdout.columns ?? 100;
  const height = Math.max(5, (stdout.rows ?? 40) - RESERVED_ROWS);
  const [armed, setArmed] = useState(guardMs <= 0);
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  const [warning, setWarning] = useState<string | undefined>(undefined);
  const { decision, description } = request;
  // Border and padding take four columns.
  const body = useMemo(() => panelBody(description, decision, columns - 4), [description, decision, columns]);
  const [scroll, dispatch] = useReducer(scrollReducer, initialScroll(height, body.lines.length));
  useEffect(() => {
    if (scroll.height !== height || scroll.total !== body.lines.length)
      dispatch({ type: 'resize', height, total: body.lines.length });
  }, [height, body.lines.length, scroll.height, scroll.total]);
  useEffect(() => {
    if (guardMs <= 0) return undefined;
    const timer = setTimeout(() => setArmed(true), guardMs);
    return () => clearTimeout(timer);
  }, [guardMs]);
  const editable = EDITABLE[request.toolName];
  const current = editable === undefined ? undefined : (request.args as Record<string, unknown>)[editable];
  const unseen = unseenLines(scroll);

  useInput(
    (input, key) => {
      // Scrolling is safe before the guard: it answers nothing.
      if (key.downArrow || input === 'j') dispatch({ type: 'line', delta: 1 });
      else if (key.upArrow || input === 'k') dispatch({ type: 'line', delta: -1 });
      else if (key.pageDown || input === ' ') dispatch({ type: 'page', delta: 1 });
      else if (key.pageUp) dispatch({ type: 'page', delta: -1 });
      else if (key.home || input === 'g') dispatch({ type: 'home' });
      else if (key.end || input === 'G') dispatch({ type: 'end' });
      else if (input === 'v' || input === 'V') {
        const failure = pager(body.text);
        if (failure === undefined) dispatch({ type: 'paged' });
        setWarning(failure);
      } else if (!armed) return;
      else if (input === 'y' || input === 'Y' || ((input === 'a' || input === 'A') && suggestedRule !== undefined)) {
        if (unseen > 0) {
          setWarning(
            `${number(unseen)} ${unseen === 1 ? 'line' : 'lines'} of this operation have not been on screen: scroll (↓, PgDn) or press v to read it all, then answer.`,
          );
          return;
        }
        onAnswer(input === 'y' || input === 'Y' ? { type: 'approve' } : { type: 'always', rule: suggestedRule! });
      } else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer({ type: 'deny' });
      else if ((input === 'e' || input === 'E') && typeof current === 'string')
        setStage({ kind: 'edit', value: current });
      else if (input === 'm' || input === 'M') setStage({ kind: 'note', value: '' });
    },
    { isActive: stage.kind === 'choose' },
  );

  const visible = body.lines.slice(scroll.offset, scroll.offset + scroll.height);
  const below = Math.max(0, body.lines.length - scroll.offset - scroll.height);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={decision.level === 'high' ? 'red' : 'yellow'}
      paddingX={1}
    >
      {fits(scroll) ? null : (
        <Text color="cyan">
          lines {number(scroll.offset + 1)}–{number(scroll.offset + visible.length)} of {number(body.lines.length)}
          {scroll.offset > 0 ? ` · ${number(scroll.offset)} above` : ''}
          {below > 0 ? ` · ${number(below)} more below` : ''} · ↑↓ PgUp PgDn Home End scroll · v all in $PAGER
        </Text>
      )}
      {visible.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: screen lines are positional.
        <ScreenLineView key={scroll.offset + index} line={line} />
      ))}
      <Text>
        <Text bold color={decision.level === 'high' ? 'red' : 'yellow'}>
          {decision.level ?? 'unknown'}
        </Text>
        <Text dimColor> · asked because: {terminalText(decidedBy(decision))}</Text>
      </Text>
      {stage.kind === 'choose' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{request.question}</Text>
          <Text dimColor>
            y yes · n no (Enter, Esc) · m no, with a note
            {suggestedRule === undefined ? '' : ` · a always allow ${terminalText(suggestedRule)}`}
            {typeof current === 'string' ? ' · e edit' : ''}
            {fits(scroll) ? ' · v view in $PAGER' : ''}
          </Text>
          {warning === undefined ? null : <Text color="red">{warning}</Text>}
        </Box>
      ) : stage.kind === 'edit' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Edit, then Enter to run it (Esc to go back):</Text>
          <TextInput
            value={stage.value}
            isActive
            onChange={(value) => setStage({ kind: 'edit', value })}
            onSubmit={(value) =>
              onAnswer({ type: 'edit', args: { ...(request.args as Record<string, unknown>), [editable!]: value } })
            }
            onCancel={() => setStage({ kind: 'choose' })}
          />
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>No — a note for the model (Enter to send, Esc to go back):</Text>
          <TextInput
            value={stage.value}
            isActive
            onChange={(value) => setStage({ kind: 'note', value })}
            onSubmit={(value) =>
              onAnswer(value.trim() === '' ? { type: 'deny' } : { type: 'deny', note: value.trim() })
            }
            onCancel={() => setStage({ kind: 'choose' })}
          />
        </Box>
      )}
    </Box>
  );
}
