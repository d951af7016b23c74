import { Text } from 'ink';
import { useEffect, useState } from 'react';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner with the time elapsed since `since`. */
export function Spinner({ since, label }: { readonly since: number; readonly label: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  const frame = FRAMES[Math.floor(now / 100) % FRAMES.length];
  return (
    <Text color="cyan">
      {frame} {label} <Text dimColor>{((now - since) / 1000).toFixed(1)} s</Text>
    </Text>
  );
}
