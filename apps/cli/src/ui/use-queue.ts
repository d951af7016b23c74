import { useCallback, useEffect, useState } from 'react';

/**
 * Messages typed while the model works: Enter queues them (shown under the prompt) and they are
 * sent one by one, in order, each as its own turn once the one before has ended. ↑ on an empty
 * prompt takes the queue back into the editor to change or delete (as Claude Code does); an
 * interruption (Esc, Ctrl-C) does the same, so a stopped turn does not run on into the next.
 * Nothing is sent while a confirmation panel is open (`held`): a queued message is never an
 * answer, and the panel's own keys and type-ahead guard are untouched.
 */
export function useQueue({
  busy,
  held,
  submit,
  input,
  setInput,
}: {
  readonly busy: boolean;
  readonly held: boolean;
  readonly submit: (value: string) => void;
  readonly input: string;
  readonly setInput: (value: string) => void;
}) {
  const [queued, setQueued] = useState<readonly string[]>([]);
  const enter = useCallback(
    (value: string) => {
      if (!busy) {
        submit(value);
        return;
      }
      setInput('');
      const text = value.trim();
      if (text !== '') setQueued((current) => [...current, text]);
    },
    [busy, submit, setInput],
  );
  useEffect(() => {
    if (busy || held || queued.length === 0) return;
    const [next, ...rest] = queued;
    setQueued(rest);
    submit(next!);
  }, [busy, held, queued, submit]);
  /** The queue as one text for the editor (its messages on their own lines), emptied; undefined when empty. */
  const recall = useCallback((): string | undefined => {
    if (queued.length === 0) return undefined;
    setQueued([]);
    return queued.join('\n');
  }, [queued]);
  // An interrupted turn does not run on into the queued messages: they come back to the editor.
  const interrupted = () => {
    const recalled = recall();
    if (recalled !== undefined) setInput(input === '' ? recalled : `${input}\n${recalled}`);
  };
  return { enter, queued, recall, interrupted };
}
