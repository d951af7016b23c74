/**
 * The OpenTelemetry SDK side of decision export. Loaded only through `import()` from
 * telemetry-export.ts when telemetry is on: the SDK and its exporters (protobufjs among them)
 * stay off riskgate's start path and out of every run that does not export.
 */
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AuditEntry } from './audit.js';
import type { ResolvedTelemetry } from './telemetry-settings.js';
import { decisionAttributes, decisionBody, decisionOutcome } from './telemetry-attributes.js';

export interface TelemetrySdk {
  record(entry: AuditEntry): void;
  shutdown(): Promise<boolean>;
}

/** One request to a collector may take this long; a collector that hangs costs no more. */
const EXPORT_TIMEOUT_MS = 2_000;

export function startTelemetrySdk(settings: ResolvedTelemetry, version: string): TelemetrySdk {
  const resource = resourceFromAttributes({ 'service.name': 'riskgate', 'service.version': version });
  const json = settings.protocol === 'http/json';
  const common = { headers: { ...settings.headers }, timeoutMillis: EXPORT_TIMEOUT_MS };
  const logExporter = json
    ? new JsonLogExporter({ url: settings.logsUrl, ...common })
    : new ProtoLogExporter({ url: settings.logsUrl, ...common });
  const loggers = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: logExporter,
        scheduledDelayMillis: 1_000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  const logger = loggers.getLogger('riskgate.gate', version);
  const tracesUrl = settings.tracesUrl;
  const tracers =
    tracesUrl === undefined
      ? undefined
      : new BasicTracerProvider({
          resource,
          spanProcessors: [
            new BatchSpanProcessor(
              json
                ? new JsonTraceExporter({ url: tracesUrl, ...common })
                : new ProtoTraceExporter({ url: tracesUrl, ...common }),
              { scheduledDelayMillis: 1_000, exportTimeoutMillis: EXPORT_TIMEOUT_MS },
            ),
          ],
        });
  const tracer = tracers?.getTracer('riskgate.gate', version);
  return {
    record(entry) {
      const end = Date.parse(entry.time);
      const attributes = decisionAttributes(entry);
      // A span per tool call, from when the operation started to its end (0 long when it did not run).
      let span: Span | undefined;
      if (tracer !== undefined) {
        span = tracer.startSpan(`${entry.tool}`, {
          kind: SpanKind.INTERNAL,
          startTime: end - entry.durationMs,
          attributes,
        });
        const outcome = decisionOutcome(entry);
        span.setStatus(
          outcome === 'failed'
            ? { code: SpanStatusCode.ERROR, message: entry.errorCode ?? 'failed' }
            : { code: SpanStatusCode.OK },
        );
        span.end(end);
      }
      logger.emit({
        eventName: 'riskgate.gate.decision',
        timestamp: end,
        severityNumber: decisionOutcome(entry) === 'ran' ? SeverityNumber.INFO : SeverityNumber.WARN,
        severityText: decisionOutcome(entry) === 'ran' ? 'INFO' : 'WARN',
        body: decisionBody(entry),
        attributes,
        ...(span === undefined ? {} : { context: trace.setSpan(context.active(), span) }),
      });
    },
    async shutdown() {
      const results = await Promise.allSettled([loggers.shutdown(), tracers?.shutdown()]);
      return results.every((result) => result.status === 'fulfilled');
    },
  };
}
