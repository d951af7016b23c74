import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import type { Decision, OperationDescription } from '@riskgate/risk';
import { Box, Text, useInput } from 'ink';
import { useEffect, useState } from 'react';
import { confirmationQuestion } from '../operation-text.js';
import { Highlighted } from './Highlighted.js';
import { TextInput } from './TextInput.js';

/** Keys pressed this soon after the panel appears never answer it (type-ahead protection). */
export const TYPE_AHEAD_GUARD_MS = 400;

export interface ConfirmPanelProps {
  readonly request: ApprovalRequest;
  /** The narrowest rule `a` would add; `a` is not offered without one. */
  readonly suggestedRule?: string;
  readonly onAnswer: (answer: ApprovalAnswer) => void;
  readonly guardMs?: number;
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

function Operation({ description }: { readonly description: OperationDescription }) {
  switch (description.kind) {
    case 'sql':
      return <Highlighted text={description.sql} language="sql" />;
    case 'command':
      return (
        <Box flexDirection="column">
          <Highlighted text={description.command} language="shell" />
          <Text dimColor>in {description.cwd}</Text>
        </Box>
      );
    case 'file':
      return (
        <Box flexDirection="column">
          <Text bold>
            {description.operation} {description.path}
          </Text>
          {description.diff === undefined
            ? null
            : description.diff
                .split('\n')
                .slice(0, 40)
                .map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are in order.
                  <Text key={index} color={line.startsWith('+') && !line.startsWith('+++') ? 'green' : line.startsWith('-') && !line.startsWith('---') ? 'red' : undefined} dimColor={line.startsWith('@@')}>
                    {line}
                  </Text>
                ))}
        </Box>
      );
    case 'http':
      return (
        <Box flexDirection="column">
          <Text bold>{description.requestLine}</Text>
          {description.headers.map((header) => (
            <Text key={header} dimColor>
              {header}
            </Text>
          ))}
          {description.bodyPreview === undefined ? null : <Text>{description.bodyPreview}</Text>}
        </Box>
      );
    case 'generic':
      return <Text>{description.summary}</Text>;
    default: {
      const unreachable: never = description;
      return <Text>{String(unreachable)}</Text>;
    }
  }
}

type Stage = { readonly kind: 'choose' } | { readonly kind: 'edit'; readonly value: string } | { readonly kind: 'note'; readonly value: string };

/** The confirmation panel: one per tool kind, with the specification's question. */
export function ConfirmPanel({ request, suggestedRule, onAnswer, guardMs = TYPE_AHEAD_GUARD_MS }: ConfirmPanelProps) {
  const [armed, setArmed] = useState(guardMs <= 0);
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  useEffect(() => {
    if (guardMs <= 0) return undefined;
    const timer = setTimeout(() => setArmed(true), guardMs);
    return () => clearTimeout(timer);
  }, [guardMs]);
  const editable = EDITABLE[request.toolName];
  const current = editable === undefined ? undefined : (request.args as Record<string, unknown>)[editable];

  useInput(
    (input, key) => {
      if (!armed) return;
      if (input === 'y' || input === 'Y') onAnswer({ type: 'approve' });
      else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer({ type: 'deny' });
      else if ((input === 'a' || input === 'A') && suggestedRule !== undefined) onAnswer({ type: 'always', rule: suggestedRule });
      else if ((input === 'e' || input === 'E') && typeof current === 'string') setStage({ kind: 'edit', value: current });
      else if (input === 'm' || input === 'M') setStage({ kind: 'note', value: '' });
    },
    { isActive: stage.kind === 'choose' },
  );

  const { decision, description } = request;
  const details = description.details;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={decision.level === 'high' ? 'red' : 'yellow'} paddingX={1}>
      <Operation description={description} />
      <Text>
        <Text bold color={decision.level === 'high' ? 'red' : 'yellow'}>
          {decision.level ?? 'unknown'}
        </Text>
        <Text dimColor> · asked because: {decidedBy(decision)}</Text>
      </Text>
      {decision.effects.map((effect) => (
        <Text key={effect.text} color={effect.verdict === 'read' ? undefined : effect.level === 'high' ? 'red' : 'yellow'}>
          {effect.verdict === 'read' ? '· ' : '! '}
          {effect.text}
        </Text>
      ))}
      {decision.reasons
        .slice(1)
        .filter((reason) => !decision.effects.some((effect) => effect.text === reason))
        .map((reason) => (
          <Text key={reason}>- {reason}</Text>
        ))}
      {details.map((detail) => (
        <Text key={detail} color="cyan">
          {detail}
        </Text>
      ))}
      {stage.kind === 'choose' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{confirmationQuestion(request.toolName)}</Text>
          <Text dimColor>
            y yes · n no (Enter, Esc) · m no, with a note{suggestedRule === undefined ? '' : ` · a always allow ${suggestedRule}`}
            {typeof current === 'string' ? ' · e edit' : ''}
          </Text>
        </Box>
      ) : stage.kind === 'edit' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Edit, then Enter to run it (Esc to go back):</Text>
          <TextInput
            value={stage.value}
            isActive
            onChange={(value) => setStage({ kind: 'edit', value })}
            onSubmit={(value) => onAnswer({ type: 'edit', args: { ...(request.args as Record<string, unknown>), [editable!]: value } })}
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
            onSubmit={(value) => onAnswer(value.trim() === '' ? { type: 'deny' } : { type: 'deny', note: value.trim() })}
            onCancel={() => setStage({ kind: 'choose' })}
          />
        </Box>
      )}
    </Box>
  );
}
