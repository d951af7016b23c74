import type { SessionSummary } from '@riskgate/core';
import { Box, Text, useInput } from 'ink';
import { basename } from 'node:path';
import { useState } from 'react';
import { terminalText } from '../terminal-text.js';
import { PickerRow } from './PickerRow.js';

const SHOWN = 10;

function when(date: Date, now = new Date()): string {
  const minutes = Math.round((now.getTime() - date.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return date.toISOString().slice(0, 10);
}

/** One conversation in the picker: when, where, in which mode, and how it began. */
export function sessionLine(session: SessionSummary, now = new Date()): string {
  const where =
    session.kind === 'sql'
      ? `SQL ${session.database === undefined ? '' : session.database.startsWith('postgres') ? session.database : basename(session.database)}`.trim()
      : 'chat';
  const first = session.firstQuestion.replace(/\s+/g, ' ').trim();
  return `${when(session.modifiedAt, now).padEnd(11)} ${where}${session.mode === undefined ? '' : ` · ${session.mode}`} · ${session.messages} messages · ${first.length > 60 ? `${first.slice(0, 59)}…` : first || '(no question)'}`;
}

/** /resume: earlier conversations, newest first; ↑/↓ choose, Enter resumes, Esc goes back. */
export function SessionPicker({
  sessions,
  onPick,
  onCancel,
}: {
  readonly sessions: readonly SessionSummary[];
  readonly onPick: (session: SessionSummary) => void;
  readonly onCancel: () => void;
}) {
  const [selected, setSelected] = useState(0);
  useInput((_input, key) => {
    if (key.upArrow) setSelected((index) => Math.max(0, index - 1));
    else if (key.downArrow) setSelected((index) => Math.min(sessions.length - 1, index + 1));
    else if (key.return && sessions[selected] !== undefined) onPick(sessions[selected]);
    else if (key.escape) onCancel();
  });
  const start = Math.max(0, Math.min(selected - SHOWN + 1, sessions.length - SHOWN));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Resume a conversation ({sessions.length}) · ↑↓ choose · Enter resume · Esc back</Text>
      {sessions.slice(start, start + SHOWN).map((session, index) => (
        <PickerRow key={session.id} chosen={start + index === selected} text={terminalText(sessionLine(session))} />
      ))}
      {sessions.length > start + SHOWN ? <Text dimColor>… {sessions.length - start - SHOWN} older below</Text> : null}
    </Box>
  );
}
