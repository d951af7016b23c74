import { applyOperands } from './apply.js';
import { always, connects, controls, endless, type ProgramRow, privilege, row, runs } from './table.js';

/**
 * Programs known to do more than read: they delete, write, control processes or the machine,
 * change privileges, run other programs or connect. These rows only add effects (and reasons):
 * anything not in any table is `unknown`, which the model's risk_level decides. See table.ts
 * for the row format; programs that need code are in custom-programs.ts, network-programs.ts,
 * git.ts and programs.ts.
 */

const RECURSIVE = { '-r': 'recursive', '-R': 'recursive', '--recursive': 'recursive' } as const;

/** A program that changes users, groups or privileges whatever its words. */
const privileges = (what: string) => always(privilege(what));

/** top's options (procps-ng 4): batch output, counts, delays, filters. */
const TOP = row('data', {
  flags: '-bcHiSs1 --batch',
  options: {
    '-n': 'data',
    '-d': 'data',
    '-p': 'data',
    '-u': 'data',
    '-U': 'data',
    '-o': 'data',
    '-O': 'flag',
    '-w': 'data',
    '-E': 'data',
    '-e': 'data',
  },
});

export const SIDE_EFFECT_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // Delete their operands (rm -r whole trees).
  rm: row('delete', { options: { ...RECURSIVE, '--interactive': 'data' } }),
  rmdir: row('delete'),
  unlink: row('delete'),
  // shred overwrites a file's content (and with -u removes it).
  shred: row('delete', {
    options: { '-n': 'data', '-s': 'data', '--random-source': 'read', '--iterations': 'data', '--size': 'data' },
  }),
  // Create or change their operands.
  touch: row('write', {
    options: { '-r': 'read', '--reference': 'read', '-d': 'data', '-t': 'data', '--date': 'data' },
  }),
  mkdir: row('write', { options: { '-m': 'data', '--mode': 'data', '--context': 'data' } }),
  mkfifo: row('write', { options: { '-m': 'data', '--mode': 'data' } }),
  mknod: row('write', { options: { '-m': 'data', '--mode': 'data' } }),
  truncate: row('write', {
    severity: 'high',
    options: { '-s': 'data', '--size': 'data', '-r': 'read', '--reference': 'read', '-o': 'flag' },
  }),
  tee: row('write', { options: { '--output-error': 'optional' } }),
  // sponge (moreutils) soaks up its input and writes it to its operand.
  sponge: row('write', { options: { '-a': 'flag' } }),
  // fallocate and truncate size files: fallocate -l 10G fills the disk.
  fallocate: row('write', { options: { '-l': 'data', '--length': 'data', '-o': 'data', '--offset': 'data' } }),
  // Permissions and ownership: the first operand is the mode or owner (unless --reference gives it).
  chmod: row('write', { leading: 1, options: { ...RECURSIVE, '--reference': 'pattern-file' } }),
  chown: row('write', { leading: 1, options: { ...RECURSIVE, '--reference': 'pattern-file', '--from': 'data' } }),
  chgrp: row('write', { leading: 1, options: { ...RECURSIVE, '--reference': 'pattern-file' } }),
  chattr: row('write', { leading: 1, options: { '-R': 'recursive', '-v': 'data', '-p': 'data' } }),
  setfacl: row('write', {
    options: {
      '-m': 'data',
      '-x': 'data',
      '-M': 'read',
      '-X': 'read',
      '--set': 'data',
      '--set-file': 'read',
      '-R': 'recursive',
      '--recursive': 'recursive',
      '--modify': 'data',
      '--remove': 'data',
    },
  }),
  // Copies read their sources and write the last operand (or the -t directory).
  cp: row('read', {
    last: 'write',
    options: {
      ...RECURSIVE,
      '-a': 'recursive',
      '--archive': 'recursive',
      '-t': 'write',
      '--target-directory': 'write',
      '-S': 'data',
      '--suffix': 'data',
      '--backup': 'data',
      '--reflink': 'data',
      '--sparse': 'data',
      '--preserve': 'data',
      '--no-preserve': 'data',
    },
  }),
  install: row('read', {
    last: 'write',
    options: {
      '-m': 'data',
      '--mode': 'data',
      '-o': 'data',
      '--owner': 'data',
      '-g': 'data',
      '--group': 'data',
      '-t': 'write',
      '--target-directory': 'write',
      '-S': 'data',
      '--suffix': 'data',
      '--strip-program': 'run',
      '-d': 'writes',
      '--directory': 'writes',
    },
  }),
  // mv moves its sources away (deleting them where they were) and writes the destination.
  mv: row('delete', {
    last: 'write',
    options: { '-t': 'write', '--target-directory': 'write', '-S': 'data', '--suffix': 'data', '--backup': 'data' },
  }),
  // patch writes the files its patch names (in . by default); -i reads the patch.
  patch: row('write', {
    last: 'read',
    whenNone: '.',
    recursive: true,
    options: {
      '-i': 'read',
      '--input': 'read',
      '-o': 'write',
      '--output': 'write',
      '-r': 'write',
      '--reject-file': 'write',
      '-d': 'data',
      '--directory': 'data',
      '-p': 'data',
      '--strip': 'data',
      '-B': 'data',
      '-z': 'data',
      '-D': 'data',
      '-F': 'data',
      '-V': 'data',
    },
  }),
  // Disks and filesystems: their operands are devices, rewritten whole.
  ...Object.fromEntries(
    [
      'sfdisk',
      'cfdisk',
      'gdisk',
      'sgdisk',
      'wipefs',
      'mkswap',
      'blkdiscard',
      'resize2fs',
      'tune2fs',
      'e2fsck',
      'fsck',
      'badblocks',
      'cryptsetup',
      'losetup',
      'pvcreate',
      'vgcreate',
      'lvcreate',
      'lvremove',
      'vgremove',
      'pvremove',
      'mdadm',
      'zpool',
      'hdparm',
    ].map((name) => [name, row('write', { severity: 'high' })]),
  ),
  // mount alone (or -l, -t TYPE without a device) lists the mounted filesystems; anything else mounts.
  mount: row('data', {
    custom: (site) => {
      const words = site.args.map((word) => word.value ?? '\u0000');
      const lists = words.every(
        (word, index) => /^(-l|--show-labels|-t|--types)$/.test(word) || /^(-t|--types)$/.test(words[index - 1] ?? ''),
      );
      if (!lists) site.emit(controls('mount attaches or changes filesystems', 'high'));
    },
  }),
  umount: always(controls('umount detaches filesystems', 'high')),
  swapon: always(controls('swapon changes swap space', 'high')),
  swapoff: always(controls('swapoff changes swap space', 'high')),
  // Processes and the machine.
  // kill -l / -L list the signals' names (with a number, that signal's name); anything else signals.
  kill: row('data', {
    custom: (site) => {
      const words = site.args.map((word) => word.value ?? '\u0000');
      if (/^(-l|-L|--list|--table)$/.test(words[0] ?? '') && words.slice(1).every((word) => /^\d+$/.test(word))) return;
      site.emit(controls('kill sends signals to processes', 'high'));
    },
  }),
  pkill: always(controls('pkill sends signals to processes', 'high')),
  killall: always(controls('killall sends signals to processes', 'high')),
  skill: always(controls('skill sends signals to processes', 'high')),
  renice: always(controls('renice changes the priority of running processes')),
  reboot: always(controls('reboot restarts the machine', 'high')),
  shutdown: always(controls('shutdown stops the machine', 'high')),
  poweroff: always(controls('poweroff stops the machine', 'high')),
  halt: always(controls('halt stops the machine', 'high')),
  telinit: always(controls("telinit changes the machine's run level", 'high')),
  timedatectl: row('data', {
    subcommands: { '': row('data'), status: row('data'), show: row('data') },
    otherSubcommands: always(controls('timedatectl changes the clock or time zone')),
  }),
  hostnamectl: row('data', {
    subcommands: { '': row('data'), status: row('data') },
    otherSubcommands: always(controls("hostnamectl changes the machine's name")),
  }),
  loginctl: always(controls('loginctl controls login sessions')),
  modprobe: always(controls('modprobe loads or removes kernel modules', 'high')),
  insmod: always(controls('insmod loads kernel modules', 'high')),
  rmmod: always(controls('rmmod removes kernel modules', 'high')),
  iptables: always(controls('iptables changes the firewall', 'high')),
  ip6tables: always(controls('ip6tables changes the firewall', 'high')),
  nft: always(controls('nft changes the firewall', 'high')),
  ufw: always(controls('ufw changes the firewall', 'high')),
  'firewall-cmd': always(controls('firewall-cmd changes the firewall', 'high')),
  route: always(controls('route changes network routes')),
  ifconfig: always(controls('ifconfig changes network interfaces')),
  at: always(runs('a command at a later time (at)')),
  batch: always(runs('a command at a later time (batch)')),
  // systemctl: status and listing verbs read (inside the sandbox only: issue 12); the rest control services.
  systemctl: row('data', {
    globalValues: [
      '-H',
      '--host',
      '-M',
      '--machine',
      '-t',
      '--type',
      '--state',
      '-p',
      '--property',
      '-n',
      '--lines',
      '-o',
      '--output',
    ],
    subcommands: Object.fromEntries(
      [
        '',
        'status',
        'show',
        'cat',
        'list-units',
        'list-unit-files',
        'list-timers',
        'list-sockets',
        'list-dependencies',
        'list-jobs',
        'is-active',
        'is-enabled',
        'is-failed',
        'is-system-running',
        'get-default',
        'help',
      ].map((verb) => [
        verb,
        always({
          kind: 'unknown',
          detail: "systemctl asks systemd over D-Bus, which riskgate's sandbox cannot reach: asked",
        }),
      ]),
    ),
    otherSubcommands: always(controls('systemctl starts, stops or changes services', 'high')),
  }),
  // journalctl reads system logs (inside the sandbox only); -f never ends; --vacuum/--rotate delete logs.
  journalctl: row('data', {
    sandboxOnly: true,
    flags:
      '-rqxeakmlNh --reverse --quiet --catalog --pager-end --all --dmesg --merge --full --no-full --no-pager --utc --no-hostname --list-boots --system --user --disk-usage --header --no-tail --show-cursor --fields --list-catalog --list-namespaces --verify',
    options: {
      '--output-fields': 'data',
      '-M': 'data',
      '--machine': 'data',
      '--namespace': 'data',
      '-F': 'data',
      '--field': 'data',
      '--cursor': 'data',
      '--after-cursor': 'data',
      '--boot': 'data',
      '-T': 'data',
      '--identifier': 'data',
      '--user-unit': 'data',
      '--priority': 'data',
      '--facility': 'data',
      '--output': 'data',
      '-c': 'data',
      '--case-sensitive': 'data',
      '-f': 'follow',
      '--follow': 'follow',
      '--vacuum-size': 'unknown',
      '--vacuum-time': 'unknown',
      '--vacuum-files': 'unknown',
      '--rotate': 'unknown',
      '--flush': 'unknown',
      '-u': 'data',
      '--unit': 'data',
      '-n': 'data',
      '--lines': 'data',
      '-S': 'data',
      '--since': 'data',
      '-U': 'data',
      '--until': 'data',
      '-p': 'data',
      '-o': 'data',
      '-t': 'data',
      '-b': 'flag',
      '-D': 'read',
      '--directory': 'read',
      '--file': 'read',
      '-g': 'data',
      '--grep': 'data',
    },
  }),
  // Users, groups and privileges.
  ...Object.fromEntries(
    [
      'passwd',
      'chpasswd',
      'useradd',
      'userdel',
      'usermod',
      'adduser',
      'deluser',
      'groupadd',
      'groupdel',
      'groupmod',
      'addgroup',
      'delgroup',
      'gpasswd',
      'visudo',
      'vipw',
      'vigr',
      'chsh',
      'chfn',
      'chage',
      'newgrp',
      'sg',
      'setcap',
      'setpriv',
      'capsh',
    ].map((name) => [name, privileges(`${name} changes users, groups or privileges`)]),
  ),
  // Builds, task runners: they run recipes from files in the project.
  ...Object.fromEntries(
    [
      'make',
      'gmake',
      'cmake',
      'ninja',
      'meson',
      'gradle',
      'gradlew',
      'mvn',
      'mvnw',
      'ant',
      'bazel',
      'just',
      'task',
      'rake',
      'scons',
      'tox',
      'nox',
    ].map((name) => [name, always(runs(`the recipes ${name} runs`))]),
  ),
  // Fetch a package and run it.
  ...Object.fromEntries(
    ['npx', 'pnpx', 'bunx', 'uvx', 'pipx'].map((name) => [
      name,
      always(runs(`a package ${name} fetches and runs`, undefined, 'high'), connects('a package registry')),
    ]),
  ),
  // Editors and openers run interactively or hand files to other programs.
  ...Object.fromEntries(
    [
      'vi',
      'vim',
      'nvim',
      'nano',
      'emacs',
      'ed',
      'ex',
      'code',
      'subl',
      'xdg-open',
      'open',
      'gio',
      'sensible-editor',
      'editor',
      'info',
      'w3m',
      'lynx',
    ].map((name) => [name, always(runs(name))]),
  ),
  // man prints a manual page (riskgate runs it without a terminal, PAGER=cat); -P, -H and --html name programs it runs.
  man: row('data', {
    flags:
      '-afkwWKiIu7 --all --whatis --apropos --where --path --location --location-cat --where-cat --regex --wildcard --names-only --ignore-case --match-case --no-hyphenation --nh --no-justification --nj --no-subpages --ascii',
    options: {
      '-P': 'run',
      '--pager': 'run',
      '-H': 'runs',
      '--html': 'runs',
      '-l': 'read',
      '--local-file': 'read',
      '-M': 'data',
      '-S': 'data',
      '-s': 'data',
      '-L': 'data',
      '-m': 'data',
      '-C': 'read',
      '--config-file': 'read',
      '-E': 'data',
      '-R': 'data',
      '-T': 'runs',
      '-X': 'runs',
      '--gxditview': 'runs',
      '-Z': 'runs',
      '--ditroff': 'runs',
    },
  }),
  // Endless output or screens.
  yes: always(endless('yes prints for ever')),
  // top refreshes until stopped, unless told how many times (-n).
  top: row('data', {
    custom: (site) => {
      applyOperands(site, TOP);
      if (!site.args.some((word) => /^-[a-zA-Z]*n/.test(word.value ?? '')))
        site.emit(endless('top refreshes until it is stopped'));
    },
  }),
  htop: always(endless('htop refreshes until it is stopped')),
  // Keys and agents: ssh-add talks to the agent that signs as the person.
  'ssh-add': always({ kind: 'read-env', names: ['SSH_AUTH_SOCK'] }),
  'ssh-keygen': row('data', {
    options: {
      '-f': 'write',
      '-t': 'data',
      '-b': 'data',
      '-C': 'data',
      '-N': 'data',
      '-P': 'data',
      '-E': 'data',
      '-Y': 'data',
      '-n': 'data',
      '-s': 'read',
      '-I': 'data',
      '-V': 'data',
      '-O': 'data',
      '-R': 'data',
      '-F': 'data',
      '-m': 'data',
      '-a': 'data',
      '-Z': 'data',
      '-D': 'data',
      '-w': 'data',
      '-r': 'data',
      '-z': 'data',
      '-M': 'data',
      '-K': 'unknown',
    },
    effects: [runs('ssh-keygen, which creates or changes keys')],
  }),
  'ssh-keyscan': always(connects('the hosts ssh-keyscan names')),
  // Publishing uploads packages to a registry.
  twine: always(connects('a package registry (twine uploads)')),
  // Service managers of other systems: loading, unloading and starting services.
  launchctl: always(controls('launchctl loads, unloads or starts services', 'high')),
  'rc-service': always(controls('rc-service starts or stops services', 'high')),
  // Docker's credential helpers print saved registry passwords.
  ...Object.fromEntries(
    [
      'docker-credential-desktop',
      'docker-credential-pass',
      'docker-credential-secretservice',
      'docker-credential-osxkeychain',
      'docker-credential-ecr-login',
      'docker-credential-gcloud',
    ].map((name) => [
      name,
      always({
        kind: 'read-db',
        object: 'saved Docker registry credentials',
        secret: `${name} prints saved registry passwords`,
      }),
    ]),
  ),
  'ssh-copy-id': always(connects('a host'), runs('ssh-copy-id, which installs a key on another machine')),
};
