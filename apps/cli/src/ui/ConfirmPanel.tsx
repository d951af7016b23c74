import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { openInPager } from './pager.js';
import { terminalText } from '../terminal-text.js';
import { panelBody } from './panel-lines.js';
import { ScreenLineView } from './ScreenLineView.js';
import { fits, initialScroll, type ScrollAction, scrollReducer, unseenLines } from './scroll.js';
import { TextInput } from './TextInput.js';
import { useTerminalSize } from './use-terminal-size.js';

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

type Stage =
  | { readonly kind: 'choose' }
  | { readonly kind: 'edit'; readonly value: string }
  | { readonly kind: 'note'; readonly value: string };

/** Rows the panel keeps for itself and the prompt beneath it: borders, status, level, question, keys. */
const RESERVED_ROWS = 12;

const number = (value: number) => value.toLocaleString('en-US');

/** The panel's scroll state, kept to the terminal's height and the body's length as they change. */
function useScroll(height: number, total: number, columns: number) {
  const [scroll, dispatch] = useReducer(scrollReducer, initialScroll(height, total));
  const wrappedAt = useRef(columns);
  useEffect(() => {
    // Lines wrapped at another width are other lines: what was seen is counted again from here.
    const rewrapped = wrappedAt.current !== columns;
    wrappedAt.current = columns;
    if (rewrapped || scroll.height !== height || scroll.total !== total)
      dispatch({ type: 'resize', height, total, rewrapped });
  }, [height, total, columns, scroll.height, scroll.total]);
  return [scroll, dispatch] as const;
}

/** The panel's lines; border and padding take four columns. */
function usePanelBody(request: ConfirmPanelProps['request'], columns: number) {
  const { description, decision, undo } = request;
  return useMemo(() => panelBody(description, decision, columns - 4, undo), [description, decision, columns, undo]);
}

/** The confirmation panel: one per tool kind, with the specification's question. */
export function ConfirmPanel({
  request,
  suggestedRule,
  onAnswer,
  guardMs = TYPE_AHEAD_GUARD_MS,
  pager = openInPager,
}: ConfirmPanelProps) {
  const size = useTerminalSize();
  const columns = size.columns;
  const height = Math.max(5, size.rows - RESERVED_ROWS);
  const armed = useArmedAfter(guardMs);
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  const [warning, setWarning] = useState<string | undefined>(undefined);
  const { decision, description } = request;
  const body = usePanelBody(request, columns);
  const [scroll, dispatch] = useScroll(height, body.lines.length, columns);
  const { editable } = request;
  const current = editable === undefined ? undefined : (request.args as Record<string, unknown>)[editable];
  const unseen = unseenLines(scroll);
  // The text paged whole: known at once, not at the next render (a `y` right after `v` approves it).
  const pagedText = useRef<string | undefined>(undefined);

  useInput(
    (input, key) => {
      // Scrolling is safe before the guard: it answers nothing.
      const move = scrollKey(input, key);
      if (move !== undefined) dispatch(move);
      else if (input === 'v' || input === 'V') {
        const failure = pager(body.text);
        if (failure === undefined) {
          pagedText.current = body.text;
          dispatch({ type: 'paged' });
        }
        setWarning(failure);
      } else if (armed) {
        const unread = unseen === 0 || pagedText.current === body.text ? undefined : unreadWarning(unseen);
        const choice = choiceKey(input, key, suggestedRule, typeof current === 'string' ? current : undefined);
        if (choice?.kind === 'answer' && choice.answer.type !== 'deny' && unread !== undefined) setWarning(unread);
        else if (choice?.kind === 'answer') onAnswer(choice.answer);
        else if (choice?.kind === 'stage') setStage(choice.stage);
      }
    },
    { isActive: stage.kind === 'choose' },
  );

  const visible = body.lines.slice(scroll.offset, scroll.offset + scroll.height);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={decision.level === 'high' ? 'red' : 'yellow'}
      paddingX={1}
    >
      {fits(scroll) ? null : <ScrollStatus offset={scroll.offset} shown={visible.length} total={body.lines.length} />}
      {visible.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: screen lines are positional.
        <ScreenLineView key={scroll.offset + index} line={line} />
      ))}
      <Text>
        <Text bold color={decision.level === 'high' ? 'red' : 'yellow'}>
          {decision.level ?? 'unknown'}
        </Text>
        <Text dimColor> · asked because: {terminalText(decision.why)}</Text>
      </Text>
      <AnswerArea
        stage={stage}
        setStage={setStage}
        request={request}
        onAnswer={onAnswer}
        hints={[
          suggestedRule === undefined ? '' : ` · a always allow ${terminalText(suggestedRule)}`,
          typeof current === 'string' ? ' · e edit' : '',
          fits(scroll) ? ' · v view in $PAGER' : '',
        ].join('')}
        warning={warning}
      />
    </Box>
  );
}

/** Below the operation: the question and its keys, or the field for an edit or a note. */
function AnswerArea({
  stage,
  setStage,
  request,
  onAnswer,
  hints,
  warning,
}: {
  readonly stage: Stage;
  readonly setStage: (stage: Stage) => void;
  readonly request: ApprovalRequest;
  readonly onAnswer: (answer: ApprovalAnswer) => void;
  readonly hints: string;
  readonly warning: string | undefined;
}) {
  if (stage.kind === 'choose')
    return (
      <Box flexDirection="column" marginTop={1}>
        <Text bold>{request.question}</Text>
        <Text dimColor>y yes · n no (Enter, Esc) · m no, with a note{hints}</Text>
        {warning === undefined ? null : <Text color="red">{warning}</Text>}
      </Box>
    );
  const back = () => setStage({ kind: 'choose' });
  if (stage.kind === 'edit')
    return (
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Edit, then Enter to run it (Ctrl-G: in $EDITOR · Esc to go back):</Text>
        <TextInput
          value={stage.value}
          isActive
          onChange={(value) => setStage({ kind: 'edit', value })}
          onSubmit={(value) =>
            onAnswer({
              type: 'edit',
              args: { ...(request.args as Record<string, unknown>), [request.editable!]: value },
            })
          }
          onCancel={back}
        />
      </Box>
    );
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>No — a note for the model (Enter to send, Esc to go back):</Text>
      <TextInput
        value={stage.value}
        isActive
        onChange={(value) => setStage({ kind: 'note', value })}
        onSubmit={(value) => onAnswer(value.trim() === '' ? { type: 'deny' } : { type: 'deny', note: value.trim() })}
        onCancel={back}
      />
    </Box>
  );
}

/** Where the panel is in a long operation, and the keys that move it. */
function ScrollStatus({ offset, shown, total }: { offset: number; shown: number; total: number }) {
  const below = Math.max(0, total - offset - shown);
  return (
    <Text color="cyan">
      lines {number(offset + 1)}–{number(offset + shown)} of {number(total)}
      {offset > 0 ? ` · ${number(offset)} above` : ''}
      {below > 0 ? ` · ${number(below)} more below` : ''} · ↑↓ PgUp PgDn Home End scroll · v all in $PAGER
    </Text>
  );
}

type Key = Parameters<Parameters<typeof useInput>[0]>[1];

/** A key that scrolls the operation (safe before the type-ahead guard: it answers nothing). */
function scrollKey(input: string, key: Key): ScrollAction | undefined {
  if (key.downArrow || input === 'j') return { type: 'line', delta: 1 };
  if (key.upArrow || input === 'k') return { type: 'line', delta: -1 };
  if (key.pageDown || input === ' ') return { type: 'page', delta: 1 };
  if (key.pageUp) return { type: 'page', delta: -1 };
  if (key.home || input === 'g') return { type: 'home' };
  if (key.end || input === 'G') return { type: 'end' };
  return undefined;
}

/** What a key answers, or which field it opens; undefined for any other key. */
function choiceKey(
  input: string,
  key: Key,
  suggestedRule: string | undefined,
  editable: string | undefined,
): { kind: 'answer'; answer: ApprovalAnswer } | { kind: 'stage'; stage: Stage } | undefined {
  if (input === 'y' || input === 'Y') return { kind: 'answer', answer: { type: 'approve' } };
  if ((input === 'a' || input === 'A') && suggestedRule !== undefined)
    return { kind: 'answer', answer: { type: 'always', rule: suggestedRule } };
  if (input === 'n' || input === 'N' || key.return || key.escape) return { kind: 'answer', answer: { type: 'deny' } };
  if ((input === 'e' || input === 'E') && editable !== undefined)
    return { kind: 'stage', stage: { kind: 'edit', value: editable } };
  if (input === 'm' || input === 'M') return { kind: 'stage', stage: { kind: 'note', value: '' } };
  return undefined;
}

function unreadWarning(unseen: number): string {
  return `${number(unseen)} ${unseen === 1 ? 'line' : 'lines'} of this operation have not been on screen: scroll (↓, PgDn) or press v to read it all, then answer.`;
}

/** False until `guardMs` has passed since the panel appeared: keys typed ahead answer nothing. */
function useArmedAfter(guardMs: number): boolean {
  const [armed, setArmed] = useState(guardMs <= 0);
  useEffect(() => {
    if (guardMs <= 0) return undefined;
    const timer = setTimeout(() => setArmed(true), guardMs);
    return () => clearTimeout(timer);
  }, [guardMs]);
  return armed;
}
