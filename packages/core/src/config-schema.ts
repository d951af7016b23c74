import { isAbsolute } from 'node:path';
import { SAFETY_MODES, type SafetyMode } from '@riskgate/risk/config';
import { z } from 'zod/v4';

const ruleList = z
  .array(z.string().min(1))
  .describe('Rules such as "execute_sql(SELECT *)" or "execute_command(git log *)"; see docs/rules.md');

/**
 * OpenTelemetry export of gate decisions (docs/policy.md). Off unless `enabled` is true here,
 * `RISKGATE_TELEMETRY=1` is set, or the managed policy turns it on.
 */
export const telemetrySchema = z
  .object({
    enabled: z.boolean().optional().describe('Export every gate decision over OTLP (default false)'),
    endpoint: z
      .url()
      .optional()
      .describe(
        'The collector\'s OTLP/HTTP base URL, e.g. "http://127.0.0.1:4318" (logs go to /v1/logs, spans to /v1/traces); default OTEL_EXPORTER_OTLP_ENDPOINT',
      ),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('HTTP headers sent to the collector, e.g. an API key; default OTEL_EXPORTER_OTLP_HEADERS'),
    protocol: z
      .enum(['http/protobuf', 'http/json'])
      .optional()
      .describe('OTLP encoding (default http/protobuf, or OTEL_EXPORTER_OTLP_PROTOCOL)'),
  })
  .strict();

export type TelemetrySettings = z.infer<typeof telemetrySchema>;

/** riskgate's configuration file: the same shape for the user's file and a project's. */
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    model: z.string().min(1).optional().describe('Model name sent to the endpoint, e.g. "gpt-4.1-mini"'),
    baseURL: z
      .url()
      .optional()
      .describe('An OpenAI-compatible endpoint, e.g. "http://127.0.0.1:11434/v1" for a local server'),
    apiKey: z.string().min(1).optional().describe('API key; prefer the OPENAI_API_KEY environment variable'),
    mode: z
      .enum(SAFETY_MODES as [SafetyMode, ...SafetyMode[]])
      .optional()
      .describe('strict | smart (default) | guarded | yolo'),
    rules: z
      .object({ allow: ruleList.optional(), ask: ruleList.optional(), deny: ruleList.optional() })
      .strict()
      .optional(),
    maxSteps: z
      .number()
      .int()
      .min(1)
      .max(200)
      .optional()
      .describe('Model replies per turn before riskgate stops the turn (default 20)'),
    requestTimeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'Per-request timeout of the model client, and the longest one streamed reply may take (default 600000)',
      ),
    maxRetries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe(
        'Retries of a model request on 429, 5xx and connection errors, shown and stoppable; a Retry-After over 60 s fails at once (default 2)',
      ),
    sql: z
      .object({
        database: z.string().min(1).optional().describe('A SQLite file or postgres:// URL opened by "riskgate sql"'),
        maxRows: z.number().int().positive().optional(),
        modelRows: z.number().int().positive().optional(),
        statementTimeoutMs: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    commands: z
      .object({
        timeoutMs: z.number().int().positive().optional(),
        maxOutputBytes: z.number().int().positive().optional(),
        sandbox: z
          .enum(['whitelisted', 'always', 'off'])
          .optional()
          .describe(
            'Which commands run in the bubblewrap sandbox: whitelisted (default), always (approved ones too), off (and only commands safe without it run unasked)',
          ),
        passEnvironment: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'))
          .optional()
          .describe(
            'Secret-named environment variables commands may see, e.g. ["GITHUB_TOKEN"]; riskgate\'s own API key never',
          ),
      })
      .strict()
      .optional(),
    http: z
      .object({
        allowLoopback: z.boolean().optional().describe('Let GET/HEAD/OPTIONS to this machine run unasked'),
        allowPrivate: z.boolean().optional().describe('Let GET/HEAD/OPTIONS to private networks run unasked'),
        maxBodyBytes: z.number().int().positive().optional(),
        timeoutMs: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    telemetry: telemetrySchema.optional(),
    trustedProjects: z
      .array(z.string().refine(isAbsolute, 'expected an absolute path'))
      .optional()
      .describe(
        'Projects whose .riskgate/ applies in full (real paths; read from the user file only). Managed by "riskgate trust"; see docs/trust.md',
      ),
  })
  .strict();

export type ConfigFile = z.infer<typeof configSchema>;
