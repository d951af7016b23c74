import { describe, expect, it } from 'vitest';
import { contentHoldsSecret, findSecretsIn, replaceFindings } from '../src/index.js';
import { seededRandom } from './secret-samples.js';

// riskgate's service formats (service-formats.ts): self-identifying tokens gitleaks' rules lack,
// found missing by measuring against outside corpora (docs/decisions/0008-secret-engine.md). Every
// token here is made by a seeded generator in the documented format, not copied from anywhere.
const random = seededRandom(808);
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE64URL = `${ALNUM}_-`;

/** `length` characters of `alphabet`, with a digit, a lower- and an upper-case letter wherever the alphabet has them. */
function body(length: number, alphabet: string): string {
  for (;;) {
    let text = '';
    for (let index = 0; index < length; index++) text += alphabet[Math.floor(random() * alphabet.length)];
    const wanted = [/\d/, /[a-z]/, /[A-Z]/].filter((pattern) => pattern.test(alphabet));
    if (wanted.every((pattern) => pattern.test(text))) return text;
  }
}

const uuid = () => [8, 4, 4, 4, 12].map((length) => body(length, HEX)).join('-');

/** One row per format: the service, a generated token, and the part of the text that is the secret. */
const FORMATS: readonly (readonly [service: string, token: string, secret?: string])[] = [
  // gitleaks' Stripe rule stops at 99 characters after the prefix and at `-`.
  ['Stripe-style secret key, long', `sk_live_${body(120, ALNUM)}`],
  ['Stripe-style restricted key with - and _', `rk_test_${body(40, ALNUM)}-${body(20, BASE64URL)}`],
  ['OpenAI project key, first form', `sk-proj-${body(20, ALNUM)}T3BlbkFJ${body(20, ALNUM)}`],
  [
    'OpenAI service-account key with a name',
    `sk-svcacct-build-bot-${body(40, BASE64URL)}T3BlbkFJ${body(40, BASE64URL)}`,
  ],
  ['Telegram bot token', `${1 + body(9, '0123456789').slice(1)}:AA${body(33, BASE64URL)}`],
  ['Mailchimp API key', `${body(32, HEX)}-us${14}`],
  ['test.pypi.org token', `pypi-AgENdGVzdC5weXBpLm9yZw${body(120, BASE64URL)}`],
  ['Cloudflare user API token', `cfut_${body(40, ALNUM)}${body(8, HEX)}`],
  ['Cloudflare account API token', `cfat_${body(40, ALNUM)}${body(8, HEX)}`],
  ['Cloudflare global API key', `cfk_${body(40, ALNUM)}${body(8, HEX)}`],
  ['LangSmith personal key', `lsv2_pt_${body(32, HEX)}_${body(10, HEX)}`],
  ['LangSmith service key', `lsv2_sk_${body(32, HEX)}_${body(10, HEX)}`],
  ['Langfuse secret key', `sk-lf-${uuid()}`],
  ['Pinecone API key', `pcsk_${body(6, ALNUM)}_${body(64, ALNUM)}`],
  ['Adafruit IO key', `aio_${body(28, ALNUM)}`],
  ['Apify API token', `apify_api_${body(36, ALNUM)}`],
  ['Buildkite API token', `bkua_${body(40, LOWER_ALNUM)}`],
  ['Rootly API key', `rootly_${body(64, HEX)}`],
  ['Bitbucket Data Center token', `BBDC-${body(44, `${ALNUM}+/`)}`],
  ['Bitbucket app password', `ATBB${body(32, ALNUM)}`],
  ['Octopus Deploy API key', `API-${body(27, UPPER_ALNUM)}`],
  ['Spectral token', `spu-${body(32, HEX)}`],
  ['Bannerbear master key', `bb_ma_${body(30, HEX)}`],
  ['Ramp client secret', `ramp_sec_${body(48, ALNUM)}`],
  // A bot token: its id in base64 (old 17-digit ids and new 19-digit ones), a timestamp, an HMAC.
  ...[`2${body(16, '0123456789')}`, `1${body(18, '0123456789')}`].map((id): [string, string] => [
    `Discord bot token (a ${id.length}-digit id)`,
    `${Buffer.from(id).toString('base64url')}.${body(6, BASE64URL)}.${body(38, BASE64URL)}`,
  ]),
  ...((): [string, string, string][] => {
    const token = body(68, BASE64URL);
    return [['Discord webhook', `https://discord.com/api/webhooks/1${body(18, '0123456789')}/${token}`, token]];
  })(),
];

/** Where such a token stands in output: bare in a log, an env line, JSON, a header, `grep -rn`. */
const SPELLINGS: readonly (readonly [name: string, write: (token: string) => string])[] = [
  ['bare', (token) => token],
  ['a log line', (token) => `2026-03-01T10:00:00Z DEBUG client ready with ${token} (region eu)`],
  ['an env line under a neutral name', (token) => `UPLOAD_VALUE=${token}`],
  ['JSON', (token) => `{"value": "${token}", "region": "eu-west-1"}`],
  ['JSON inside a string', (token) => `body = "{\\"value\\": \\"${token}\\"}"`],
  ['braces', (token) => `<secret>{${token}}</secret>`],
  [
    'grep -rn output',
    (token) => `deploy/settings.conf:12:upload_value: '${token}'\ndeploy/settings.conf:13:region: eu`,
  ],
];

const withheld = (text: string) => replaceFindings(text, findSecretsIn(text), () => '[W]');

describe('service formats', () => {
  it.each(
    FORMATS.flatMap(([service, token, secret]) =>
      SPELLINGS.map(([name, write]) => [service, name, write(token), secret ?? token]),
    ),
  )('withholds a %s in %s', (_service, _name, text, secret) => {
    const out = withheld(text);
    expect(out).not.toContain(secret);
    // Exactly the secret goes: what stands around it stays for the model to read.
    expect(out.replace('[W]', secret)).toBe(text);
  });

  it.each(
    FORMATS.map(([service, token]) => [service, token]),
  )('hides a workspace file holding a %s', (_service, token) => {
    expect(contentHoldsSecret(`# settings\nregion = "eu"\nvalue = ${token}\n`)).toBeDefined();
  });

  // The prefixes alone, too short, masked or in words: placeholders and identifiers pass unchanged.
  it.each([
    'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx',
    'sk_test_parse_header_response_v2',
    'def rk_test_rotates_keys_each_month_1(): pass',
    'sk-proj-T3BlbkFJ',
    'T3BlbkFJ is base64 for OpenAI',
    'step 12345678:AAsomething failed',
    '12345678:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'd41d8cd98f00b204e9800998ecf8427e-users.json',
    'Accept-Language: en-us12',
    'curl --user-agent x -us1',
    'pypi-AgE',
    'pypi-AgExxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'cfut_short1',
    'cfat_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'lsv2_pt_<your-key>',
    'LANGSMITH_API_KEY=lsv2_pt_...',
    'LANGFUSE_PUBLIC_KEY=pk-lf-1c2d3e4f-0a1b-4c5d-8e9f-0a1b2c3d4e5f',
    'pcsk_abc',
    'async def aio_fetch_remote_resource_list(): ...',
    'from .aio_client_session_factory import make',
    'aio_xxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'apify_api_token = os.environ["APIFY_TOKEN"]',
    'bkua_',
    'rootly_api_client.list_incidents()',
    'BBDC-placeholder',
    'See https://fog-ringer-f42.notion.site/API-BD80F56CDC1441E6BF6011AB6D852875 for the API docs',
    'API-DOCUMENTATION-REVIEW-CHECKLIST-2026',
    'ATBBREVIATIONS_AND_ACRONYMS_LIST_V2',
    'ATBBxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'spu-abc',
    'bb_ma_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'ramp_sec_',
    'https://discord.com/api/webhooks/123456789012345678/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'https://discord.com/developers/docs/resources/webhook',
    // Three dotted parts that are no bot token: a first part that is no numeric id, a masked one, a host.
    `${Buffer.from('hello-world-example-x').toString('base64url')}.abcdef.${'Ab1'.repeat(10)}`,
    'MTIzNDU2Nzg5MDEyMzQ1Njc4.xxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'NTP.server.pool.ntp.org',
  ])('passes %s unchanged', (text) => {
    expect(findSecretsIn(text)).toEqual([]);
  });
});

// gitleaks' rules end a token at a quote or a space; the engine also ends it at a single `}`.
describe('gitleaks formats closed by a brace', () => {
  const anthropic = `sk-ant-api03-${body(93, BASE64URL)}AA`;
  it.each([
    ['a Jenkins-style element', `<secret>{${anthropic}}</secret>`, anthropic],
    ['a shell default', `key="\${ANTHROPIC_API_KEY:-${anthropic}}"`, anthropic],
    ['a JSON-like map', `keys = {primary: ${anthropic}}`, anthropic],
    ['a brace-wrapped value', `key: {${anthropic}}`, anthropic],
  ])('withholds a token in %s', (_name, text, secret) => {
    expect(withheld(text)).not.toContain(secret);
  });

  it.each([
    'token: {{ .Values.githubToken }}',
    'curl -sS -u deploy:${password} https://ci.example.com/api/json',
    'url = "https://#{user}:#{token}@git.example.com"',
  ])('leaves a template reference to the placeholder tests: %s', (text) => {
    expect(findSecretsIn(text)).toEqual([]);
  });
});
