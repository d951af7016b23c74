import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { terminalText } from '../terminal-text.js';
import { PickerRow } from './PickerRow.js';

const SHOWN = 12;

/** /model: the endpoint's models, the current one marked and chosen first; ↑/↓, Enter switches, Esc goes back. */
export function ModelPicker({
  models,
  current,
  onPick,
  onCancel,
}: {
  readonly models: readonly string[];
  readonly current: string;
  readonly onPick: (model: string) => void;
  readonly onCancel: () => void;
}) {
  const [selected, setSelected] = useState(Math.max(0, models.indexOf(current)));
  useInput((_input, key) => {
    if (key.upArrow) setSelected((index) => Math.max(0, index - 1));
    else if (key.downArrow) setSelected((index) => Math.min(models.length - 1, index + 1));
    else if (key.return && models[selected] !== undefined) onPick(models[selected]);
    else if (key.escape) onCancel();
  });
  const start = Math.max(0, Math.min(selected - SHOWN + 1, models.length - SHOWN));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Choose a model ({models.length}) · ↑↓ choose · Enter switch · Esc back</Text>
      {models.slice(start, start + SHOWN).map((model, index) => (
        // Model names come from the endpoint: control characters show as codes.
        <PickerRow
          key={model}
          chosen={start + index === selected}
          text={terminalText(`${model === current ? '* ' : '  '}${model}${model === current ? '   (current)' : ''}`)}
        />
      ))}
      {models.length > start + SHOWN ? <Text dimColor>… {models.length - start - SHOWN} more below</Text> : null}
    </Box>
  );
}
