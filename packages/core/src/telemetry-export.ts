import type { AuditEntry } from './audit.js';
import type { ResolvedTelemetry } from './telemetry-settings.js';
import type { TelemetrySdk } from './telemetry-sdk.js';

/** Sends every finished gate decision to an OTLP collector (docs/policy.md). */
export interface DecisionExporter {
  /** Takes one audit line, already redacted by the audit log; `started` lines are not sent. Never throws. */
  record(entry: AuditEntry): void;
  /**
   * Sends what is waiting and stops. Resolves within `timeoutMs` whatever the collector does
   * (down, hanging): true when everything was handed over, false when it gave up.
   */
  shutdown(timeoutMs?: number): Promise<boolean>;
}

export interface DecisionExporterOptions {
  readonly version?: string;
  /** Told once when the SDK cannot be loaded or started; riskgate goes on without export. */
  readonly onFault?: (message: string) => void;
}

/**
 * The exporter, started at once but loaded lazily: the OpenTelemetry SDK is imported only here,
 * with `import()`, so a run without telemetry never loads it. Decisions made while it loads wait
 * in memory. Nothing here blocks a tool call or throws into the gate.
 */
export function createDecisionExporter(
  settings: ResolvedTelemetry,
  options: DecisionExporterOptions = {},
): DecisionExporter {
  const waiting: AuditEntry[] = [];
  let sdk: TelemetrySdk | undefined;
  let broken = false;
  const fault = (message: string) => {
    if (broken) return;
    broken = true;
    options.onFault?.(`telemetry: ${message}; decisions are not exported`);
  };
  const send = (entry: AuditEntry) => {
    try {
      sdk?.record(entry);
    } catch (error) {
      fault((error as Error).message);
    }
  };
  const loading = import('./telemetry-sdk.js').then(
    ({ startTelemetrySdk }) => {
      sdk = startTelemetrySdk(settings, options.version ?? '0.0.0');
      for (const entry of waiting.splice(0)) send(entry);
    },
    (error: unknown) => fault(`the OpenTelemetry SDK did not load (${(error as Error).message})`),
  );
  let stopping: Promise<boolean> | undefined;
  return {
    record(entry) {
      if (entry.outcome === 'started' || broken) return;
      if (sdk === undefined) waiting.push(entry);
      else send(entry);
    },
    shutdown(timeoutMs = 3_000) {
      stopping ??= loading.then(
        () => sdk?.shutdown().catch(() => false) ?? false,
        () => false,
      );
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      return Promise.race([stopping, bound]).finally(() => clearTimeout(timer));
    },
  };
}
