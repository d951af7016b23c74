import { evaluateToolCall, type GatePolicy, type NetworkPolicy } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { createHttpRequestTool, type Resolver } from '../src/index.js';

/** Names tests use, and where they lead; nothing here leaves the machine. */
const names: Record<string, string[]> = {
  'example.com': ['93.184.216.34'],
  'api.github.com': ['140.82.112.6'],
  'registry.npmjs.org': ['104.16.0.35', '2606:4700::6810:23'],
  'rebind.example': ['127.0.0.1'],
  'internal.example': ['10.0.0.5'],
  'v6local.example': ['::1'],
  'nip.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
};
const resolver: Resolver = async (hostname) => {
  const found = names[hostname.replace(/\.+$/, '')];
  if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};
const tool = createHttpRequestTool({ resolve: resolver });
const strict: NetworkPolicy = { allowLoopback: false, allowPrivate: false };
const gate = (args: Record<string, unknown>, mode: GatePolicy['mode'] = 'smart', network = strict) =>
  evaluateToolCall(tool, args, { cwd: process.cwd(), network }, { mode, rules: [] });

type Row = readonly [string, Record<string, unknown>, RegExp];

/** Every row is dangerous: never whitelisted, and confirmed in guarded mode whatever the model says. */
function attackTable(title: string, rows: readonly Row[]) {
  describe(title, () => {
    it.each(rows)('%s', async (_name, args, reason) => {
      const plain = await gate({ method: 'GET', ...args });
      expect(plain.decision.whitelisted).toBe(false);
      expect(plain.decision.action).toBe('confirm');
      expect(plain.decision.reasons.join('\n')).toMatch(reason);
      const lying = await gate({ method: 'GET', ...args, risk_level: 'low' }, 'guarded');
      expect(lying.decision).toMatchObject({ action: 'confirm', source: 'guard' });
    });
  });
}

const url = (u: string) => ({ url: u });
const header = (name: string, value: string, u = 'https://example.com/items/1') => ({
  url: u,
  headers: { [name]: value },
});

attackTable('attacks: credential headers beyond the usual few', [
  ['Authorization Bearer', header('Authorization', 'Bearer abc.def'), /Authorization/],
  ['authorization lower case', header('authorization', 'Basic dTpw'), /authorization/],
  ['Proxy-Authorization', header('Proxy-Authorization', 'Basic dTpw'), /proxy/],
  ['Cookie', header('Cookie', 'sid=1'), /cookies/],
  ['X-Vault-Token', header('X-Vault-Token', 'hvs.CAESIabc'), /Vault/],
  ['x-vault-token lower', header('x-vault-token', 'hvs.CAESIabc'), /Vault/],
  ['Ocp-Apim-Subscription-Key', header('Ocp-Apim-Subscription-Key', '0123456789abcdef'), /Azure API Management/],
  ['X-Goog-Api-Key', header('X-Goog-Api-Key', 'AIzaSyA-abc'), /Google API key/],
  ['PRIVATE-TOKEN (GitLab)', header('PRIVATE-TOKEN', 'glpat-xxxxxxxx'), /GitLab/],
  ['Private-Token mixed case', header('Private-Token', 'glpat-xxxxxxxx'), /GitLab/],
  ['JOB-TOKEN', header('JOB-TOKEN', 'x'), /GitLab CI/],
  ['X-Amz-Security-Token', header('X-Amz-Security-Token', 'FwoGZXIvYXdzE'), /AWS session token/],
  ['X-API-Key', header('X-API-Key', 'k'), /API key/],
  ['api-key (Azure OpenAI)', header('api-key', 'k'), /API key/],
  ['apikey (Supabase)', header('apikey', 'k'), /API key/],
  ['X-Auth-Token', header('X-Auth-Token', 't'), /auth token/],
  ['X-Access-Token', header('X-Access-Token', 't'), /access token/],
  ['X-Consul-Token', header('X-Consul-Token', 't'), /Consul/],
  ['X-Nomad-Token', header('X-Nomad-Token', 't'), /Nomad/],
  ['x-functions-key', header('x-functions-key', 't'), /Azure Functions/],
  ['X-JFrog-Art-Api', header('X-JFrog-Art-Api', 't'), /Artifactory/],
  ['DD-API-KEY', header('DD-API-KEY', 't'), /Datadog/],
  ['X-Hasura-Admin-Secret', header('X-Hasura-Admin-Secret', 't'), /Hasura/],
  ['X-Shopify-Access-Token', header('X-Shopify-Access-Token', 't'), /Shopify/],
  ['X-RapidAPI-Key', header('X-RapidAPI-Key', 't'), /RapidAPI/],
  ['X-Client-Secret (by its words)', header('X-Client-Secret', 't'), /credential/],
  ['X-Session-Token (by its words)', header('X-Session-Token', 't'), /credential/],
  ['X_Api_Password (by its words)', header('X_Api_Password', 't'), /credential/],
  ['a GitHub token in an odd header', header('X-Note', 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'), /GitHub token/],
  [
    'a JWT in an odd header',
    header(
      'X-Whatever',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ),
    /JSON Web Token/,
  ],
]);

attackTable('attacks: credentials and signatures in the query string and URL', [
  ['?access_token=', url('https://example.com/?access_token=abcdef0123456789'), /access token/],
  ['?access-token=', url('https://example.com/?access-token=abcdef0123456789'), /access token/],
  ['?accessToken=', url('https://example.com/?accessToken=abcdef0123456789'), /access token/],
  ['?ACCESS_TOKEN=', url('https://example.com/?ACCESS_TOKEN=abcdef0123456789'), /access token/],
  ['?token=', url('https://api.github.com/?token=abcdef0123'), /token/],
  ['?api_key=', url('https://example.com/?api_key=abcdef0123'), /API key/],
  ['?apiKey=', url('https://example.com/?apiKey=abcdef0123'), /API key/],
  ['?key= (Google)', url('https://example.com/maps?key=AIzaSyAbcdefgh'), /API key/],
  ['?private_token= (GitLab)', url('https://example.com/api/v4/projects?private_token=glpat-abcdef'), /GitLab/],
  ['?client_secret=', url('https://example.com/oauth?client_secret=s3cr3t'), /client secret/],
  ['?password=', url('https://example.com/login?password=x'), /password/],
  ['?pwd=', url('https://example.com/login?pwd=hunter'), /password/],
  ['?hapikey= (HubSpot)', url('https://example.com/contacts?hapikey=abcdef0123'), /HubSpot/],
  ['?subscription-key= (Azure)', url('https://example.com/?subscription-key=abcdef0123'), /Azure/],
  [
    'S3 presigned X-Amz-Signature',
    url(
      'https://example.com/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20240101&X-Amz-Signature=abcdef0123456789',
    ),
    /AWS/,
  ],
  ['S3 X-Amz-Security-Token', url('https://example.com/o?X-Amz-Security-Token=FwoGZXIvYXdzEabc'), /AWS session token/],
  ['GCS X-Goog-Signature', url('https://example.com/o?X-Goog-Signature=abcdef0123456789'), /Google Cloud Storage/],
  ['Azure SAS sig=', url('https://example.com/c/b?sv=2021-08-06&se=2030-01-01&sp=rw&sig=abc%2Bdef%3D'), /signature/],
  [
    'CloudFront Signature=',
    url('https://example.com/v.mp4?Expires=1&Signature=abcdefghij&Key-Pair-Id=K1'),
    /signature/,
  ],
  ['?my_api_token= (by its words)', url('https://example.com/?my_api_token=abcdef0123'), /credential/],
  ['?jwt=', url('https://example.com/?jwt=eyJhbGciOi'), /JSON Web Token/],
  ['?sessionid=', url('https://example.com/?sessionid=abcdef0123'), /session/],
  ['user:password@', url('https://user:hunter2@example.com/'), /password in the URL/],
  [
    'token@ (user name only)',
    url('https://ghp_0123456789abcdefghijklmnopqrstuvwxyzAB@example.com/'),
    /user name in the URL|GitHub token/,
  ],
  ['an AWS key anywhere in the URL', url('https://example.com/x/AKIAIOSFODNN7EXAMPLE'), /AWS access key/],
]);

attackTable('attacks: method overrides make a GET another method', [
  [
    'X-HTTP-Method-Override: DELETE',
    header('X-HTTP-Method-Override', 'DELETE'),
    /X-HTTP-Method-Override header makes the server treat this GET as DELETE/,
  ],
  ['x-http-method-override: delete (lower case)', header('x-http-method-override', 'delete'), /as DELETE/],
  ['X-HTTP-Method: DELETE', header('X-HTTP-Method', 'DELETE'), /as DELETE/],
  ['X-Method-Override: PUT', header('X-Method-Override', 'PUT'), /as PUT/],
  ['X-HTTP-Method-Override: PATCH', header('X-HTTP-Method-Override', 'PATCH'), /as PATCH/],
  ['X-HTTP-Method-Override: POST', header('X-HTTP-Method-Override', 'POST'), /as POST/],
  ['X-HTTP-Method-Override on HEAD', { method: 'HEAD', ...header('X-HTTP-Method-Override', 'DELETE') }, /as DELETE/],
  [
    'X-HTTP-Method-Override on OPTIONS',
    { method: 'OPTIONS', ...header('X-HTTP-Method-Override', 'DELETE') },
    /as DELETE/,
  ],
  [
    '?_method=DELETE',
    url('https://example.com/items/1?_method=DELETE'),
    /_method=DELETE makes the server treat this GET as DELETE/,
  ],
  ['?_method=delete', url('https://example.com/items/1?_method=delete'), /as DELETE/],
  ['?_method=PUT', url('https://example.com/items/1?_method=PUT'), /as PUT/],
  ['?_METHOD=PATCH', url('https://example.com/items/1?_METHOD=PATCH'), /as PATCH/],
  ['?__method=DELETE', url('https://example.com/items/1?__method=DELETE'), /as DELETE/],
  ['?x-http-method-override=DELETE', url('https://example.com/items/1?x-http-method-override=DELETE'), /as DELETE/],
  [
    'GraphQL mutation in a GET',
    url('https://example.com/graphql?query=mutation%20%7BdeleteUser(id%3A1)%7D'),
    /GraphQL mutation/,
  ],
  [
    'GraphQL mutation with a comment first',
    url('https://example.com/graphql?query=%23x%0Amutation%20%7Bx%7D'),
    /GraphQL mutation/,
  ],
]);

attackTable('attacks: headers that reroute a request or forge its origin', [
  ['Host: another site', header('Host', 'admin.internal'), /Host header names another site/],
  ['X-Forwarded-Host', header('X-Forwarded-Host', 'admin.internal'), /another site/],
  ['X-Original-URL: /admin', header('X-Original-URL', '/admin'), /another path/],
  ['X-Rewrite-URL: /admin', header('X-Rewrite-URL', '/admin'), /another path/],
  ['X-Forwarded-For: 127.0.0.1', header('X-Forwarded-For', '127.0.0.1'), /another address/],
  ['X-Real-IP: 127.0.0.1', header('X-Real-IP', '127.0.0.1'), /another address/],
  ['True-Client-IP', header('True-Client-IP', '127.0.0.1'), /another address/],
  ['Forwarded: for=127.0.0.1', header('Forwarded', 'for=127.0.0.1'), /another address/],
]);

attackTable('attacks: loopback in every spelling', [
  ['127.0.0.1', url('http://127.0.0.1/'), /loopback/],
  ['127.0.0.2', url('http://127.0.0.2:8080/'), /loopback/],
  ['127.1', url('http://127.1/'), /loopback/],
  ['decimal 2130706433', url('http://2130706433/'), /loopback/],
  ['hex 0x7f000001', url('http://0x7f000001/'), /loopback/],
  ['hex dotted 0x7f.0.0.1', url('http://0x7f.0.0.1/'), /loopback/],
  ['octal 0177.0.0.1', url('http://0177.0.0.1/'), /loopback/],
  ['octal 017700000001', url('http://017700000001/'), /loopback/],
  ['mixed 0x7f.1', url('http://0x7f.1/'), /loopback/],
  ['trailing dot 127.0.0.1.', url('http://127.0.0.1./'), /loopback/],
  ['0.0.0.0', url('http://0.0.0.0:5432/'), /loopback/],
  ['0', url('http://0/'), /loopback/],
  ['[::1]', url('http://[::1]/'), /loopback/],
  ['[0:0:0:0:0:0:0:1]', url('http://[0:0:0:0:0:0:0:1]/'), /loopback/],
  ['[::]', url('http://[::]/'), /loopback/],
  ['IPv4-mapped [::ffff:127.0.0.1]', url('http://[::ffff:127.0.0.1]/'), /loopback/],
  ['IPv4-mapped hex [::ffff:7f00:1]', url('http://[::ffff:7f00:1]/'), /loopback/],
  ['IPv4-compatible [::7f00:1]', url('http://[::7f00:1]/'), /loopback/],
  ['IPv4-compatible [::127.0.0.1]', url('http://[::127.0.0.1]/'), /loopback/],
  ['NAT64 [64:ff9b::7f00:1]', url('http://[64:ff9b::7f00:1]/'), /loopback/],
  ['NAT64 [64:ff9b::127.0.0.1]', url('http://[64:ff9b::127.0.0.1]/'), /loopback/],
  ['6to4 [2002:7f00:1::]', url('http://[2002:7f00:1::]/'), /loopback/],
  ['localhost', url('http://localhost:3000/'), /loopback/],
  ['LOCALHOST.', url('http://LOCALHOST./'), /loopback/],
  ['sub.localhost', url('http://app.localhost/'), /loopback/],
  ['localhost.localdomain', url('http://localhost.localdomain/'), /loopback/],
  ['userinfo trick example.com@127.0.0.1', url('http://example.com@127.0.0.1/'), /user name|loopback/],
  ['a name that resolves to 127.0.0.1', url('http://rebind.example/'), /resolves to 127.0.0.1/],
  ['a name that resolves to ::1', url('http://v6local.example/'), /resolves to ::1/],
  ['a name that resolves to ::ffff:127.0.0.1', url('http://mapped.example/'), /loopback/],
]);

attackTable('attacks: every cloud metadata address', [
  ['AWS/GCP/Azure 169.254.169.254', url('http://169.254.169.254/latest/meta-data/'), /metadata/],
  ['decimal 2852039166', url('http://2852039166/'), /metadata/],
  ['hex 0xa9fea9fe', url('http://0xa9fea9fe/'), /metadata/],
  ['octal 0251.0376.0251.0376', url('http://0251.0376.0251.0376/'), /metadata/],
  ['short 169.254.43518', url('http://169.254.43518/'), /metadata/],
  ['trailing dot 169.254.169.254.', url('http://169.254.169.254./'), /metadata/],
  ['IPv4-mapped', url('http://[::ffff:169.254.169.254]/'), /metadata/],
  ['IPv4-mapped hex', url('http://[::ffff:a9fe:a9fe]/'), /metadata/],
  ['IPv4-compatible', url('http://[::a9fe:a9fe]/'), /metadata/],
  ['NAT64', url('http://[64:ff9b::a9fe:a9fe]/'), /metadata/],
  ['6to4', url('http://[2002:a9fe:a9fe::]/'), /metadata/],
  ['AWS IPv6 [fd00:ec2::254]', url('http://[fd00:ec2::254]/latest/'), /metadata/],
  ['AWS IPv6 long form', url('http://[fd00:ec2:0:0:0:0:0:254]/'), /metadata/],
  ['GCP IPv6 [fd20:ce::254]', url('http://[fd20:ce::254]/'), /metadata/],
  ['Linode IPv6', url('http://[fd00:a9fe:a9fe::1]/'), /metadata/],
  ['AWS ECS 169.254.170.2', url('http://169.254.170.2/v2/credentials'), /metadata/],
  ['AWS EKS pod identity 169.254.170.23', url('http://169.254.170.23/'), /metadata/],
  ['Tencent 169.254.0.23', url('http://169.254.0.23/'), /metadata/],
  ['Alibaba 100.100.100.200', url('http://100.100.100.200/latest/meta-data/'), /metadata/],
  ['Oracle 192.0.0.192', url('http://192.0.0.192/'), /metadata/],
  ['Azure WireServer 168.63.129.16', url('http://168.63.129.16/'), /metadata/],
  ['Scaleway 169.254.42.42', url('http://169.254.42.42/conf'), /metadata/],
  ['metadata.google.internal', url('http://metadata.google.internal/computeMetadata/v1/'), /metadata/],
  ['metadata.google.internal.', url('http://metadata.google.internal./'), /metadata/],
  ['metadata.google.internal..', url('http://metadata.google.internal../'), /metadata/],
  ['METADATA.GOOGLE.INTERNAL', url('http://METADATA.GOOGLE.INTERNAL/'), /metadata/],
  ['metadata.goog', url('http://metadata.goog/'), /metadata/],
  ['metadata (short name)', url('http://metadata/'), /metadata/],
  ['instance-data', url('http://instance-data/latest/'), /metadata/],
  ['metadata.azure.com', url('http://metadata.azure.com/'), /metadata/],
  ['metadata.tencentyun.com', url('http://metadata.tencentyun.com/'), /metadata/],
  ['a name that resolves to a metadata address', url('http://nip.example/'), /metadata/],
  ['metadata over https with a port', url('https://169.254.169.254:443/'), /metadata/],
]);

attackTable('attacks: private networks and other schemes', [
  ['10/8', url('http://10.0.0.1/'), /private/],
  ['172.16/12', url('http://172.31.255.1/'), /private/],
  ['192.168/16', url('http://192.168.0.1/'), /private/],
  ['CGNAT 100.64/10', url('http://100.64.0.1/'), /private/],
  ['link-local 169.254.1.1', url('http://169.254.1.1/'), /private/],
  ['unique local [fd12::1]', url('http://[fd12::1]/'), /private/],
  ['link-local [fe80::1]', url('http://[fe80::1]/'), /private/],
  ['a name that resolves to 10.0.0.5', url('http://internal.example/'), /10.0.0.5/],
  ['multicast', url('http://224.0.0.1/'), /reserved/],
  ['broadcast', url('http://255.255.255.255/'), /reserved/],
  ['file:///etc/shadow', url('file:///etc/shadow'), /password hashes/],
  ['file:///proc/self/environ', url('file:///proc/self/environ'), /environment/],
  ['file://localhost/etc/shadow-', url('file://localhost/etc/shadow-'), /password hashes/],
  ['file:///dev/zero', url('file:///dev/zero'), /never ends|waits/],
  ['file:///%2e%2e/etc/shadow (encoded dots)', url('file:///%2e%2e/etc/shadow'), /password hashes/],
  ['gopher://', url('gopher://127.0.0.1:6379/_FLUSHALL'), /not HTTP/],
  ['ftp://', url('ftp://example.com/x'), /not HTTP/],
  ['dict://', url('dict://127.0.0.1:11211/stats'), /not HTTP/],
  ['ws://', url('ws://example.com/socket'), /not HTTP/],
  ['data:', url('data:text/plain,hello'), /not HTTP/],
]);

describe('safe: public reads stay whitelisted', () => {
  const rows: [string, Record<string, unknown>][] = [
    ['GET a page', url('https://example.com/')],
    ['GET http', url('http://example.com/index.html')],
    ['GET with a query', url('https://example.com/search?q=riskgate&page=2')],
    ['GET with ?key= too short to be a key', url('https://example.com/?key=a')],
    ['GET with ?token= empty', url('https://example.com/?token=')],
    ['GET with ?sort=name&order=desc', url('https://example.com/items?sort=name&order=desc')],
    ['GET with ?method=list (not an override name)', url('https://example.com/api?method=list')],
    ['GET a GraphQL query (not a mutation)', url('https://example.com/graphql?query=%7Busers%7Bid%7D%7D')],
    ['GET a GitHub API path', url('https://api.github.com/repos/nodejs/node/releases/latest')],
    ['GET registry with IPv4 and IPv6 answers', url('https://registry.npmjs.org/react')],
    ['HEAD', { method: 'HEAD', ...url('https://example.com/') }],
    ['OPTIONS', { method: 'OPTIONS', ...url('https://example.com/') }],
    ['Accept header', header('Accept', 'application/json', 'https://example.com/')],
    ['User-Agent header', header('User-Agent', 'riskgate', 'https://example.com/')],
    ['Accept-Language header', header('Accept-Language', 'en', 'https://example.com/')],
    ['If-None-Match header', header('If-None-Match', '"v1"', 'https://example.com/')],
    ['Host equal to the URL host', header('Host', 'example.com', 'https://example.com/')],
    ['X-HTTP-Method-Override equal to the method', header('X-HTTP-Method-Override', 'GET', 'https://example.com/')],
    ['a public IPv4 literal', url('http://93.184.216.34/')],
    ['a public IPv6 literal', url('http://[2606:2800:220:1:248:1893:25c8:1946]/')],
    ['a path mentioning token', url('https://example.com/docs/tokens/overview')],
    ['a port', url('https://example.com:8443/health')],
    ['a fragment', url('https://example.com/page#section')],
    ['file:// of a workspace file', url(`file://${process.cwd()}/package.json`)],
  ];
  it.each(rows)('%s', async (_name, args) => {
    const evaluation = await gate({ method: 'GET', ...args });
    expect(evaluation.decision).toMatchObject({ action: 'execute', source: 'whitelist', whitelisted: true });
  });

  it('loopback and private hosts run unasked only when the context allows them, metadata never', async () => {
    const open: NetworkPolicy = { allowLoopback: true, allowPrivate: true };
    expect((await gate({ method: 'GET', url: 'http://127.0.0.1:3000/' }, 'smart', open)).decision.action).toBe(
      'execute',
    );
    expect((await gate({ method: 'GET', url: 'http://internal.example/' }, 'smart', open)).decision.action).toBe(
      'execute',
    );
    expect((await gate({ method: 'GET', url: 'http://169.254.169.254/' }, 'smart', open)).decision.action).toBe(
      'confirm',
    );
    expect((await gate({ method: 'GET', url: 'http://[fd00:ec2::254]/' }, 'smart', open)).decision.action).toBe(
      'confirm',
    );
  });
});
