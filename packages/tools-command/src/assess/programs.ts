import { applyOperands } from './apply.js';
import {
  dateProgram,
  ddProgram,
  findProgram,
  getentProgram,
  hostnameProgram,
  interpreterProgram,
  pagerProgram,
  printenvProgram,
  psProgram,
  shellProgram,
  tarProgram,
} from './custom-programs.js';
import { gitProgram } from './git.js';
import { copyOverNetworkProgram, curlProgram, hostToolProgram, wgetProgram } from './network-programs.js';
import { PACKAGE_PROGRAMS } from './package-programs.js';
import { READ_PROGRAMS } from './read-programs.js';
import { awkProgram, jqProgram, sedProgram } from './scripts.js';
import { SANDBOX_ONLY_PROGRAMS } from './sandbox-only-programs.js';
import { LONG_TAIL_PROGRAMS, withLongTail } from './long-tail.js';
import { SIDE_EFFECT_PROGRAMS } from './side-effect-programs.js';
import { SYSTEM_PACKAGE_PROGRAMS } from './system-package-programs.js';
import { known } from './simple-command.js';
import { always, type CallSite, connects, controls, type ProgramRow, row, runs } from './table.js';

/**
 * Every program riskgate knows, by name: the read-only and side-effect tables plus the rows
 * judged in code. Anything not here (nor a builtin or wrapper) is `unknown`: the spec's
 * `init` or a custom script, which the model's risk_level decides.
 */

const custom = (judge: (site: CallSite) => void): ProgramRow => row('data', { custom: judge });
/** A judge in code that reads every option it accepts: whitelisted without the sandbox too (table.ts). */
const coreCustom = (judge: (site: CallSite) => void): ProgramRow => row('data', { custom: judge, core: true });

/** Disk tools: -l (and parted's print) list; otherwise they rewrite the device. */
const diskTool = custom((site) => {
  const listing = site.args.some((word) => /^(-l|--list|print|-s)$/.test(word.value ?? ''));
  applyOperands(site, row(listing ? 'list' : 'write', listing ? {} : { severity: 'high' }));
});

/** Compressors replace each file by its compressed form unless told to write to standard output. */
const compressor = custom((site) => {
  const words = site.args.map((word) => word.value ?? '');
  const toStdout = words.some((word) => /^-[a-zA-Z0-9]*[clt]|^--(stdout|to-stdout|list|test)$/.test(word));
  const keeps = words.some((word) => /^-[a-zA-Z0-9]*k|^--keep$/.test(word));
  for (const word of site.args) {
    if ((word.value ?? '').startsWith('-')) continue;
    site.path('read', word, { via: site.name });
    if (!toStdout)
      site.path(keeps ? 'write' : 'delete', word, {
        via: site.name,
        note: `${site.name} replaces the file with its ${site.name.includes('un') || words.includes('-d') ? 'decompressed' : 'compressed'} form`,
      });
  }
});

/** Credential command-line tools: every call uses (and can print) the secrets in their store, and most connect. */
const credentialTool = (store: string, connectsTo?: string): ProgramRow =>
  custom((site) => {
    site.path('read', known(store.replace(/^~/, site.home)), { via: site.name });
    if (connectsTo !== undefined) site.emit({ kind: 'connect', host: connectsTo, via: site.name });
    site.emit({ kind: 'run-program', program: site.name, via: site.name });
  });

/** docker and podman: listing verbs read (inside the sandbox only); inspect shows containers' environments. */
const containerTool = custom((site) => {
  const verb = site.args.find((word) => !(word.value ?? '').startsWith('-'))?.value ?? '';
  if (
    /^(ps|images|version|info|top|port|history|diff|stats|logs|volume|network|container|image)$/.test(verb) &&
    !site.args.some((word) =>
      /^(rm|prune|create|run|exec|kill|stop|start|restart|cp|pull|push|build)$/.test(word.value ?? ''),
    )
  ) {
    // Docker talks to its daemon over a Unix socket, which the sandbox closes: inside it the
    // listing fails, outside it nothing contains a mistake. Asked (an allow rule opens it).
    site.emit({
      kind: 'unknown',
      detail: `${site.name} ${verb} talks to the ${site.name} daemon, which riskgate's sandbox cannot reach: asked`,
    });
    if (verb === 'stats' && !site.args.some((word) => word.value === '--no-stream'))
      site.emit({ kind: 'unbounded', resource: 'time', detail: `${site.name} stats refreshes until it is stopped` });
    return;
  }
  if (verb === 'inspect') {
    site.emit({
      kind: 'read-env',
      names: 'all',
      via: `${site.name} inspect`,
      note: "inspect shows containers' environment variables",
    });
    return;
  }
  if (/^(rm|rmi|kill|stop|pause|unpause|prune|system|restart)$/.test(verb))
    site.emit({
      kind: 'control-process',
      detail: `${site.name} ${verb} stops or removes containers or images`,
      severity: 'high',
    });
  else site.emit({ kind: 'run-program', program: `${site.name} ${verb}`.trim(), via: site.name });
});

/** kubectl and helm talk to a cluster with the person's credentials; reading secrets or changing objects is more. */
const clusterTool = custom((site) => {
  site.emit({ kind: 'connect', host: 'the Kubernetes cluster', via: site.name });
  const words = site.args.map((word) => word.value ?? '');
  const verb = words.find((word) => !word.startsWith('-')) ?? '';
  if (words.some((word) => /^secrets?$/.test(word) || word.startsWith('secret/')) || words.includes('--raw'))
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${site.name} reads secrets from the cluster or the kubeconfig`,
    });
  if (
    !/^(get|describe|logs|top|version|explain|api-resources|api-versions|cluster-info|list|status|history|show|search|config)$/.test(
      verb,
    )
  ) {
    site.emit({
      kind: 'control-process',
      detail: `${site.name} ${verb} changes what runs in the cluster`,
      severity: 'high',
    });
  }
});

/** socat addresses: EXEC:/SYSTEM: run programs, the rest open connections or files. */
const socat = custom((site) => {
  for (const word of site.args) {
    const value = word.value ?? '';
    if (value.startsWith('-')) continue;
    const match = /^([A-Za-z0-9-]+):(.*)$/s.exec(value);
    const type = match?.[1]?.toUpperCase() ?? '';
    if (type === 'EXEC' || type === 'SYSTEM') site.script(match![2]!.split(',')[0], `socat ${type}`);
    else if (/^(TCP|UDP|SCTP|OPENSSL|SSL|SOCKS|PROXY)/.test(type))
      site.emit({ kind: 'connect', host: match![2]!.split(/[:,]/)[0] || 'a host', via: 'socat' });
    else if (/^(OPEN|CREATE|GOPEN|FILE)$/.test(type))
      site.path('write', known(match![2]!.split(',')[0]!), { via: 'socat' });
    else if (value !== '-' && value !== 'STDIO' && value !== 'STDIN' && value !== 'STDOUT')
      site.emit({ kind: 'unknown', severity: 'high', detail: `socat address ${word.raw}` });
  }
});

/** ln TARGET… LINK: the link is written; with one operand the link goes into the working directory. */
const ln = custom((site) => {
  const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
  const target = site.args.findIndex((word) => word.value === '-t' || word.value === '--target-directory');
  if (target !== -1 && site.args[target + 1] !== undefined)
    site.path('write', site.args[target + 1]!, { via: 'ln -t' });
  else if (operands.length === 1) site.path('write', known(operands[0]!.value?.split('/').pop() ?? '.'), { via: 'ln' });
  else if (operands.length > 1) site.path('write', operands[operands.length - 1]!, { via: 'ln' });
});

/** sysctl prints kernel settings; -w, NAME=VALUE, -p and --system change them. */
const sysctl = custom((site) => {
  // Only the reading options (procps-ng 4); -w, -p/-f FILE, --system, NAME=VALUE and any other change settings.
  const reads =
    /^(-[aAXnNeqbdr]+|--(all|values|names|ignore|quiet|binary|deprecated|pattern(=.*)?)|-h|--help|-V|--version)$/;
  const words = site.args.map((word) => word.value ?? '=');
  if (
    words.some((word, index) =>
      word.startsWith('-') ? !reads.test(word) : word.includes('=') && !/^(-r|--pattern)$/.test(words[index - 1] ?? ''),
    )
  ) {
    site.emit({ kind: 'control-process', detail: 'sysctl changes kernel settings', severity: 'high' });
  }
});

/**
 * ip: `ip [OPTIONS] OBJECT [show|list|get …]` reads; every other command (add, del, set, flush,
 * exec, monitor, …) changes the network or runs a program, and options fail closed: -b/-batch
 * and -force read commands from a file, -n/-netns enter another namespace.
 */
const IP_OPTIONS =
  /^-(4|6|0|B|M|s|stats|statistics|d|details|h|human|human-readable|r|resolve|o|oneline|j|json|p|pretty|c|color|br|brief|a|all|t|timestamp|ts|tshort|iec|N|numeric|f|family|l|loops|color=\w+|help|Version|V)$/;
const IP_OBJECTS =
  /^(a|ad|add|addr|addre|addres|address|r|ro|rou|rout|route|l|li|lin|link|n|ne|nei|neigh|neighbor|neighbour|ru|rule|maddr|maddress|ntable|tunnel|tunl|netconf|token|mr|mroute|nexthop|nh|stats)$/;
const ip = custom((site) => {
  const words = site.args.map((word) => word.value ?? '\u0000');
  let index = 0;
  for (; index < words.length && words[index]!.startsWith('-'); index++) {
    if (/^-(f|family|l|loops)$/.test(words[index]!)) index++;
    else if (!IP_OPTIONS.test(words[index]!)) {
      site.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `ip ${words[index]} is not among the options riskgate knows to keep ip a read (-b and -force read commands from a file)`,
      });
      return;
    }
  }
  const object = words[index];
  const command = words[index + 1];
  // `ip a`, `ip route get 1.1.1.1`, `ip -br link show dev eth0`: an object, then a reading command or none.
  if (
    object === undefined ||
    (IP_OBJECTS.test(object) && (command === undefined || /^(show|sh|sho|list|lst|ls|get|dev)$/.test(command)))
  )
    return;
  site.emit({ kind: 'control-process', detail: 'ip changes network settings or runs a command', severity: 'high' });
});

/** service NAME status reads (in the sandbox only); other verbs start or stop services. */
const service = custom((site) => {
  const verb = site.args[1]?.value;
  if (verb === 'status' || site.args[0]?.value === '--status-all') {
    if (!site.sandbox)
      site.emit({
        kind: 'unknown',
        detail: "service status runs unasked only inside riskgate's sandbox, which this call would not use",
      });
    return;
  }
  site.emit({ kind: 'control-process', detail: 'service starts, stops or changes services', severity: 'high' });
});

/** crontab -l lists; anything else installs or removes scheduled jobs. */
const crontab = custom((site) => {
  // -l alone (for this user, or -u USER) lists; with -r, -e, -i or a file it changes the table.
  const words = site.args.map((word) => word.value ?? '\u0000');
  if (words.includes('-l') && words.every((word, index) => word === '-l' || word === '-u' || words[index - 1] === '-u'))
    return;
  site.path(site.args.some((word) => word.value === '-r') ? 'delete' : 'write', known('/var/spool/cron/crontabs'), {
    via: 'crontab',
  });
});

/** split and csplit write their pieces into the working directory (or a prefix). */
const splitter = custom((site) => {
  const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
  if (operands[0] !== undefined) site.path('read', operands[0], { via: site.name });
  site.path('write', known('.'), { via: site.name, note: `${site.name} writes its pieces into files` });
});

/** unzip -l/-v/-t/-p/-Z only read; otherwise it writes what it extracts. zip writes its archive; -T/-TT run a test command. */
const unzip = custom((site) => {
  const archive = site.args.find((word) => !(word.value ?? '').startsWith('-'));
  if (archive !== undefined) site.path('read', archive, { via: 'unzip' });
  if (!site.args.some((word) => /^-[a-zA-Z]*[lvtpZ]/.test(word.value ?? '')))
    site.path('write', known('.'), { recursive: true, via: 'unzip' });
});
const zip = custom((site) => {
  const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
  if (site.args.some((word) => /^-(T|TT|-unzip-command)/.test(word.value ?? '')))
    site.emit({ kind: 'run-program', program: 'the test command zip -TT names', via: 'zip' });
  operands.forEach((word, index) => {
    site.path(index === 0 ? 'write' : 'read', word, { via: 'zip', ...(index > 0 ? { recursive: true } : {}) });
  });
});

/** openssl: -in/-key read, -out writes, s_client connects. */
const openssl = custom((site) => {
  const parsed = site.args;
  for (let index = 0; index < parsed.length; index++) {
    const option = parsed[index]!.value ?? '';
    const next = parsed[index + 1];
    if (next === undefined) continue;
    if (/^-(in|key|inkey|config|CAfile|cert|signkey|kfile|passin)$/.test(option)) {
      if (option !== '-passin' || (next.value ?? '').startsWith('file:'))
        site.path('read', option === '-passin' ? known(next.value!.slice(5)) : next, { via: `openssl ${option}` });
    } else if (/^-(out|keyout)$/.test(option)) site.path('write', next, { via: `openssl ${option}` });
    else if (option === '-connect')
      site.emit({ kind: 'connect', host: (next.value ?? 'a host').replace(/:\d+$/, ''), via: 'openssl s_client' });
  }
});

const TABLE: Record<string, ProgramRow> = {
  ...READ_PROGRAMS,
  ...SIDE_EFFECT_PROGRAMS,
  ...SANDBOX_ONLY_PROGRAMS,
  ...LONG_TAIL_PROGRAMS,
  ps: custom(psProgram),
  getent: custom(getentProgram),
  printenv: coreCustom(printenvProgram),
  hostname: coreCustom(hostnameProgram),
  less: custom(pagerProgram(READ_PROGRAMS.less!)),
  more: custom(pagerProgram(READ_PROGRAMS.more!)),
  date: coreCustom(dateProgram),
  find: coreCustom(findProgram),
  sed: custom(sedProgram),
  gsed: custom(sedProgram),
  awk: custom(awkProgram),
  gawk: custom(awkProgram),
  mawk: custom(awkProgram),
  nawk: custom(awkProgram),
  jq: custom(jqProgram),
  git: coreCustom(gitProgram),
  dd: custom(ddProgram),
  tar: custom(tarProgram),
  split: splitter,
  csplit: splitter,
  unzip,
  zip,
  ln,
  sysctl,
  ip,
  service,
  crontab,
  openssl,
  socat,
  fdisk: diskTool,
  parted: diskTool,
  ...Object.fromEntries(
    [
      'gzip',
      'gunzip',
      'bzip2',
      'bunzip2',
      'xz',
      'unxz',
      'zstd',
      'unzstd',
      'lz4',
      'compress',
      'uncompress',
      'lzma',
      'unlzma',
    ].map((name) => [name, compressor]),
  ),
  // Readers of compressed files: like cat.
  ...Object.fromEntries(
    ['zcat', 'bzcat', 'xzcat', 'zstdcat', 'lz4cat', 'zgrep', 'zless', 'zmore', 'zdiff'].map((name) => [
      name,
      row('read', name === 'zgrep' ? { leading: 1 } : {}),
    ]),
  ),
  // Shells: `-c SCRIPT` is judged as its own line.
  ...Object.fromEntries(
    ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash'].map((name) => [
      name,
      custom(shellProgram),
    ]),
  ),
  // Interpreters run code.
  ...Object.fromEntries(
    [
      'python',
      'python2',
      'python3',
      'pypy',
      'pypy3',
      'node',
      'nodejs',
      'deno',
      'bun',
      'perl',
      'ruby',
      'irb',
      'php',
      'lua',
      'luajit',
      'Rscript',
      'R',
      'julia',
      'tclsh',
      'wish',
      'pwsh',
      'powershell',
      'osascript',
      'java',
      'jshell',
      'groovy',
      'scala',
      'kotlin',
      'swift',
      'dotnet',
      'erl',
      'elixir',
      'iex',
      'ghci',
      'runghc',
      'ocaml',
      'guile',
      'racket',
      'sbcl',
      'clisp',
      'expect',
      'sqlite3',
      'psql',
      'mysql',
      'mariadb',
      'redis-cli',
      'mongo',
      'mongosh',
      'dc',
      'gdb',
      'lldb',
      'strace',
      'ltrace',
      'perf',
      'valgrind',
      'script',
      'tmux',
      'screen',
    ].map((name) => [name, custom(interpreterProgram)]),
  ),
  // Network clients.
  curl: custom(curlProgram),
  wget: custom(wgetProgram),
  ...Object.fromEntries(
    [
      'ssh',
      'sftp',
      'nc',
      'ncat',
      'netcat',
      'telnet',
      'ftp',
      'ping',
      'ping6',
      'dig',
      'nslookup',
      'host',
      'traceroute',
      'tracepath',
      'mtr',
      'whois',
      'nmap',
      'http',
      'https',
      'xh',
      'aria2c',
      'httpie',
    ].map((name) => [name, custom(hostToolProgram)]),
  ),
  scp: custom(copyOverNetworkProgram),
  rsync: custom(copyOverNetworkProgram),
  bun: custom(interpreterProgram),
  // Package managers and toolchains: tables of verbs (package-programs.ts, system-package-programs.ts).
  ...PACKAGE_PROGRAMS,
  ...SYSTEM_PACKAGE_PROGRAMS,
  docker: containerTool,
  podman: containerTool,
  nerdctl: containerTool,
  kubectl: clusterTool,
  helm: clusterTool,
  oc: clusterTool,
  // Cloud and secret-store command-line tools: they hold and print the person's credentials.
  aws: credentialTool('~/.aws', 'AWS'),
  gcloud: credentialTool('~/.config/gcloud', 'Google Cloud'),
  gsutil: credentialTool('~/.config/gcloud', 'Google Cloud'),
  az: credentialTool('~/.azure', 'Azure'),
  gh: credentialTool('~/.config/gh/hosts.yml', 'GitHub'),
  glab: credentialTool('~/.config/glab-cli', 'GitLab'),
  doctl: credentialTool('~/.config/doctl', 'DigitalOcean'),
  heroku: credentialTool('~/.netrc', 'Heroku'),
  vault: credentialTool('~/.vault-token', 'Vault'),
  terraform: credentialTool('~/.terraform.d/credentials.tfrc.json', 'Terraform Cloud'),
  pulumi: credentialTool('~/.pulumi/credentials.json', 'Pulumi'),
  databricks: credentialTool('~/.databrickscfg', 'Databricks'),
  s3cmd: credentialTool('~/.s3cfg', 'S3'),
  rclone: credentialTool('~/.config/rclone/rclone.conf', 'a remote storage'),
  pass: credentialTool('~/.password-store'),
  gopass: credentialTool('~/.password-store'),
  gpg: credentialTool('~/.gnupg'),
  gpg2: credentialTool('~/.gnupg'),
  // Password managers and keyrings hand out secrets by design.
  ...Object.fromEntries(
    ['op', 'bw', 'lpass', 'security', 'secret-tool', 'keyring', 'keepassxc-cli'].map((name) => [
      name,
      always({ kind: 'unknown', severity: 'high', detail: `${name} reads secrets from a password store` }),
    ]),
  ),
  // Remote shells and process tools that run commands elsewhere or here.
  watchman: always(runs('watchman, which runs commands when files change')),
  entr: always(runs('entr, which runs a command when files change')),
  parallel: always(runs('the commands GNU parallel builds from its input', undefined, 'high')),
  'systemd-run': always(runs('a command as a service', undefined, 'high'), controls('systemd-run starts a service')),
  'apt-key': always(connects('a key server')),
};

export function lookupProgram(name: string): ProgramRow | undefined {
  const found = TABLE[name];
  if (found !== undefined && Object.hasOwn(TABLE, name)) return withLongTail(name, found);
  // mkfs, mkfs.ext4, mkfs.vfat…: format the device they are given.
  if (/^mkfs(\.|$)|^mke2fs$|^mkdosfs$/.test(name)) return row('write', { severity: 'high' });
  // python3.12, pip3.11, node18…
  const versioned = /^(python|pip|node|ruby|perl|php|lua)[\d.]+$/.exec(name);
  if (versioned !== null) return TABLE[versioned[1] === 'pip' ? 'pip3' : versioned[1]!];
  return undefined;
}
