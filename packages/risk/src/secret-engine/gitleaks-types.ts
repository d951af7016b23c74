/** The shape of gitleaks' rule set as scripts/import-gitleaks-rules.mjs writes it (Go regexes, paths dropped). */
export interface GitleaksAllowlist {
  /** "AND": every criterion must hold; gitleaks' default is "OR". */
  readonly condition?: string;
  /** What the regexes test: the secret (default), the whole "match" or the "line". */
  readonly regexTarget?: string;
  readonly regexes?: readonly string[];
  /** Lowercase words: a secret containing one is allowed. */
  readonly stopwords?: readonly string[];
  /** The allowlist also named paths, which output never has. */
  readonly hasPaths?: boolean;
}

export interface GitleaksRule {
  readonly id: string;
  readonly regex: string;
  readonly secretGroup?: number;
  /** Shannon entropy the secret must exceed. */
  readonly entropy?: number;
  /** Lowercase words one of which the text must contain before the regex runs. */
  readonly keywords: readonly string[];
  readonly allowlists: readonly GitleaksAllowlist[];
}

export interface GitleaksRuleSet {
  readonly source: {
    readonly repository: string;
    readonly path: string;
    readonly commit: string;
    readonly license: string;
  };
  readonly allowlist: GitleaksAllowlist;
  readonly rules: readonly GitleaksRule[];
}
