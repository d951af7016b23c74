import { isSecretEnvironmentName, textHoldsSecret } from '@riskgate/risk';

export interface ChildEnvironmentOptions {
  /** Variables the person lets through although their name or value says secret (config `commands.passEnvironment`). */
  readonly pass?: readonly string[];
  /**
   * Values that must not reach a child under any name: riskgate's own credentials (the
   * configured API key, which may come from the config file rather than the environment).
   */
  readonly secretValues?: readonly string[];
}

/** riskgate's own credentials: never passed on, whatever the person's pass list says. */
const OWN_CREDENTIALS = new Set(['OPENAI_API_KEY', 'RISKGATE_API_KEY']);

/**
 * Variables that change how programs read their words: the assessor reads options as GNU getopt
 * does by default (options after operands still options); under POSIXLY_CORRECT the first operand
 * ends them, and `grep x a.txt -e ~/.ssh/id_rsa` would read the key the walk took for a pattern.
 */
const CHANGES_OPTION_READING = new Set(['POSIXLY_CORRECT', '_POSIX2_VERSION']);

/**
 * The secret engine's verdict per value: the environment is the same for every command of a
 * session, and scanning its ~50 values costs ~10 ms; remembered, a command pays it once.
 * Bounded, so a process whose environment keeps changing does not grow without end.
 */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4_096;

function valueHoldsSecret(value: string): boolean {
  let verdict = verdicts.get(value);
  if (verdict === undefined) {
    verdict = textHoldsSecret(value);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(value, verdict);
  }
  return verdict;
}

/** Values this short are compared whole; longer ones are also found inside other values. */
const MIN_EMBEDDED_SECRET = 8;

/**
 * The environment a child process gets: riskgate's, without riskgate's own credentials, without
 * any variable whose name says it holds a secret (`isSecretEnvironmentName`: tokens, passwords,
 * keys, connection strings) unless the person named it in `pass`, and without any variable whose
 * value holds a value in `secretValues` (`MY_KEY_COPY=$OPENAI_API_KEY` under an innocent name), and
 * without any variable whose value holds a secret by the secret engine (`textHoldsSecret`: a
 * URL with a password such as `POSTGRES_PRISMA_URL`, `CELERY_BROKER_URL`; a known token format)
 * unless named in `pass`. Otherwise `jq -n env` or `echo $POSTGRES_PRISMA_URL` would hand the
 * person's credentials to the model.
 */
export function childEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: ChildEnvironmentOptions = {},
): Record<string, string> {
  const pass = new Set(options.pass ?? []);
  const secrets = [
    ...(options.secretValues ?? []),
    ...[...OWN_CREDENTIALS].map((name) => env[name]).filter((value): value is string => value !== undefined),
  ].filter((value) => value !== '');
  const holdsSecret = (value: string) =>
    secrets.some((secret) => value === secret || (secret.length >= MIN_EMBEDDED_SECRET && value.includes(secret)));
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (OWN_CREDENTIALS.has(name.toUpperCase())) continue;
    if (CHANGES_OPTION_READING.has(name)) continue;
    if (isSecretEnvironmentName(name) && !pass.has(name)) continue;
    if (holdsSecret(value)) continue;
    if (!pass.has(name) && valueHoldsSecret(value)) continue;
    result[name] = value;
  }
  return result;
}
