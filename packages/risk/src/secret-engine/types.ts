/** One secret found in a text: the characters from `start` to `end` are the secret itself, nothing around it. */
export interface SecretFinding {
  readonly start: number;
  readonly end: number;
  /** What it is in plain words, for the person and the model: "a private key", "the value of DB_PASSWORD". */
  readonly what: string;
  /** Which rule found it: a gitleaks rule id, or one of riskgate's context rules ("assignment", "url-userinfo"…). */
  readonly rule: string;
}
