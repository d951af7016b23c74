/**
 * Reads `read()` until `done` holds or `withinMs` passes, and returns the last reading. For
 * checks of what the kernel finishes on its own time (a killed process leaving /proc): on a busy
 * machine that takes longer than a fixed pause, and the assertion on the reading stays the same.
 */
export async function settled<T>(read: () => T, done: (value: T) => boolean, withinMs = 3_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  let value = read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = read();
  }
  return value;
}

export const gone = (pids: readonly number[]) => pids.length === 0;
