import { type CallSite, endless, type OptionUse, type ProgramRow, row, withExamples } from './table.js';

/**
 * Facts about the machine, its users, processes and network: read-only in the forms listed.
 * Options fail closed (table.ts): what changes the machine is simply not listed (`dmesg -C`
 * clears the kernel log, `ss -K` kills sockets, `ss -D` writes a dump, `lsof -r`, `free -s`
 * and `netstat -c` repeat for ever). Rows that read host state beyond files (the process
 * table, sockets, the kernel log) are not core: they run unasked only in the sandbox.
 */

/** vmstat/iostat/mpstat INTERVAL repeat for ever unless a COUNT follows. */
const sampler = (flags: string, options: ProgramRow['options'] = {}): ProgramRow =>
  row('data', {
    flags,
    options,
    custom: (site: CallSite) => {
      const numbers = site.args.filter((word) => /^\d+$/.test(word.value ?? ''));
      if (numbers.length === 1) site.emit(endless(`${site.name} ${numbers[0]!.value} repeats until it is stopped`));
    },
  });

/** dmesg options that clear the kernel log or change the console: known dangers, not merely unlisted. */
const DMESG_CHANGES: Record<string, OptionUse> = Object.fromEntries(
  ['-C', '--clear', '-c', '--read-clear', '-n', '--console-level', '-D', '--console-off', '-E', '--console-on'].map(
    (name) => [name, 'changes' as const],
  ),
);

export const SYSTEM_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // The user and the machine's name and kind: fixed facts, no secrets.
  pwd: row('data', { core: true, flags: '-LP --logical --physical', match: ['pwd', 'pwd a.txt'] }),
  whoami: row('data', { core: true, match: ['whoami', 'whoami a.txt'] }),
  logname: row('data', { core: true, match: ['logname', 'logname a.txt'] }),
  id: row('data', {
    core: true,
    flags: '-agGnruzZ --user --group --groups --name --real --zero --context',
    match: ['id -u', 'id'],
  }),
  groups: row('data', { core: true, match: ['groups', 'groups a.txt'] }),
  // users [FILE], who [FILE | am i]: FILE is read as a login record (its bytes printed as fields).
  users: row('read', { core: true, match: ['users a.txt', 'users'] }),
  uname: row('data', {
    core: true,
    flags:
      '-asnrvmpio --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system',
    match: ['uname -a', 'uname -r'],
  }),
  arch: row('data', { core: true, match: ['arch', 'arch a.txt'] }),
  nproc: row('data', { core: true, flags: '--all', options: { '--ignore': 'data' }, match: ['nproc', 'nproc a.txt'] }),
  hostid: row('data', { core: true, match: ['hostid', 'hostid a.txt'] }),
  tty: row('data', { core: true, flags: '-s --silent --quiet', match: ['tty', 'tty a.txt'] }),
  locale: row('data', {
    core: true,
    flags: '-amckv --all-locales --charmaps --category-name --keyword-name --verbose',
    match: ['locale', 'locale a.txt'],
  }),
  getconf: row('data', { core: true, flags: '-a', options: { '-v': 'data' }, match: ['getconf', 'getconf a.txt'] }),
  lsb_release: row('data', {
    core: true,
    flags: '-adrcisv --all --description --release --codename --id --short',
    match: ['lsb_release', 'lsb_release a.txt'],
  }),
  which: row('data', { core: true, flags: '-as --all', match: ['which node', 'which'] }),
  whereis: row('data', {
    flags: '-bmsul',
    options: { '-B': 'data', '-M': 'data', '-S': 'data', '-f': 'flag' },
    match: ['whereis ls', 'whereis'],
  }),
  cal: row('data', {
    core: true,
    flags: '-13yjmswYSv --one --three --year --julian --monday --sunday --week --twelve --vertical --span',
    options: { '-n': 'data', '--months': 'data', '--color': 'data' },
    match: ['cal', 'cal a.txt'],
  }),
  uptime: row('data', { core: true, flags: '-ps --pretty --since', match: ['uptime', 'uptime a.txt'] }),
  // free -s repeats for ever (unless -c bounds it): not listed.
  free: row('data', {
    core: true,
    flags:
      '-bkmghltwv --bytes --kilo --mega --giga --tera --peta --kibi --mebi --gibi --tebi --pebi --human --si --lohi --total --wide --committed',
    options: { '-c': 'data', '--count': 'data', '-s': 'follow', '--seconds': 'follow' },
    match: ['free', 'free a.txt'],
    notMatch: ['free -s 1', 'free -s a.txt'],
  }),
  df: row('data', {
    core: true,
    flags:
      '-ahHiklPT --all --human-readable --si --inodes --local --portability --print-type --total --sync --no-sync --output',
    options: {
      '-B': 'data',
      '--block-size': 'data',
      '-t': 'data',
      '--type': 'data',
      '-x': 'data',
      '--exclude-type': 'data',
    },
    match: ['df', 'df a.txt'],
  }),
  // Hardware and kernel: /proc and /sys (the sandbox shows them read-only).
  lscpu: row('data', {
    flags: '-abcJxyeBp --all --online --offline --json --hex --physical --bytes --extended --parse',
    options: { '-s': 'read', '--sysroot': 'read', '-C': 'flag', '--caches': 'flag', '--output-all': 'flag' },
    match: ['lscpu', 'lscpu -J'],
  }),
  lsblk: row('data', {
    flags:
      '-abdDfJlmnpPrsStzAMOT --all --bytes --nodeps --discard --fs --json --list --perms --noheadings --paths --pairs --raw --inverse --topology --scsi --tree --output-all --merge',
    options: {
      '-o': 'data',
      '--output': 'data',
      '-e': 'data',
      '--exclude': 'data',
      '-I': 'data',
      '--include': 'data',
      '-x': 'data',
      '--sort': 'data',
      '-E': 'data',
      '--dedup': 'data',
    },
    match: ['lsblk', 'lsblk -J'],
  }),
  lsmod: row('data', { match: ['lsmod', 'lsmod a.txt'] }),
  // dmesg -C/-c clear the kernel log and -n/-D/-E change the console: not listed.
  dmesg: row('data', {
    flags:
      '-HTkuxdertPSJL --human --ctime --decode --kernel --userspace --raw --notime --nopager --reltime --show-delta --syslog --json --color --since --until',
    options: {
      '-l': 'data',
      '--level': 'data',
      '-f': 'data',
      '--facility': 'data',
      '--time-format': 'data',
      '-w': 'follow',
      '-W': 'follow',
      '--follow': 'follow',
      '--follow-new': 'follow',
      '-F': 'read',
      '--file': 'read',
      ...DMESG_CHANGES,
    },
    match: ['dmesg', 'dmesg a.txt'],
    notMatch: ['dmesg -C', 'dmesg --clear'],
  }),
  // vmstat/iostat/mpstat: INTERVAL without COUNT repeats for ever.
  vmstat: withExamples(
    sampler('-afmnsdDtw --active --forks --slabs --stats --disk --disk-sum --timestamp --wide', {
      '-S': 'data',
      '--unit': 'data',
      '-p': 'data',
      '--partition': 'data',
    }),
    { judged: 'read', match: ['vmstat', 'vmstat a.txt'] },
  ),
  iostat: withExamples(
    sampler('-cdhkmNstxyz --human --compact --pretty', {
      '-p': 'data',
      '-j': 'data',
      '-o': 'data',
      '-g': 'data',
    }),
    { judged: 'read', match: ['iostat', 'iostat a.txt'] },
  ),
  mpstat: withExamples(sampler('-AHTuI', { '-P': 'data', '-N': 'data', '-o': 'data' }), {
    judged: 'read',
    match: ['mpstat', 'mpstat a.txt'],
  }),
  // Logins: utmp and wtmp.
  w: row('data', {
    flags: '-hsifuop --no-header --short --ip-addr --from --no-current --old-style --pids',
    match: ['w', 'w -h'],
  }),
  who: row('read', {
    flags:
      '-abdHlmpqrstTuw --all --boot --dead --heading --ips --login --lookup --process --count --runlevel --short --time --mesg --writable --users',
    match: ['who -b', 'who a.txt'],
  }),
  last: row('data', {
    flags: `-0123456789 -xFwiadR --system --fulltimes --fullnames --ip --hostlast --dns --nohostname`,
    options: {
      '-n': 'data',
      '--limit': 'data',
      '-s': 'data',
      '--since': 'data',
      '-t': 'data',
      '--until': 'data',
      '-p': 'data',
      '--present': 'data',
      '-f': 'read',
      '--file': 'read',
      '--time-format': 'data',
    },
    match: ['last -n 3', 'last'],
  }),
  // Sockets and open files: ss -K kills and -D writes a dump; lsof -r and netstat -c repeat for ever.
  ss: row('data', {
    flags:
      '-hHnroaelmpiTsEZzb460txuwdSM --numeric --resolve --all --listening --options --extended --memory --processes --threads --info --tos --summary --events --context --contexts --bpf --ipv4 --ipv6 --packet --tcp --udp --dccp --raw --unix --sctp --vsock --xdp --mptcp --tipc --no-header --oneline --cgroup',
    options: {
      '-f': 'data',
      '--family': 'data',
      '-A': 'data',
      '--query': 'data',
      '--socket': 'data',
      '-F': 'read',
      '--filter': 'read',
      '-N': 'data',
      '--net': 'data',
      '-K': 'changes',
      '--kill': 'changes',
      '-D': 'write',
      '--diag': 'write',
    },
    match: ['ss -tlnp', 'ss -tln'],
    notMatch: ['ss -K', 'ss --kill'],
  }),
  netstat: row('data', {
    flags:
      '-atunlpeorisWxwgMvNCF --all --tcp --udp --numeric --listening --program --extend --timers --route --interfaces --statistics --wide --unix --raw --groups --masquerade --verbose --numeric-hosts --numeric-ports --numeric-users --symbolic',
    options: { '-A': 'data', '--protocol': 'data', '-c': 'follow', '--continuous': 'follow' },
    match: ['netstat', 'netstat a.txt'],
    notMatch: ['netstat -c', 'netstat -c a.txt'],
  }),
  lsof: row('data', {
    flags: '-abChilnNOPRtUVwXi',
    options: {
      '-c': 'data',
      '-d': 'data',
      '-g': 'data',
      '-p': 'data',
      '-s': 'data',
      '-u': 'data',
      '-D': 'data',
      '-F': 'data',
      '-T': 'data',
      '-k': 'read',
      '-r': 'follow',
      '+r': 'follow',
    },
    match: ['lsof -i :3000', 'lsof -i :1'],
    notMatch: ['lsof -r 1', 'lsof -r a.txt'],
  }),
  // Terminal state.
  tput: row('data', { flags: '-x', options: { '-T': 'data' }, match: ['tput', 'tput a.txt'] }),
  clear: row('data', { flags: '-x', options: { '-T': 'data' }, match: ['clear', 'clear a.txt'] }),
  // getent shadow reads password hashes (custom in programs.ts).
  getent: row('data', { judged: 'read', match: ['getent passwd root', 'getent group'] }),
  // The process list; `ps e`/`ps -E` add each process's environment (custom in programs.ts).
  ps: row('data', { judged: 'read', match: ['ps aux', 'ps -ef'], notMatch: ['ps -E'] }),
  pgrep: row('data', {
    flags:
      '-aclfvwxniorALH --count --list-name --list-full --full --inverse --lightweight --exact --newest --oldest --ignore-ancestors --env',
    options: {
      '-d': 'data',
      '--delimiter': 'data',
      '-g': 'data',
      '--pgroup': 'data',
      '-G': 'data',
      '--group': 'data',
      '-P': 'data',
      '--parent': 'data',
      '-s': 'data',
      '--session': 'data',
      '-t': 'data',
      '--terminal': 'data',
      '-u': 'data',
      '--euid': 'data',
      '-U': 'data',
      '--uid': 'data',
      '-F': 'read',
      '--pidfile': 'read',
      '--ns': 'data',
      '--nslist': 'data',
      '-O': 'data',
      '--older': 'data',
      '--cgroup': 'data',
    },
    match: ['pgrep -a node', 'pgrep -af "node server"'],
    notMatch: ['pgrep --signal KILL node'],
  }),
  pidof: row('data', {
    flags: '-sqcnxz',
    options: { '-o': 'data', '--omit-pid': 'data', '-d': 'data' },
    match: ['pidof sshd', 'pidof'],
    notMatch: ['pidof -k x'],
  }),
};
