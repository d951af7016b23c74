import { ConfigError } from './config-error.js';
import type { TelemetrySettings } from './config-schema.js';
import type { ManagedPolicy } from './managed-policy.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** Where gate decisions go (docs/policy.md); absent from ResolvedConfig when telemetry is off. */
export interface ResolvedTelemetry {
  /** The OTLP/HTTP URL logs are posted to. */
  readonly logsUrl: string;
  /** The OTLP/HTTP URL spans are posted to (absent when only a logs endpoint was named). */
  readonly tracesUrl?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Why it is on: "managed policy /etc/…", "config", "RISKGATE_TELEMETRY". */
  readonly source: string;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Whether gate decisions are exported, and where (docs/policy.md). Off by default. A managed
 * policy with `telemetry.enabled` decides for everyone (on, and its endpoint and headers win;
 * or off); otherwise the person turns it on with `telemetry.enabled` in their config or
 * `RISKGATE_TELEMETRY=1`, and the standard OTEL_EXPORTER_OTLP_* variables say where (they win
 * over the config file, as the environment does for every setting). On without a collector to
 * send to is an error, not a silent no.
 */
export function resolveTelemetry(
  settings: TelemetrySettings | undefined,
  managed: ManagedPolicy | undefined,
  env: Environment,
): ResolvedTelemetry | undefined {
  const forced = managed?.telemetry?.enabled;
  if (forced === false) return undefined;
  if (forced === true) {
    const source = `managed policy ${managed!.sources[0]}`;
    const organisation = managed!.telemetry!;
    return endpointsFor(
      source,
      organisation.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? settings?.endpoint,
      // Its own endpoint goes with its own headers only: the person's cannot go to the organisation's collector.
      organisation.endpoint === undefined
        ? (organisation.headers ?? headersFrom(env) ?? settings?.headers)
        : organisation.headers,
      organisation.protocol ?? protocolFrom(env) ?? settings?.protocol,
      organisation.endpoint === undefined ? env : {},
    );
  }
  const switched = env.RISKGATE_TELEMETRY;
  const on =
    switched !== undefined && switched !== ''
      ? ['1', 'true', 'on', 'yes'].includes(switched.toLowerCase())
      : settings?.enabled === true;
  if (!on || env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return undefined;
  const source = switched !== undefined && switched !== '' ? 'RISKGATE_TELEMETRY' : 'config telemetry.enabled';
  // The organisation may say where export goes without making it compulsory: then it goes there.
  const organisation = managed?.telemetry;
  if (organisation?.endpoint !== undefined) {
    const protocol = organisation.protocol ?? protocolFrom(env) ?? settings?.protocol;
    return endpointsFor(source, organisation.endpoint, organisation.headers, protocol, {});
  }
  return endpointsFor(
    source,
    env.OTEL_EXPORTER_OTLP_ENDPOINT ?? settings?.endpoint,
    headersFrom(env) ?? settings?.headers,
    protocolFrom(env) ?? settings?.protocol,
    env,
  );
}

function endpointsFor(
  source: string,
  base: string | undefined,
  headers: Readonly<Record<string, string>> | undefined,
  protocol: ResolvedTelemetry['protocol'] | undefined,
  env: Environment,
): ResolvedTelemetry {
  const root = base?.replace(/\/+$/, '');
  const logsUrl = env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT ?? (root === undefined ? undefined : `${root}/v1/logs`);
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (root === undefined ? undefined : `${root}/v1/traces`);
  if (logsUrl === undefined) {
    throw new ConfigError(
      `telemetry is on (${source}) but no collector is named: set OTEL_EXPORTER_OTLP_ENDPOINT or telemetry.endpoint`,
    );
  }
  for (const url of [logsUrl, tracesUrl]) {
    if (url !== undefined && !URL.canParse(url)) throw new ConfigError(`telemetry: "${url}" is not a URL`);
  }
  return {
    logsUrl,
    ...(tracesUrl === undefined ? {} : { tracesUrl }),
    headers: headers ?? {},
    protocol: protocol ?? 'http/protobuf',
    source,
  };
}

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2`, values percent-encoded (the OTel spec's format). */
function headersFrom(env: Environment): Record<string, string> | undefined {
  const text = env.OTEL_EXPORTER_OTLP_HEADERS;
  if (text === undefined || text.trim() === '') return undefined;
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(`OTEL_EXPORTER_OTLP_HEADERS: "${pair.trim()}" is not key=value`);
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

function protocolFrom(env: Environment): ResolvedTelemetry['protocol'] | undefined {
  const value = env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (value === undefined || value === '') return undefined;
  if ((PROTOCOLS as readonly string[]).includes(value)) return value as ResolvedTelemetry['protocol'];
  throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL: riskgate exports over ${PROTOCOLS.join(' or ')}, not "${value}"`);
}
