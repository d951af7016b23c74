import { Text, useInput } from 'ink';
import { useRef } from 'react';

export interface TextInputProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onCancel?: () => void;
  readonly isActive: boolean;
  /** When false, typing still fills the box but Enter waits (the assistant is busy). */
  readonly canSubmit?: boolean;
  readonly placeholder?: string;
}

/**
 * A one-line input: typing, pasting, backspace, Ctrl-U to clear, Enter to submit. The value is
 * read through a ref, so keys arriving before React re-renders are never applied to a stale
 * value.
 */
export function TextInput({ value, onChange, onSubmit, onCancel, isActive, canSubmit = true, placeholder }: TextInputProps) {
  const current = useRef(value);
  current.current = value;
  const update = (next: string) => {
    current.current = next;
    onChange(next);
  };
  useInput(
    (input, key) => {
      const value = current.current;
      if (key.return) {
        if (canSubmit) onSubmit(value);
      } else if (key.escape) onCancel?.();
      else if (key.backspace || key.delete) update(value.slice(0, -1));
      else if (key.ctrl && input === 'u') update('');
      else if (!key.ctrl && !key.meta && !key.upArrow && !key.downArrow && !key.leftArrow && !key.rightArrow && !key.tab && input !== '') {
        // Text and Enter can arrive in one chunk (a paste, or a fast terminal): the line ends there.
        const newline = input.search(/[\r\n]/);
        if (newline === -1) update(value + input);
        else {
          const line = value + input.slice(0, newline);
          update(line);
          if (canSubmit) onSubmit(line);
        }
      }
    },
    { isActive },
  );
  if (value === '' && placeholder !== undefined) return <Text dimColor>{placeholder}</Text>;
  return (
    <Text>
      {value}
      {isActive ? <Text inverse> </Text> : null}
    </Text>
  );
}
