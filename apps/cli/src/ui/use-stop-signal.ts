import { type RefObject, useEffect } from 'react';

/** On SIGTERM/SIGHUP (`stop` aborted): cancel what runs and exit. */
export function useStopSignal(
  stop: AbortSignal | undefined,
  controller: RefObject<AbortController | undefined>,
  exit: () => void,
): void {
  useEffect(() => {
    if (stop === undefined) return undefined;
    const onStop = () => {
      controller.current?.abort();
      exit();
    };
    if (stop.aborted) onStop();
    stop.addEventListener('abort', onStop, { once: true });
    return () => stop.removeEventListener('abort', onStop);
  }, [stop, exit, controller]);
}
