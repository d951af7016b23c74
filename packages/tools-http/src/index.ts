export {
  boundedResolver,
  type BoundedResolverOptions,
  createSystemResolver,
  type Resolver,
  type SystemResolverOptions,
  systemResolver,
} from './dns.js';
export { formatResponseForModel, htmlToText } from './format-response.js';
export { assessHttpRequest, effectiveMethod, judgeHost, SAFE_METHODS } from './http-assessor.js';
export { type HttpFailure, type HttpResponseData, performHttpRequest } from './http-client.js';
export {
  createHttpRequestTool,
  HTTP_METHODS,
  HTTP_TOOL_NAME,
  type HttpRequestArgs,
  type HttpToolOptions,
  httpRequestParameters,
} from './http-request-tool.js';
export { findRequestSecrets, redactHeader } from './request-secrets.js';
// Used on its own, a tool needs two parts of the gate as well: its JSON schema for a model's API
// (with risk_level) and the gate's verdict. Re-exported so an app can install this package alone.
export {
  DEFAULT_POLICY,
  type Decision,
  evaluateToolCall,
  type GatePolicy,
  toolFunctionDefinition,
} from '@riskgate/risk';
