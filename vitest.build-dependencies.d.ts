/** Builds the workspace dependencies of the package in the current directory (and `also`) through turbo. */
export function buildDependencies(also?: readonly string[]): void;
export default function setup(): void;
