/**
 * Empties Ink's record of what <Static> printed, when the bundle's Ink offers it (build.mjs's
 * inkForgetStaticOutput): called with a cleared screen, so that a frame taller than the screen
 * never writes the old transcript back at its old width. Without it (sources run directly)
 * nothing is forgotten and the screen is as before.
 */
let forget: (() => void) | undefined;

export function setStaticOutputReset(reset: (() => void) | undefined): void {
  forget = reset;
}

/** Clears the screen and its scrollback, and Ink's record of them. */
export function clearTerminal(stdout: NodeJS.WriteStream): void {
  forget?.();
  stdout.write('\u001B[2J\u001B[3J\u001B[H');
}
