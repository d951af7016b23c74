import { credentialHeader, credentialQueryName, findSecrets } from '@riskgate/risk';

export interface RequestSecrets {
  readonly inUrl: readonly string[];
  readonly inHeaders: readonly string[];
  readonly inBody: readonly string[];
}

/** Every credential the request would send, in plain words. Names come from the risk knowledge base. */
export function findRequestSecrets(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
): RequestSecrets {
  const inUrl = [...findSecrets(decodeURIComponentSafe(url.href))];
  for (const [name, value] of url.searchParams) {
    const what = credentialQueryName(name, value);
    if (what !== undefined) inUrl.push(`${what} in the query parameter "${name}"`);
  }
  if (url.password !== '') inUrl.push('a password in the URL');
  else if (url.username !== '')
    inUrl.push(`a user name in the URL ("${decodeURIComponentSafe(url.username)}@"), sent as credentials`);
  const inHeaders: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const what = credentialHeader(name);
    if (what !== undefined && value.trim() !== '') inHeaders.push(`${what} in the ${name} header`);
    else inHeaders.push(...findSecrets(value).map((found) => `${found} in the ${name} header`));
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
  if (credentialHeader(name) === undefined) return `${name}: ${value}`;
  const scheme = /^(Bearer|Basic|Token|Digest|ApiKey)\s/i.exec(value)?.[1];
  return `${name}: ${scheme === undefined ? '' : `${scheme} `}*** (${value.length} characters, hidden)`;
}
