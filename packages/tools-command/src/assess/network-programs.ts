import { parseArgs } from './options.js';
import { known, type WordValue } from './words.js';
import { type CallSite, type OptionUse, row } from './table.js';

/**
 * Programs that open connections. Each yields a `connect` effect per host it names (the judge
 * classes the address: metadata services are high), plus the files it reads or writes: a
 * `curl -T ~/.ssh/id_rsa` uploads a secret, `curl -o ~/.bashrc` writes a start-up file.
 */

function hostOf(text: string): { host: string; port?: number; scheme?: string } | undefined {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
    if (url.hostname === '') return undefined;
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      scheme: url.protocol.replace(/:$/, ''),
    };
  } catch {
    return undefined;
  }
}

function connect(site: CallSite, word: WordValue, via: string, file: 'read' | 'write' = 'read'): void {
  // file:// URLs read local files (curl file:///etc/shadow); with -T curl writes the upload there.
  const local = word.value === undefined ? null : /^file:\/\/[^/]*(\/.*)$/i.exec(word.value);
  if (local !== null) {
    site.path(file, known(decodeURIComponent(local[1]!)), { via });
    return;
  }
  const target = word.value === undefined ? undefined : hostOf(word.value);
  if (target === undefined) {
    site.emit({
      kind: 'connect',
      host: word.value ?? `a host known only at run time (${word.raw})`,
      via,
      severity: word.value === undefined ? 'high' : 'medium',
    });
    return;
  }
  site.emit({ kind: 'connect', ...target, via });
}

/** `@file` and `<file` in curl data and form values read that file. */
function dataFile(site: CallSite, value: WordValue | undefined, via: string): void {
  const text = value?.value;
  if (value !== undefined && text === undefined)
    site.emit({ kind: 'unknown', severity: 'high', detail: `${via} sends data known only at run time (${value.raw})` });
  const match = text === undefined ? null : /(?:^|=)[@<](.+)$/s.exec(text);
  if (match !== null && match[1] !== '-') site.path('read', known(match[1]!.replace(/;type=.*$/, '')), { via });
}

const CURL_OPTIONS: Record<string, OptionUse> = {
  '-o': 'write',
  '--output': 'write',
  '-c': 'write',
  '--cookie-jar': 'write',
  '-D': 'write',
  '--dump-header': 'write',
  '--trace': 'write',
  '--trace-ascii': 'write',
  '--stderr': 'write',
  '--libcurl': 'write',
  '--etag-save': 'write',
  '--hsts': 'write',
  '--alt-svc': 'write',
  '-T': 'read',
  '--upload-file': 'read',
  '-K': 'read',
  '--config': 'read',
  '--netrc-file': 'read',
  '--key': 'read',
  '-E': 'read',
  '--cert': 'read',
  '--cacert': 'read',
  '-b': 'data',
  '--cookie': 'data',
  '-d': 'data',
  '--data': 'data',
  '--data-binary': 'data',
  '--data-raw': 'data',
  '--data-urlencode': 'data',
  '--data-ascii': 'data',
  '-F': 'data',
  '--form': 'data',
  '--form-string': 'data',
  '--json': 'data',
  '-X': 'data',
  '--request': 'data',
  '-H': 'data',
  '--header': 'data',
  '-u': 'data',
  '--user': 'data',
  '-A': 'data',
  '-e': 'data',
  '-x': 'data',
  '--proxy': 'data',
  '--preproxy': 'data',
  '--socks4': 'data',
  '--socks4a': 'data',
  '--socks5': 'data',
  '--socks5-hostname': 'data',
  '--write-out': 'data',
  '-g': 'flag',
  '--globoff': 'flag',
  '-w': 'data',
  '--url': 'data',
  '-m': 'data',
  '--max-time': 'data',
  '--connect-timeout': 'data',
  '-r': 'data',
  '--retry': 'data',
  '--resolve': 'data',
  '--unix-socket': 'read',
  '--abstract-unix-socket': 'data',
  '-O': 'flag',
  '--remote-name': 'flag',
  '-n': 'flag',
  '--netrc': 'flag',
  '-z': 'data',
  '-Y': 'data',
  '-y': 'data',
  '-C': 'data',
  '--limit-rate': 'data',
  '--output-dir': 'write',
  '-P': 'data',
  '--variable': 'data',
  '--expand-url': 'data',
};

/** curl options whose value is a URL curl connects to (a proxy for every request). */
const CURL_PROXIES = /^(-x|--proxy|--preproxy|--socks4a?|--socks5(-hostname)?)$/;

/**
 * What curl's own options can do beyond the table: a config file (-K) holds options riskgate does
 * not read (an output file, an upload, more URLs); `-w '%output{f}'` writes f; a URL with `{a,b}`
 * or `[1-9]` stands for several (curl's URL globbing, off with -g), so its path is not one known file.
 */
function curlOptionEffects(site: CallSite, option: { name: string; value?: WordValue | undefined }): void {
  const via = `curl ${option.name}`;
  if (option.name === '-K' || option.name === '--config')
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${via} takes options from a file riskgate does not read`,
      via,
    });
  if (CURL_PROXIES.test(option.name) && option.value !== undefined) connect(site, option.value, via);
  const written = option.name === '-w' || option.name === '--write-out' ? option.value?.value : undefined;
  if (written !== undefined && /%output\{/.test(written))
    site.emit({ kind: 'unknown', severity: 'high', detail: `${via} writes to a file named in its format`, via });
}

const globbed = (word: WordValue) => word.value === undefined || /[{}[\]]/.test(word.value);

/** curl: every URL is a connection; -o/-O write; -T, `-d @file`, `-F x=@file`, --netrc read files; -K is not read. */
export function curlProgram(site: CallSite): void {
  const parsed = parseArgs(row('data', { options: CURL_OPTIONS }), site.args, site);
  let remoteName = false;
  let upload = false;
  let globbing = true;
  for (const option of parsed.options) {
    const via = `curl ${option.name}`;
    if ((option.use === 'read' || option.use === 'write') && option.value !== undefined)
      site.path(option.use, option.value, { via });
    if (/^(-d|--data.*|-F|--form|--json|-b|--cookie)$/.test(option.name)) dataFile(site, option.value, via);
    if (option.name === '--url' && option.value !== undefined) connect(site, option.value, 'curl');
    if (option.name === '-O' || option.name === '--remote-name') remoteName = true;
    if (option.name === '-T' || option.name === '--upload-file') upload = true;
    if (option.name === '-g' || option.name === '--globoff') globbing = false;
    if (option.name === '-n' || option.name === '--netrc') site.path('read', known(`${site.home}/.netrc`), { via });
    curlOptionEffects(site, option);
  }
  for (const word of parsed.operands) {
    if (globbing && globbed(word) && word.value !== undefined && /^file:/i.test(word.value))
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `curl reads several files by the pattern ${word.raw}`,
        via: 'curl',
      });
    else connect(site, word, 'curl', upload ? 'write' : 'read');
    if (remoteName) {
      const name =
        word.value === undefined
          ? undefined
          : hostOf(word.value) &&
            new URL(/:\/\//.test(word.value) ? word.value : `http://${word.value}`).pathname.split('/').pop();
      site.path('write', name ? known(name) : { ...word, texts: ['\u0000'], unknown: true, value: undefined }, {
        via: 'curl -O',
      });
    }
  }
}

/** wget: saves what it fetches (in . unless -O - or --spider); -i and --post-file read files; -e runs wgetrc commands. */
export function wgetProgram(site: CallSite): void {
  const parsed = parseArgs(
    row('data', {
      options: {
        '-O': 'write',
        '--output-document': 'write',
        '-o': 'write',
        '--output-file': 'write',
        '-a': 'write',
        '--append-output': 'write',
        '-P': 'write',
        '--directory-prefix': 'write',
        '-i': 'read',
        '--input-file': 'read',
        '--post-file': 'read',
        '--body-file': 'read',
        '--load-cookies': 'read',
        '--save-cookies': 'write',
        '--certificate': 'read',
        '--private-key': 'read',
        '-e': 'unknown',
        '--execute': 'unknown',
        '--use-askpass': 'run',
        '--post-data': 'data',
        '--header': 'data',
        '--user': 'data',
        '--password': 'data',
        '-U': 'data',
        '-t': 'data',
        '-T': 'data',
        '-w': 'data',
        '-Q': 'data',
        '-l': 'data',
        '-A': 'data',
        '-R': 'data',
        '-D': 'data',
        '-X': 'data',
        '-I': 'data',
        '--method': 'data',
        '--body-data': 'data',
        '-B': 'data',
      },
    }),
    site.args,
    site,
  );
  let saved = true;
  for (const option of parsed.options) {
    const via = `wget ${option.name}`;
    if ((option.use === 'read' || option.use === 'write') && option.value !== undefined) {
      if (option.value.value === '-' && option.use === 'write')
        saved = option.name !== '-O' && option.name !== '--output-document' ? saved : false;
      else site.path(option.use, option.value, { via });
      if (option.name === '-O' || option.name === '--output-document') saved = false;
    } else if (option.use === 'unknown')
      site.emit({ kind: 'unknown', severity: 'high', detail: `${via} runs wgetrc commands`, via });
    else if (option.use === 'run') site.emit({ kind: 'run-program', program: option.value?.raw ?? 'a program', via });
    if (option.name === '--spider') saved = false;
  }
  for (const word of parsed.operands) connect(site, word, 'wget');
  if (saved && parsed.operands.length > 0)
    site.path('write', known('.'), { via: 'wget', note: 'wget saves what it downloads in the working directory' });
}

/** Tools whose first operand is a host (`user@host`, `host:port`); options that run programs locally are listed. */
const HOST_TOOLS: Record<string, Record<string, OptionUse>> = {
  ssh: {
    '-o': 'data',
    '-i': 'data',
    '-p': 'data',
    '-l': 'data',
    '-F': 'read',
    '-E': 'write',
    '-L': 'data',
    '-R': 'data',
    '-D': 'data',
    '-J': 'data',
    '-W': 'data',
    '-b': 'data',
    '-c': 'data',
    '-m': 'data',
    '-O': 'data',
    '-Q': 'data',
    '-S': 'data',
    '-w': 'data',
    '-e': 'data',
    '-B': 'data',
    '-I': 'data',
  },
  sftp: {
    '-o': 'data',
    '-i': 'data',
    '-P': 'data',
    '-F': 'read',
    '-b': 'read',
    '-S': 'run',
    '-D': 'run',
    '-J': 'data',
    '-l': 'data',
    '-R': 'data',
    '-B': 'data',
    '-c': 'data',
  },
  nc: {
    '-e': 'run',
    '-c': 'run',
    '-p': 'data',
    '-s': 'data',
    '-w': 'data',
    '-i': 'data',
    '-x': 'data',
    '-X': 'data',
    '-o': 'write',
    '-q': 'data',
    '-I': 'data',
    '-O': 'data',
    '-T': 'data',
    '-V': 'data',
    '-W': 'data',
    '-M': 'data',
    '-m': 'data',
  },
  telnet: { '-l': 'data', '-e': 'data', '-n': 'write', '-b': 'data' },
  ftp: { '-P': 'data' },
  ping: {
    '-c': 'data',
    '-i': 'data',
    '-W': 'data',
    '-w': 'data',
    '-s': 'data',
    '-t': 'data',
    '-I': 'data',
    '-p': 'data',
    '-Q': 'data',
    '-M': 'data',
    '-l': 'data',
    '-m': 'data',
    '-S': 'data',
  },
  dig: {
    '-p': 'data',
    '-t': 'data',
    '-c': 'data',
    '-q': 'data',
    '-x': 'data',
    '-b': 'data',
    '-f': 'read',
    '-k': 'read',
    '-y': 'data',
  },
  nslookup: {},
  host: { '-t': 'data', '-c': 'data', '-W': 'data', '-R': 'data', '-N': 'data', '-m': 'data' },
  traceroute: {
    '-m': 'data',
    '-p': 'data',
    '-q': 'data',
    '-w': 'data',
    '-s': 'data',
    '-f': 'data',
    '-i': 'data',
    '-g': 'data',
    '-z': 'data',
  },
  whois: { '-h': 'data', '-p': 'data' },
  nmap: {
    '-p': 'data',
    '-oN': 'write',
    '-oX': 'write',
    '-oG': 'write',
    '-oA': 'write',
    '-iL': 'read',
    '--script': 'run',
    '-sC': 'runs',
  },
};

export function hostToolProgram(site: CallSite): void {
  const options = HOST_TOOLS[site.name === 'ncat' || site.name === 'netcat' ? 'nc' : site.name] ?? {};
  const parsed = parseArgs(row('data', { options }), site.args, site);
  for (const option of parsed.options) {
    const via = `${site.name} ${option.name}`;
    if ((option.use === 'read' || option.use === 'write') && option.value !== undefined)
      site.path(option.use, option.value, { via });
    if (option.use === 'run' || option.use === 'runs') {
      site.emit({ kind: 'run-program', program: option.value?.raw ?? `what ${via} runs`, via });
      if (option.value !== undefined) site.script(option.value.value, via);
    }
    // ssh -o ProxyCommand=… / LocalCommand=… run a command on this machine.
    if (
      option.name === '-o' &&
      /^(ProxyCommand|LocalCommand|KnownHostsCommand|Match)\b/i.test(option.value?.value ?? '')
    ) {
      site.emit({
        kind: 'run-program',
        program: `the command ssh ${option.value!.value!.split(/[= ]/)[0]} names`,
        via,
      });
      site.script(option.value!.value!.replace(/^\w+\s*[= ]\s*/, ''), via);
    }
  }
  const first = parsed.operands[0];
  if (first === undefined) {
    site.emit({ kind: 'connect', host: 'a host', via: site.name });
    return;
  }
  connect(site, first.value === undefined ? first : known(first.value.replace(/^[^@]*@/, '')), site.name);
}

/** scp and rsync: `host:path` operands connect; the last operand is written, the others read (`--delete` deletes). */
export function copyOverNetworkProgram(site: CallSite): void {
  const options: Record<string, OptionUse> =
    site.name === 'rsync'
      ? {
          '-e': 'run',
          '--rsh': 'run',
          '--rsync-path': 'data',
          '--exclude': 'data',
          '--include': 'data',
          '--exclude-from': 'read',
          '--include-from': 'read',
          '--files-from': 'read',
          '--password-file': 'read',
          '-f': 'data',
          '--filter': 'data',
          '--log-file': 'write',
          '--backup-dir': 'write',
          '--temp-dir': 'write',
          '-T': 'write',
          '--chmod': 'data',
          '--chown': 'data',
          '--port': 'data',
          '--bwlimit': 'data',
          '-B': 'data',
          '--timeout': 'data',
          '--max-size': 'data',
          '--min-size': 'data',
          '--partial-dir': 'write',
          '--compare-dest': 'read',
          '--link-dest': 'read',
          '--copy-dest': 'read',
        }
      : {
          '-i': 'data',
          '-P': 'data',
          '-o': 'data',
          '-F': 'read',
          '-l': 'data',
          '-c': 'data',
          '-S': 'run',
          '-J': 'data',
          '-D': 'run',
          '-X': 'data',
        };
  const parsed = parseArgs(row('data', { options }), site.args, site);
  for (const option of parsed.options) {
    const via = `${site.name} ${option.name}`;
    if ((option.use === 'read' || option.use === 'write') && option.value !== undefined)
      site.path(option.use, option.value, { via });
    if (option.use === 'run') site.emit({ kind: 'run-program', program: option.value?.raw ?? 'a program', via });
  }
  const deletes = parsed.options.find(
    (option) =>
      option.name === '--delete' || option.name.startsWith('--delete-') || option.name === '--remove-source-files',
  );
  parsed.operands.forEach((word, index) => {
    const remote = word.value === undefined ? null : /^(?:([^@/:]+)@)?([^/:]+|\[[^\]]+\]):(.*)$/s.exec(word.value);
    if (remote !== null) {
      connect(site, known(remote[2]!), site.name);
      return;
    }
    const last = index === parsed.operands.length - 1 && parsed.operands.length > 1;
    site.path(last ? 'write' : 'read', word, { recursive: true, via: site.name });
    // --delete removes what the destination has beyond the source; --remove-source-files the sources.
    if (deletes !== undefined && last === (deletes.name !== '--remove-source-files'))
      site.path('delete', word, { recursive: true, via: `${site.name} ${deletes.name}` });
  });
}
