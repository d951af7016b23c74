import { findSecrets } from '@riskgate/risk';

const SECRET_QUERY_NAMES = /^(access_?token|id_?token|refresh_?token|token|api_?key|apikey|key|secret|client_secret|password|passwd|pwd|auth|sig|signature)$/i;
export const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|x-api-key|x-auth-token|x-access-token|api-key)$/i;

export interface RequestSecrets {
  readonly inUrl: readonly string[];
  readonly inHeaders: readonly string[];
  readonly inBody: readonly string[];
}

export function findRequestSecrets(url: URL, headers: Readonly<Record<string, string>>, body: string | undefined): RequestSecrets {
  const inUrl = [...findSecrets(decodeURIComponentSafe(url.href))];
  for (const [name, value] of url.searchParams) {
    if (SECRET_QUERY_NAMES.test(name) && value.length >= 8) inUrl.push(`a credential in the query parameter "${name}"`);
  }
  if (url.password !== '') inUrl.push('a password in the URL');
  const inHeaders: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADERS.test(name)) inHeaders.push(`credentials in the ${name} header`);
    else inHeaders.push(...findSecrets(value).map((what) => `${what} in the ${name} header`));
  }
  return { inUrl: [...new Set(inUrl)], inHeaders, inBody: body === undefined ? [] : findSecrets(body) };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Header values as the panel shows them: credentials hidden but for their scheme. */
export function redactHeader(name: string, value: string): string {
  if (!CREDENTIAL_HEADERS.test(name)) return `${name}: ${value}`;
  const scheme = /^(Bearer|Basic|Token|Digest)\s/i.exec(value)?.[1];
  return `${name}: ${scheme === undefined ? '' : `${scheme} `}*** (${value.length} characters, hidden)`;
}
