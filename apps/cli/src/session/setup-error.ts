/** A session that cannot start (no model, a database that does not open): told in one line, exit 1. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
