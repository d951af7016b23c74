import { isSecretEnvironmentName, SECRET_PATTERNS } from '@riskgate/risk';

/**
 * The output guard (DESIGN.md, "Defence in depth"): what an operation that ran unasked returns
 * is checked before it reaches the model. A renamed private key read by a whitelisted `cat`, a
 * committed `.env`, a token in a log: the model gets "[withheld: a private key — shown to the
 * person only]" and the person sees the original. What the person approved passes unchanged:
 * they saw the operation and chose to run it.
 */
export interface GuardResult {
  /** The text for the model, secrets replaced. */
  readonly text: string;
  /** What was withheld, in plain words ("a private key"), once per kind. */
  readonly withheld: readonly string[];
}

export type OutputGuard = (text: string) => GuardResult;

export interface OutputGuardOptions {
  /** riskgate's environment: the values of its secret-named variables are withheld wherever they appear. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Further exact values to withhold: the configured API key (it may come from the config file). */
  readonly secretValues?: readonly string[];
}

/** Shorter values are not looked for: "1" or "true" would withhold half of every output. */
const MIN_SECRET_VALUE = 8;

/**
 * `NAME=value`, `NAME: value`, `"name": "value"` where the name says secret (the same test as the
 * environment scrubber: `isSecretEnvironmentName`): a committed .env, `docker inspect`'s Env, a
 * YAML file's password. The value is withheld, the name stays so the model knows what is there.
 */
const ASSIGNMENT = /(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_.-]*)(["']?[ \t]*[=:][ \t]*["']?)([^\s"'`,;}\]]{4,})/g;
/** Values that are settings, not secrets: `PasswordAuthentication=no`, `token_count: 1234`. */
const NOT_A_SECRET = /^(?:true|false|yes|no|on|off|null|none|nil|undefined|required|optional|\d{1,5}|\*+|x+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)$/i;

/** Bare words that name secrets inside longer names (API_KEY) but mostly mean something else alone (`"key": "user.name"`). */
const AMBIGUOUS_ALONE = new Set(['KEY', 'KEYS', 'SESSION', 'SIG', 'SIGNATURE', 'CERT', 'AUTH', 'PRIVATE', 'SALT', 'OTP']);

/** What a secret becomes in the model's copy. */
export function withheldMarker(what: string): string {
  return `[withheld: ${what} — shown to the person only]`;
}

export function createOutputGuard(options: OutputGuardOptions = {}): OutputGuard {
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value !== undefined && value.length >= MIN_SECRET_VALUE && isSecretEnvironmentName(name)) values.set(value, `the value of ${name}`);
  }
  for (const value of options.secretValues ?? []) {
    if (value.length >= MIN_SECRET_VALUE) values.set(value, "riskgate's API key");
  }
  // Longest first: a value that contains another is withheld whole.
  const exact = [...values.entries()].sort(([a], [b]) => b.length - a.length);
  const patterns = SECRET_PATTERNS.map(([pattern, what]) => [new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), what] as const);
  return (text) => {
    const withheld = new Set<string>();
    let guarded = text;
    for (const [value, what] of exact) {
      if (!guarded.includes(value)) continue;
      withheld.add(what);
      guarded = guarded.split(value).join(withheldMarker(what));
    }
    for (const [pattern, what] of patterns) {
      guarded = guarded.replace(pattern, () => {
        withheld.add(what);
        return withheldMarker(what);
      });
    }
    guarded = guarded.replace(ASSIGNMENT, (whole, name: string, separator: string, value: string) => {
      if (!isSecretEnvironmentName(name) || AMBIGUOUS_ALONE.has(name.toUpperCase()) || NOT_A_SECRET.test(value) || value.startsWith('[withheld:')) return whole;
      const what = `the value of ${name}`;
      withheld.add(what);
      return `${name}${separator}${withheldMarker(what)}`;
    });
    return { text: guarded, withheld: [...withheld] };
  };
}

/**
 * The agent's one call: the model's copy of a result, guarded unless the person approved the
 * operation; `forPerson` (the original, with a note of what was withheld) when something was.
 */
export function guardToolResult(guard: OutputGuard, approved: boolean, forModel: string): { readonly forModel: string; readonly forPerson?: string } {
  if (approved) return { forModel };
  const { text, withheld } = guard(forModel);
  if (withheld.length === 0) return { forModel };
  return { forModel: text, forPerson: `${forModel}\n[withheld from the model: ${withheld.join(', ')}]` };
}

let defaultGuard: OutputGuard | undefined;

/** The guard for hosts that pass none: riskgate's own environment and the token formats. */
export function defaultOutputGuard(): OutputGuard {
  defaultGuard ??= createOutputGuard({ env: process.env });
  return defaultGuard;
}
