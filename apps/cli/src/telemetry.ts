import type { DecisionExporter, ResolvedConfig } from '@riskgate/core';
import { VERSION } from './version.js';

/**
 * The process's one decision exporter (docs/policy.md): made by the first session or MCP server
 * that has telemetry on, shared by the sessions after it (/sql, /resume), flushed once at exit.
 * Only types are imported statically: main.ts loads this file, and the core and the
 * OpenTelemetry SDK must stay off the start path.
 */
let exporter: DecisionExporter | undefined;

/** The exporter when telemetry is on, else undefined; `onFault` hears once that export stopped. */
export async function decisionExporterFor(
  config: ResolvedConfig,
  onFault: (message: string) => void,
): Promise<DecisionExporter | undefined> {
  if (config.telemetry === undefined) return undefined;
  if (exporter === undefined) {
    const { createDecisionExporter } = await import('@riskgate/core');
    exporter = createDecisionExporter(config.telemetry, { version: VERSION, onFault });
  }
  return exporter;
}

/** How long riskgate waits at exit for the collector: one that is down or hangs costs no more. */
export const TELEMETRY_FLUSH_MS = 3_000;

/** Sends what waits and stops; true when there was nothing to send or all was handed over in time. */
export function flushTelemetry(timeoutMs = TELEMETRY_FLUSH_MS): Promise<boolean> {
  return exporter === undefined ? Promise.resolve(true) : exporter.shutdown(timeoutMs);
}
