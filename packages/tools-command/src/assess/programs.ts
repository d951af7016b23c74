import { applyOperands } from './apply.js';
import {
  dateProgram,
  ddProgram,
  findProgram,
  getentProgram,
  hostnameProgram,
  interpreterProgram,
  RUNS_WHAT_IT_IS_GIVEN,
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
import { known } from './words.js';
import { always, type CallSite, connects, controls, type ProgramRow, row, runs, withExamples } from './table.js';

/**
 * Every program riskgate knows, by name: the read-only and side-effect tables plus the rows
 * judged in code. Anything not here (nor a builtin or wrapper) is `unknown`: the spec's
 * `init` or a custom script, which the model's risk_level decides.
 */

const custom = (judge: (site: CallSite) => void): ProgramRow => row('data', { custom: judge });
/** A judge in code that reads every option it accepts: whitelisted without the sandbox too (table.ts). */
const coreCustom = (judge: (site: CallSite) => void): ProgramRow => row('data', { custom: judge, core: true });

/** Disk tools: -l (and parted's print) list; otherwise they rewrite the device. */
const diskTool = withExamples(
  custom((site) => {
    const listing = site.args.some((word) => /^(-l|--list|print|-s)$/.test(word.value ?? ''));
    applyOperands(site, row(listing ? 'list' : 'write', listing ? {} : { severity: 'high' }));
  }),
  { judged: 'write-path', match: ['fdisk /dev/sdb'], notMatch: ['fdisk -l'] },
);

/** Compressors replace each file by its compressed form unless told to write to standard output. */
const compressor = withExamples(
  custom((site) => {
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
  }),
  {
    judged: 'delete-path',
    match: ['gzip a.txt', 'bzip2 a.txt', 'unxz x.xz'],
    // To standard output, kept (-k writes the new file beside it), or only listed: nothing is deleted.
    notMatch: ['gzip -c a.txt', 'xz -k a.txt', 'gzip -l x.gz'],
  },
);

/** Readers of compressed files: like cat. */
const COMPRESSED_READER = row('read', { match: ['zcat x.gz', 'bzcat x.bz2', 'zless x.gz'] });

/** Shells: `-c SCRIPT` is judged as its own line; a script file is a custom script, unknown. */
const SHELL = withExamples(custom(shellProgram), {
  judged: 'read',
  match: ["sh -c 'cat README.md'", 'bash -c "ls | wc -l"'],
  notMatch: ["bash -c 'rm -rf x'", 'bash deploy.sh', "zsh -c 'rm x'"],
});

/** Interpreters: code on the command line runs a program; a script file is a custom script (unknown). */
const INTERPRETER = withExamples(custom(interpreterProgram), {
  judged: 'unknown',
  match: ['python3 tool.py', 'node server.js', 'ruby x.rb'],
  // Only what they are: `node -v`.
  notMatch: ['node -v', 'python3 --version'],
});

/** Tracers, debuggers, recorders and database clients: they run or send what they are given. */
const GIVEN_RUNNER = withExamples(custom(interpreterProgram), {
  judged: 'run-program',
  match: ['strace -o /dev/null rm -rf build', "gdb -batch -ex 'shell id'", 'redis-cli FLUSHALL'],
});

/** Clients of a host: they connect to what they are named. */
const HOST_TOOL = withExamples(custom(hostToolProgram), {
  judged: 'connect',
  match: ['ssh user@203.0.113.7 ls', 'ping -c 1 203.0.113.7', 'dig example.com'],
});

/** Credential command-line tools: every call uses (and can print) the secrets in their store, and most connect. */
const credentialTool = (store: string, connectsTo?: string): ProgramRow =>
  custom((site) => {
    site.path('read', known(store.replace(/^~/, site.home)), { via: site.name });
    if (connectsTo !== undefined) site.emit({ kind: 'connect', host: connectsTo, via: site.name });
    site.emit({ kind: 'run-program', program: site.name, via: site.name });
  });

/** docker and podman: listing verbs read (inside the sandbox only); inspect shows containers' environments. */
const containerTool = withExamples(
  custom((site) => {
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
  }),
  { judged: 'unknown', match: ['docker ps', 'docker images'], notMatch: ['docker run -it ubuntu'] },
);

/** kubectl and helm talk to a cluster with the person's credentials; reading secrets or changing objects is more. */
const clusterTool = withExamples(
  custom((site) => {
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
  }),
  { judged: 'connect', match: ['kubectl delete pod x', 'kubectl'] },
);

/** socat addresses: EXEC:/SYSTEM: run programs, the rest open connections or files. */
const socat = withExamples(
  custom((site) => {
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
  }),
  { judged: 'connect', match: ['socat - TCP:203.0.113.7:80'] },
);

/** ln TARGET… LINK: the link is written; with one operand the link goes into the working directory. */
const ln = withExamples(
  custom((site) => {
    const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
    const target = site.args.findIndex((word) => word.value === '-t' || word.value === '--target-directory');
    if (target !== -1 && site.args[target + 1] !== undefined)
      site.path('write', site.args[target + 1]!, { via: 'ln -t' });
    else if (operands.length === 1)
      site.path('write', known(operands[0]!.value?.split('/').pop() ?? '.'), { via: 'ln' });
    else if (operands.length > 1) site.path('write', operands[operands.length - 1]!, { via: 'ln' });
  }),
  { judged: 'write-path', match: ['ln -s notes.txt link'] },
);

/** sysctl prints kernel settings; -w, NAME=VALUE, -p and --system change them. */
const sysctl = withExamples(
  custom((site) => {
    // Only the reading options (procps-ng 4); -w, -p/-f FILE, --system, NAME=VALUE and any other change settings.
    const reads =
      /^(-[aAXnNeqbdr]+|--(all|values|names|ignore|quiet|binary|deprecated|pattern(=.*)?)|-h|--help|-V|--version)$/;
    const words = site.args.map((word) => word.value ?? '=');
    if (
      words.some((word, index) =>
        word.startsWith('-')
          ? !reads.test(word)
          : word.includes('=') && !/^(-r|--pattern)$/.test(words[index - 1] ?? ''),
      )
    ) {
      site.emit({ kind: 'control-process', detail: 'sysctl changes kernel settings', severity: 'high' });
    }
  }),
  { judged: 'read', match: ['sysctl', 'sysctl a.txt'], notMatch: ['sysctl -f cmds.txt', 'sysctl -p'] },
);

/**
 * ip: `ip [OPTIONS] OBJECT [show|list|get …]` reads; every other command (add, del, set, flush,
 * exec, monitor, …) changes the network or runs a program, and options fail closed: -b/-batch
 * and -force read commands from a file, -n/-netns enter another namespace.
 */
const IP_OPTIONS =
  /^-(4|6|0|B|M|s|stats|statistics|d|details|h|human|human-readable|r|resolve|o|oneline|j|json|p|pretty|c|color|br|brief|a|all|t|timestamp|ts|tshort|iec|N|numeric|f|family|l|loops|color=\w+|help|Version|V)$/;
const IP_OBJECTS =
  /^(a|ad|add|addr|addre|addres|address|r|ro|rou|rout|route|l|li|lin|link|n|ne|nei|neigh|neighbor|neighbour|ru|rule|maddr|maddress|ntable|tunnel|tunl|netconf|token|mr|mroute|nexthop|nh|stats)$/;
const ip = withExamples(
  custom((site) => {
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
  }),
  { judged: 'read', match: ['ip a', 'ip -br a'], notMatch: ['ip -b cmds.txt', 'ip -batch cmds.txt'] },
);

/** service NAME status reads (in the sandbox only); other verbs start or stop services. */
const service = withExamples(
  custom((site) => {
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
  }),
  { judged: 'read', match: ['service nginx status'] },
);

/** crontab -l lists; anything else installs or removes scheduled jobs. */
const crontab = withExamples(
  custom((site) => {
    // -l alone (for this user, or -u USER) lists; with -r, -e, -i or a file it changes the table.
    const words = site.args.map((word) => word.value ?? '\u0000');
    if (
      words.includes('-l') &&
      words.every((word, index) => word === '-l' || word === '-u' || words[index - 1] === '-u')
    )
      return;
    site.path(site.args.some((word) => word.value === '-r') ? 'delete' : 'write', known('/var/spool/cron/crontabs'), {
      via: 'crontab',
    });
  }),
  { judged: 'delete-path', match: ['crontab -r'], notMatch: ['crontab -l'] },
);

/** split and csplit write their pieces into the working directory (or a prefix). */
const splitter = withExamples(
  custom((site) => {
    const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
    if (operands[0] !== undefined) site.path('read', operands[0], { via: site.name });
    site.path('write', known('.'), { via: site.name, note: `${site.name} writes its pieces into files` });
  }),
  { judged: 'write-path', match: ['split -l 10 names.txt', 'split'] },
);

/** unzip -l/-v/-t/-p/-Z only read; otherwise it writes what it extracts. zip writes its archive; -T/-TT run a test command. */
const unzip = withExamples(
  custom((site) => {
    const archive = site.args.find((word) => !(word.value ?? '').startsWith('-'));
    if (archive !== undefined) site.path('read', archive, { via: 'unzip' });
    if (!site.args.some((word) => /^-[a-zA-Z]*[lvtpZ]/.test(word.value ?? '')))
      site.path('write', known('.'), { recursive: true, via: 'unzip' });
  }),
  { judged: 'read', match: ['unzip -l x.zip'], notMatch: ['unzip x.zip'] },
);
const zip = withExamples(
  custom((site) => {
    const operands = site.args.filter((word) => !(word.value ?? '').startsWith('-'));
    if (site.args.some((word) => /^-(T|TT|-unzip-command)/.test(word.value ?? '')))
      site.emit({ kind: 'run-program', program: 'the test command zip -TT names', via: 'zip' });
    operands.forEach((word, index) => {
      site.path(index === 0 ? 'write' : 'read', word, { via: 'zip', ...(index > 0 ? { recursive: true } : {}) });
    });
  }),
  { judged: 'write-path', match: ['zip out.zip a.txt'] },
);

/** openssl: -in/-key read, -out writes, s_client connects. */
const openssl = withExamples(
  custom((site) => {
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
  }),
  { judged: 'write-path', match: ['openssl genrsa -out key.pem 2048'] },
);

const TABLE: Record<string, ProgramRow> = {
  ...READ_PROGRAMS,
  ...SIDE_EFFECT_PROGRAMS,
  ...SANDBOX_ONLY_PROGRAMS,
  ...LONG_TAIL_PROGRAMS,
  ps: withExamples(custom(psProgram), { judged: 'read', match: ['ps aux', 'ps -ef'], notMatch: ['ps -E'] }),
  getent: withExamples(custom(getentProgram), { judged: 'read', match: ['getent passwd root', 'getent group'] }),
  printenv: withExamples(coreCustom(printenvProgram), { judged: 'read', match: ['printenv HOME', 'printenv PATH'] }),
  hostname: withExamples(coreCustom(hostnameProgram), {
    judged: 'read',
    match: ['hostname', 'hostname -I'],
    notMatch: ['hostname -F cmds.txt', 'hostname -F'],
  }),
  less: withExamples(custom(pagerProgram(READ_PROGRAMS.less!)), { judged: 'read', match: ['less README.md', 'less'] }),
  more: withExamples(custom(pagerProgram(READ_PROGRAMS.more!)), { judged: 'read', match: ['more', 'more a.txt'] }),
  date: withExamples(coreCustom(dateProgram), {
    judged: 'read',
    match: ['date', 'date +%Y-%m-%d'],
    notMatch: ['date --fancy', 'date -s 2020-01-01'],
  }),
  find: withExamples(coreCustom(findProgram), {
    judged: 'read',
    match: ['find . -name "*.ts" -type f', 'find src -maxdepth 2 -print'],
    notMatch: ['find . -exec rm {} +', 'find . -name "*.ts" -exec cat {} +'],
  }),
  sed: withExamples(custom(sedProgram), {
    judged: 'read',
    match: ["sed -n '1,20p' file.txt", "sed 's/a/b/' f"],
    notMatch: ["sed -i 's/a/b/' f", "sed -n '1w out.txt' f"],
  }),
  gsed: withExamples(custom(sedProgram), { judged: 'read', match: ['gsed -n 1p f'], notMatch: ["gsed -i 's/a/b/' f"] }),
  awk: withExamples(custom(awkProgram), {
    judged: 'read',
    match: ["awk 'NR==1' README.md", "awk -v n=2 'NR==n' names.txt"],
    notMatch: ['awk -bf x a.txt', "awk -bo '{print}' a.txt"],
  }),
  gawk: withExamples(custom(awkProgram), {
    judged: 'read',
    match: ["gawk '{print $1}' data.csv"],
    notMatch: ['gawk \'BEGIN{system("id")}\''],
  }),
  mawk: withExamples(custom(awkProgram), {
    judged: 'read',
    match: ["mawk '{print $1}' data.csv"],
    notMatch: ['mawk \'{print > "out.txt"}\' a.txt'],
  }),
  nawk: withExamples(custom(awkProgram), {
    judged: 'read',
    match: ["nawk 'NR==1' names.txt"],
    notMatch: ['nawk \'{print | "sh"}\' a.txt'],
  }),
  jq: withExamples(custom(jqProgram), {
    judged: 'read',
    match: ['jq .name package.json', 'jq -r .scripts package.json'],
    notMatch: ["jq -L . '.' package.json", 'jq -f filter.jq package.json'],
  }),
  git: withExamples(coreCustom(gitProgram), {
    judged: 'read',
    match: ['git status', 'git log --oneline -10'],
    notMatch: ['git push origin main', 'git commit -m x'],
  }),
  dd: withExamples(custom(ddProgram), {
    judged: 'write-path',
    match: ['dd if=a.txt of=b.txt'],
    notMatch: ['dd if=a.txt'],
  }),
  tar: withExamples(custom(tarProgram), {
    judged: 'read',
    match: ['tar tf x.tar', 'tar -tf x.tar'],
    notMatch: ['tar -tf x.tar --use-comp=id', 'tar -tf x.tar --use-compress-prog=id'],
  }),
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
    ['zcat', 'bzcat', 'xzcat', 'zstdcat', 'lz4cat', 'zless', 'zmore', 'zdiff'].map((name) => [name, COMPRESSED_READER]),
  ),
  // Its first operand is the pattern; its row lists no option (grep's options are not all zgrep's).
  zgrep: row('read', { leading: 1, match: ['zgrep x x.gz'], notMatch: ['zgrep -c x x.gz'] }),
  // Shells: `-c SCRIPT` is judged as its own line.
  ...Object.fromEntries(
    ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash'].map((name) => [name, SHELL]),
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
      'jshell',
      'groovy',
      'scala',
      'kotlin',
      'swift',
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
      'dc',
    ].map((name) => [name, INTERPRETER]),
  ),
  ...Object.fromEntries([...RUNS_WHAT_IT_IS_GIVEN].map((name) => [name, GIVEN_RUNNER])),
  // Network clients.
  curl: withExamples(custom(curlProgram), {
    judged: 'connect',
    match: ['curl https://example.com', 'curl -s -o page.html https://example.com'],
  }),
  wget: withExamples(custom(wgetProgram), { judged: 'connect', match: ['wget https://example.com/x.tar.gz'] }),
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
    ].map((name) => [name, HOST_TOOL]),
  ),
  scp: withExamples(custom(copyOverNetworkProgram), {
    judged: 'connect',
    match: ['scp a.txt user@203.0.113.7:/tmp'],
    notMatch: ['scp a.txt b.txt'],
  }),
  rsync: withExamples(custom(copyOverNetworkProgram), {
    judged: 'connect',
    match: ['rsync -a src/ user@203.0.113.7:/srv'],
    notMatch: ['rsync -a src/ backup/'],
  }),
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
  aws: withExamples(credentialTool('~/.aws', 'AWS'), { judged: 'read-path', match: ['aws s3 ls'] }),
  gcloud: withExamples(credentialTool('~/.config/gcloud', 'Google Cloud'), {
    judged: 'read-path',
    match: ['gcloud auth list'],
  }),
  gsutil: withExamples(credentialTool('~/.config/gcloud', 'Google Cloud'), {
    judged: 'read-path',
    match: ['gsutil ls'],
  }),
  az: withExamples(credentialTool('~/.azure', 'Azure'), { judged: 'read-path', match: ['az account show'] }),
  gh: withExamples(credentialTool('~/.config/gh/hosts.yml', 'GitHub'), {
    judged: 'read-path',
    match: ['gh auth token'],
  }),
  glab: withExamples(credentialTool('~/.config/glab-cli', 'GitLab'), {
    judged: 'read-path',
    match: ['glab auth status'],
  }),
  doctl: withExamples(credentialTool('~/.config/doctl', 'DigitalOcean'), {
    judged: 'read-path',
    match: ['doctl account get'],
  }),
  heroku: withExamples(credentialTool('~/.netrc', 'Heroku'), { judged: 'read-path', match: ['heroku apps'] }),
  vault: withExamples(credentialTool('~/.vault-token', 'Vault'), {
    judged: 'read-path',
    match: ['vault kv get secret/app'],
  }),
  terraform: withExamples(credentialTool('~/.terraform.d/credentials.tfrc.json', 'Terraform Cloud'), {
    judged: 'read-path',
    match: ['terraform plan'],
  }),
  pulumi: withExamples(credentialTool('~/.pulumi/credentials.json', 'Pulumi'), {
    judged: 'read-path',
    match: ['pulumi stack'],
  }),
  databricks: withExamples(credentialTool('~/.databrickscfg', 'Databricks'), {
    judged: 'read-path',
    match: ['databricks clusters list'],
  }),
  s3cmd: withExamples(credentialTool('~/.s3cfg', 'S3'), { judged: 'read-path', match: ['s3cmd ls'] }),
  rclone: withExamples(credentialTool('~/.config/rclone/rclone.conf', 'a remote storage'), {
    judged: 'read-path',
    match: ['rclone lsd remote:'],
  }),
  pass: withExamples(credentialTool('~/.password-store'), { judged: 'read-path', match: ['pass show email'] }),
  gopass: withExamples(credentialTool('~/.password-store'), { judged: 'read-path', match: ['gopass show email'] }),
  gpg: withExamples(credentialTool('~/.gnupg'), { judged: 'read-path', match: ['gpg --export-secret-keys'] }),
  gpg2: withExamples(credentialTool('~/.gnupg'), { judged: 'read-path', match: ['gpg2 --list-secret-keys'] }),
  // Password managers and keyrings hand out secrets by design.
  ...Object.fromEntries(
    ['op', 'bw', 'lpass', 'security', 'secret-tool', 'keyring', 'keepassxc-cli'].map((name) => [
      name,
      withExamples(
        always({ kind: 'unknown', severity: 'high', detail: `${name} reads secrets from a password store` }),
        {
          match: [`${name} get github`],
        },
      ),
    ]),
  ),
  // Remote shells and process tools that run commands elsewhere or here.
  watchman: withExamples(always(runs('watchman, which runs commands when files change')), {
    match: ['watchman watch .'],
  }),
  entr: withExamples(always(runs('entr, which runs a command when files change')), {
    match: ['entr make < files.txt'],
  }),
  parallel: withExamples(always(runs('the commands GNU parallel builds from its input', undefined, 'high')), {
    match: ['parallel gzip ::: a.txt b.txt'],
  }),
  'systemd-run': withExamples(
    always(runs('a command as a service', undefined, 'high'), controls('systemd-run starts a service')),
    { match: ['systemd-run --user sleep 60'] },
  ),
  'apt-key': withExamples(always(connects('a key server')), { match: ['apt-key adv --recv-keys 0x1234'] }),
};

/** Every row by program name, for the test that checks each row's examples. */
export const PROGRAM_ROWS: Readonly<Record<string, ProgramRow>> = TABLE;

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
