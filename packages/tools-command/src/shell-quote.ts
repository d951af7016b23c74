/** Single quotes for /bin/sh: every character literal. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
