import { MANAGED_POLICY_PATH, MANAGED_POLICY_VARIABLE, type ResolvedConfig } from '@riskgate/core';

type Check = { readonly name: string; readonly ok: boolean; readonly lines: readonly string[] };

/** `riskgate doctor`'s managed policy section: the files, the floor, the rules, trust (docs/policy.md). */
export function policyCheck(
  config: ResolvedConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Check {
  if (config === undefined) return { name: 'policy', ok: false, lines: ['not checked: the configuration is invalid'] };
  const managed = config.managed;
  if (managed === undefined) {
    const extra = env[MANAGED_POLICY_VARIABLE];
    return {
      name: 'policy',
      ok: true,
      lines: [`no managed policy (${MANAGED_POLICY_PATH} absent${extra ? '' : `, ${MANAGED_POLICY_VARIABLE} unset`})`],
    };
  }
  return {
    name: 'policy',
    ok: true,
    lines: [
      `managed by your organisation: ${managed.sources.join(', ')}`,
      `mode floor ${managed.minimumMode ?? 'none'}${managed.minimumMode === undefined ? '' : ` (${managed.minimumMode === 'smart' ? 'no yolo' : `nothing below ${managed.minimumMode}`})`}`,
      ...managed.rules.map((rule) => `${rule.effect.padEnd(5)} ${rule.text} (no setting, flag or project can lift it)`),
      managed.projectTrust ? 'projects may be trusted' : 'projects may not be trusted: "riskgate trust" refuses',
      ...(config.managedNotice === undefined ? [] : [config.managedNotice]),
    ],
  };
}

/** Whether decisions are exported, where, and why; header names only (they often carry a key). */
export function telemetryCheck(config: ResolvedConfig | undefined): Check {
  const telemetry = config?.telemetry;
  if (telemetry === undefined)
    return {
      name: 'telemetry',
      ok: config !== undefined,
      lines: ['off (RISKGATE_TELEMETRY=1 and OTEL_EXPORTER_OTLP_ENDPOINT turn it on)'],
    };
  const headers = Object.keys(telemetry.headers);
  return {
    name: 'telemetry',
    ok: true,
    lines: [
      `on (${telemetry.source}): gate decisions exported over OTLP ${telemetry.protocol}`,
      `logs  → ${telemetry.logsUrl}`,
      ...(telemetry.tracesUrl === undefined ? [] : [`spans → ${telemetry.tracesUrl}`]),
      ...(headers.length === 0 ? [] : [`headers: ${headers.join(', ')} (values not shown)`]),
    ],
  };
}
