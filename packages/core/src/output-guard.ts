import { findSecretsIn, isSecretEnvironmentName, replaceFindings, withheldMarker } from '@riskgate/risk';

export { withheldMarker };

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

export function createOutputGuard(options: OutputGuardOptions = {}): OutputGuard {
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value !== undefined && value.length >= MIN_SECRET_VALUE && isSecretEnvironmentName(name))
      values.set(value, `the value of ${name}`);
  }
  for (const value of options.secretValues ?? []) {
    if (value.length >= MIN_SECRET_VALUE) values.set(value, "riskgate's API key");
  }
  // Longest first: a value that contains another is withheld whole.
  const exact = [...values.entries()].sort(([a], [b]) => b.length - a.length);
  return (text) => {
    const withheld = new Set<string>();
    let guarded = text;
    for (const [value, what] of exact) {
      if (!guarded.includes(value)) continue;
      withheld.add(what);
      guarded = guarded.split(value).join(withheldMarker(what));
    }
    // The secret engine of @riskgate/risk: gitleaks' token rules, private keys, and riskgate's
    // context rules (assignments in every syntax, URLs, headers, markup, netrc, Kubernetes
    // Secrets, base64). Each finding is exactly the secret's characters: names, quotes and
    // delimiters around it stay, so the model still reads the structure.
    const findings = findSecretsIn(guarded).filter(
      (finding) => !guarded.slice(finding.start, finding.end).includes('[withheld:'),
    );
    for (const finding of findings) withheld.add(finding.what);
    guarded = replaceFindings(guarded, findings, withheldMarker);
    return { text: guarded, withheld: [...withheld] };
  };
}

/**
 * The agent's one call: the model's copy of a result, guarded unless the person approved the
 * operation; `forPerson` (the original, with a note of what was withheld) when something was.
 */
export function guardToolResult(
  guard: OutputGuard,
  approved: boolean,
  forModel: string,
  /** The tool's own copy with what it knows to be secret withheld (ToolSuccess.withheldForModel), after the same prefix. */
  own?: { readonly text: string; readonly withheld: readonly string[] },
): { readonly forModel: string; readonly forPerson?: string } {
  if (approved) return { forModel };
  const { text, withheld } = guard(own?.text ?? forModel);
  const all = [...new Set([...(own?.withheld ?? []), ...withheld])];
  if (all.length === 0) return { forModel };
  return { forModel: text, forPerson: `${forModel}${WITHHELD_NOTE}${all.join(', ')}]` };
}

/** The line under the person's copy of a result that says what the model did not get. */
const WITHHELD_NOTE = '\n[withheld from the model: ';

/**
 * The original of a result the guard withheld from, and what it withheld; undefined when nothing
 * was. For `/send` (the person sends the original to the model on purpose) and the screens.
 */
export function withheldOriginal(
  forPerson: string,
): { readonly original: string; readonly withheld: string } | undefined {
  const at = forPerson.lastIndexOf(WITHHELD_NOTE);
  if (at < 0 || !forPerson.endsWith(']')) return undefined;
  return { original: forPerson.slice(0, at), withheld: forPerson.slice(at + WITHHELD_NOTE.length, -1) };
}

let defaultGuard: OutputGuard | undefined;

/** The guard for hosts that pass none: riskgate's own environment and the token formats. */
export function defaultOutputGuard(): OutputGuard {
  defaultGuard ??= createOutputGuard({ env: process.env });
  return defaultGuard;
}
