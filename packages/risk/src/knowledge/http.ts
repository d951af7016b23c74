/**
 * What parts of an HTTP request mean, for every tool that makes one (http_request, and the
 * command assessor for `curl -H …`, `wget --header …`): which header and query names carry
 * credentials, which ones turn a GET into another method, and which ones reroute a request.
 * Names are compared in lower case; query names also without `-`, `_` and `.`
 * (`access-token`, `access_token` and `accessToken` are one name).
 */

/** Headers that carry credentials, by exact name, with whose they are. */
export const CREDENTIAL_HEADERS: ReadonlyMap<string, string> = new Map([
  ['authorization', 'HTTP authentication'],
  ['proxy-authorization', 'proxy authentication'],
  ['cookie', 'session cookies'],
  ['x-api-key', 'an API key'],
  ['api-key', 'an API key (Azure OpenAI, New Relic)'],
  ['apikey', 'an API key (Supabase, Kong)'],
  ['x-auth-token', 'an auth token'],
  ['x-access-token', 'an access token'],
  ['access-token', 'an access token (devise_token_auth)'],
  ['x-vault-token', 'a HashiCorp Vault token'],
  ['x-consul-token', 'a Consul ACL token'],
  ['x-nomad-token', 'a Nomad ACL token'],
  ['ocp-apim-subscription-key', 'an Azure API Management subscription key'],
  ['x-functions-key', 'an Azure Functions key'],
  ['x-goog-api-key', 'a Google API key'],
  ['private-token', 'a GitLab personal access token'],
  ['job-token', 'a GitLab CI job token'],
  ['deploy-token', 'a GitLab deploy token'],
  ['x-gitlab-token', 'a GitLab webhook token'],
  ['x-amz-security-token', 'an AWS session token'],
  ['x-amz-credential', 'AWS request credentials'],
  ['x-jfrog-art-api', 'a JFrog Artifactory API key'],
  ['x-registry-auth', 'Docker registry credentials'],
  ['x-rapidapi-key', 'a RapidAPI key'],
  ['x-algolia-api-key', 'an Algolia API key'],
  ['x-shopify-access-token', 'a Shopify access token'],
  ['x-postmark-server-token', 'a Postmark server token'],
  ['x-figma-token', 'a Figma token'],
  ['dd-api-key', 'a Datadog API key'],
  ['dd-application-key', 'a Datadog application key'],
  ['x-honeycomb-team', 'a Honeycomb API key'],
  ['x-sentry-auth', 'a Sentry key'],
  ['x-hasura-admin-secret', 'the Hasura admin secret'],
  ['x-auth-key', 'a Cloudflare global API key'],
  ['x-csrf-token', 'a session-bound CSRF token'],
  ['x-xsrf-token', 'a session-bound CSRF token'],
  ['x-plex-token', 'a Plex token'],
]);

/** Header names whose words say credential: X-Client-Secret, X-Session-Token, X-Api-Password. */
const CREDENTIAL_HEADER_WORDS =
  /(^|[-_])(auth|authorization|token|secret|password|passwd|passphrase|apikey|api-key|key|session|sessionid|cookie|signature|credential|credentials|jwt|bearer)([-_]|$)/;

/** The credential a header carries, or undefined. */
export function credentialHeader(name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  return (
    CREDENTIAL_HEADERS.get(lower) ?? (CREDENTIAL_HEADER_WORDS.test(lower) ? 'a credential (by its name)' : undefined)
  );
}

/**
 * Query parameters that carry credentials or sign a URL (a signed URL is a credential: whoever
 * holds it may do what it allows). Keys are normalised: lower case without `-`, `_`, `.`.
 */
export const CREDENTIAL_QUERY_NAMES: ReadonlyMap<string, string> = new Map([
  ['accesstoken', 'an access token'],
  ['idtoken', 'an OpenID token'],
  ['refreshtoken', 'a refresh token'],
  ['authtoken', 'an auth token'],
  ['apitoken', 'an API token'],
  ['token', 'a token'],
  ['oauthtoken', 'an OAuth token'],
  ['oauthsignature', 'an OAuth signature'],
  ['privatetoken', 'a GitLab token'],
  ['jwt', 'a JSON Web Token'],
  ['apikey', 'an API key'],
  ['key', 'an API key (Google ?key=)'],
  ['hapikey', 'a HubSpot API key'],
  ['appkey', 'an application key'],
  ['appsecret', 'an application secret'],
  ['accesskey', 'an access key'],
  ['secretkey', 'a secret key'],
  ['subscriptionkey', 'an Azure subscription key'],
  ['secret', 'a secret'],
  ['clientsecret', 'an OAuth client secret'],
  ['password', 'a password'],
  ['passwd', 'a password'],
  ['pwd', 'a password'],
  ['pass', 'a password'],
  ['auth', 'credentials'],
  ['session', 'a session id'],
  ['sessionid', 'a session id'],
  ['sid', 'a session id'],
  ['phpsessid', 'a session id'],
  ['jsessionid', 'a session id'],
  ['sig', 'a URL signature (Azure SAS, signed links)'],
  ['signature', 'a URL signature (CloudFront, signed links)'],
  ['xamzsignature', 'an AWS S3 presigned URL signature'],
  ['xamzcredential', 'AWS presigned URL credentials'],
  ['xamzsecuritytoken', 'an AWS session token'],
  ['xgoogsignature', 'a Google Cloud Storage signed URL'],
  ['xgoogcredential', 'Google Cloud Storage signed URL credentials'],
  ['googleaccessid', 'a Google Cloud Storage signed URL'],
  ['xplextoken', 'a Plex token'],
  ['code', 'an OAuth authorization code'],
]);

/** Query names whose words say credential: my_api_token, clientSecret, db-password. */
const CREDENTIAL_QUERY_WORDS = /(token|secret|passw|apikey|signature|credential|sessionid)/;

/** Values this short are flags or placeholders (`?token=1`), not credentials; passwords excepted. */
const SHORT_VALUE = 6;
const ANY_LENGTH = new Set(['password', 'passwd', 'pwd', 'pass', 'secret', 'clientsecret', 'sig', 'signature']);

/** The credential a query parameter carries, or undefined. */
export function credentialQueryName(name: string, value: string): string | undefined {
  const key = name.toLowerCase().replace(/[-_.]/g, '');
  if (value.length === 0 || (value.length < SHORT_VALUE && !ANY_LENGTH.has(key))) return undefined;
  return (
    CREDENTIAL_QUERY_NAMES.get(key) ?? (CREDENTIAL_QUERY_WORDS.test(key) ? 'a credential (by its name)' : undefined)
  );
}

/**
 * Headers and query parameters that make a server treat the request as another method
 * (Rails, Laravel, Symfony, ASP.NET, Google APIs): a GET carrying one is judged as that method.
 */
export const METHOD_OVERRIDE_HEADERS: ReadonlySet<string> = new Set([
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-original-method',
]);
export const METHOD_OVERRIDE_QUERY_NAMES: ReadonlySet<string> = new Set([
  '_method',
  '__method',
  'x-http-method-override',
  'x-method-override',
  '$method',
]);

/**
 * Headers that reroute a request or forge where it comes from: a public proxy asked for
 * `Host: internal-admin`, an `X-Original-URL: /admin` behind a front end that allowed `/`, or
 * `X-Forwarded-For: 127.0.0.1` to pass an address check. One row per name, with what it does.
 */
export const ROUTING_HEADERS: ReadonlyMap<string, string> = new Map([
  ['host', 'names another site than the URL'],
  ['x-forwarded-host', 'names another site than the URL'],
  ['x-host', 'names another site than the URL'],
  ['x-forwarded-server', 'names another site than the URL'],
  ['x-http-host-override', 'names another site than the URL'],
  ['x-original-url', 'asks the server for another path than the URL'],
  ['x-rewrite-url', 'asks the server for another path than the URL'],
  ['x-forwarded-for', 'pretends the request comes from another address'],
  ['x-real-ip', 'pretends the request comes from another address'],
  ['x-client-ip', 'pretends the request comes from another address'],
  ['x-originating-ip', 'pretends the request comes from another address'],
  ['x-remote-ip', 'pretends the request comes from another address'],
  ['x-remote-addr', 'pretends the request comes from another address'],
  ['true-client-ip', 'pretends the request comes from another address'],
  ['cf-connecting-ip', 'pretends the request comes from another address'],
  ['forwarded', 'pretends the request comes from another address or site'],
]);
