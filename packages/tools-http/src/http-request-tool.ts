import {
  notAssessed,
  defineTool,
  type NetworkPolicy,
  type OperationDescription,
  STRICT_NETWORK,
  toolFailure,
} from '@riskgate/risk';
import { z } from 'zod/v4';
import { boundedResolver, type Resolver, systemResolver } from './dns.js';
import { assessHttpRequest } from './http-assessor.js';
import { type HttpResponseData, networkPolicyFor, performHttpRequest } from './http-client.js';
import { formatResponseForModel } from './format-response.js';
import { redactHeader } from './request-secrets.js';

export const HTTP_TOOL_NAME = 'http_request';
export const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

// Declared by its output alone: the inferred type names zod 4.6's ZodPreprocess, which the older
// zod a consumer may have as our peer (3.25's zod/v4, 4.0) does not declare.
const methodParameter: z.ZodType<(typeof HTTP_METHODS)[number]> = z
  .preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(HTTP_METHODS))
  .describe('The HTTP method');

export const httpRequestParameters = z.object({
  method: methodParameter,
  url: z
    .string()
    .min(1)
    .max(16_384)
    .refine((value) => URL.canParse(value), 'not a valid absolute URL')
    .describe('Absolute http or https URL'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers'),
  body: z.string().max(10_000_000).optional().describe('Request body (for POST, PUT, PATCH)'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(600_000)
    .optional()
    .describe('Give up after this many milliseconds (default 30000)'),
});

export type HttpRequestArgs = z.output<typeof httpRequestParameters>;

export interface HttpToolOptions {
  /**
   * What whitelisted requests may reach besides public hosts, when the call's context has no
   * `network` (the gate judges with `AssessContext.network`; hosts should set that). Default: public only.
   */
  readonly network?: Partial<NetworkPolicy>;
  /** Resolves host names (the system resolver by default; tests pass their own). */
  readonly resolve?: Resolver;
  /** A lookup that takes longer fails (not whitelisted), so a slow resolver never stalls the gate. Default 1,500 ms. */
  readonly resolveTimeoutMs?: number;
  /** How long a name's answer is kept (30 s by default; a person may take longer to approve). */
  readonly resolveCacheMs?: number;
  readonly maxBodyBytes?: number;
  readonly defaultTimeoutMs?: number;
  readonly maxRedirects?: number;
}

export function createHttpRequestTool(options: HttpToolOptions = {}) {
  const fallbackNetwork: NetworkPolicy = { ...STRICT_NETWORK, ...options.network };
  const resolve = boundedResolver(options.resolve ?? systemResolver, {
    ...(options.resolveTimeoutMs === undefined ? {} : { timeoutMs: options.resolveTimeoutMs }),
    ...(options.resolveCacheMs === undefined ? {} : { ttlMs: options.resolveCacheMs }),
  });
  const maxBodyBytes = options.maxBodyBytes ?? 100 * 1024;
  return defineTool({
    name: HTTP_TOOL_NAME,
    description:
      'Make an HTTP request and return the status, main headers and body (JSON pretty-printed, HTML as text, capped). GET, HEAD and OPTIONS to public hosts run at once; other methods, private or local addresses, and requests carrying credentials need the user’s confirmation.',
    noun: 'request',
    // Any method to any public address: a DELETE or POST may destroy or create on another system.
    hints: { title: 'Send an HTTP request', readOnly: false, destructive: true, idempotent: false, openWorld: true },
    title: ({ method, url }) => `${method} ${url}`,
    parameters: httpRequestParameters,
    ruleStyle: 'url',
    assess: (args) => assessHttpRequest(args, resolve),
    describe: (args): OperationDescription => {
      const url = new URL(args.url);
      return {
        kind: 'http',
        requestLine: `${args.method} ${url.href}`,
        headers: Object.entries(args.headers ?? {}).map(([name, value]) => redactHeader(name, value)),
        ...(args.body === undefined
          ? {}
          : {
              bodyPreview:
                args.body.length > 2_000
                  ? `${args.body.slice(0, 2_000)}… (${args.body.length.toLocaleString('en-US')} characters)`
                  : args.body,
            }),
        details: [],
      };
    },
    execute: async (args, context, plan) => {
      // What runs is what was assessed: no plan, nothing runs.
      if (plan === undefined) return notAssessed(HTTP_TOOL_NAME, 'http-not-assessed');
      const network = context.network ?? fallbackNetwork;
      const target = new URL(args.url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        const hint = target.protocol === 'file:' ? '; use file_operations to read files' : '';
        return toolFailure(
          'http-unsupported-scheme',
          `${target.protocol} URLs are not supported by http_request${hint}`,
        );
      }
      // A whitelisted request keeps to public hosts on every hop and every connection. Any other
      // (confirmed by the person, or rated low by the model, as the specification lets it) may
      // reach the kind of host the judge and the panel saw — a private or loopback one — but
      // never metadata, and no other kind than the one the name resolved to when it was judged.
      const policy =
        context.readOnly || plan.hostClass === undefined ? network : networkPolicyFor(plan.hostClass, network);
      const result = await performHttpRequest({
        method: args.method,
        url: args.url,
        headers: args.headers ?? {},
        ...(args.body === undefined ? {} : { body: args.body }),
        timeoutMs: args.timeout_ms ?? options.defaultTimeoutMs ?? 30_000,
        signal: context.signal,
        maxBodyBytes,
        maxRedirects: options.maxRedirects ?? 5,
        resolve,
        policy,
      });
      if ('type' in result)
        return toolFailure(result.code, result.message, { outcomeUnknown: result.code === 'http-outcome-unknown' });
      return {
        type: 'tool-success',
        forModel: await formatResponseForModel(result),
        data: result as HttpResponseData,
      } as const;
    },
  });
}
