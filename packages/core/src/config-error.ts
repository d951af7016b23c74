/** A config or managed policy file that cannot be used: the message names the file and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
