import { applyOperands } from './apply.js';
import { always, connects, controls, endless, type ProgramRow, privilege, row, runs, withExamples } from './table.js';

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

/** Disks and filesystems: their operands are devices, rewritten whole. */
const DEVICE_REWRITER = row('write', {
  severity: 'high',
  match: ['wipefs -a /dev/sdb', 'mkswap /dev/sdb2', 'e2fsck /dev/sdb1'],
});

export const SIDE_EFFECT_PROGRAMS: Readonly<Record<string, ProgramRow>> = {
  // Delete their operands (rm -r whole trees).
  rm: row('delete', {
    // -f only stops rm asking and complaining about missing files: what it deletes is the same.
    flags: '-fiIvd --force --verbose --dir --one-file-system --preserve-root',
    options: { ...RECURSIVE, '--interactive': 'data' },
    match: ['rm -rf x', 'rm -rf build'],
    notMatch: ['rm'],
  }),
  rmdir: row('delete', { match: ['rmdir build', 'rmdir a.txt'] }),
  unlink: row('delete', { match: ['unlink f', 'unlink a.txt'] }),
  // shred overwrites a file's content (and with -u removes it).
  shred: row('delete', {
    options: { '-n': 'data', '-s': 'data', '--random-source': 'read', '--iterations': 'data', '--size': 'data' },
    match: ['shred a.txt', 'shred x'],
  }),
  // Create or change their operands.
  touch: row('write', {
    options: { '-r': 'read', '--reference': 'read', '-d': 'data', '-t': 'data', '--date': 'data' },
    match: ['touch new.txt', 'touch /tmp/riskgate-redteam-marker'],
    notMatch: ['touch'],
  }),
  mkdir: row('write', {
    options: { '-m': 'data', '--mode': 'data', '--context': 'data' },
    match: ['mkdir build', 'mkdir made'],
    notMatch: ['mkdir'],
  }),
  mkfifo: row('write', {
    options: { '-m': 'data', '--mode': 'data' },
    match: ['mkfifo a.txt', 'mkfifo x'],
    notMatch: ['mkfifo'],
  }),
  mknod: row('write', { options: { '-m': 'data', '--mode': 'data' }, match: ['mknod a.txt', 'mknod x'] }),
  truncate: row('write', {
    severity: 'high',
    options: { '-s': 'data', '--size': 'data', '-r': 'read', '--reference': 'read', '-o': 'flag' },
    match: ['truncate -s 0 f', 'truncate -s 0 notes.txt'],
    notMatch: ['truncate'],
  }),
  tee: row('write', {
    options: { '--output-error': 'optional' },
    match: ['tee out.txt', 'tee a.txt'],
    notMatch: ['tee'],
  }),
  // sponge (moreutils) soaks up its input and writes it to its operand.
  sponge: row('write', { options: { '-a': 'flag' }, match: ['sponge a.txt', 'sponge x'] }),
  // fallocate and truncate size files: fallocate -l 10G fills the disk.
  fallocate: row('write', {
    options: { '-l': 'data', '--length': 'data', '-o': 'data', '--offset': 'data' },
    match: ['fallocate -l 10G big', 'fallocate a.txt'],
  }),
  // Permissions and ownership: the first operand is the mode or owner (unless --reference gives it).
  chmod: row('write', {
    leading: 1,
    options: { ...RECURSIVE, '--reference': 'pattern-file' },
    match: ['chmod 777 notes.txt', 'chmod x a.txt'],
    notMatch: ['chmod'],
  }),
  chown: row('write', {
    leading: 1,
    options: { ...RECURSIVE, '--reference': 'pattern-file', '--from': 'data' },
    match: ['chown root f', 'chown x a.txt'],
  }),
  chgrp: row('write', {
    leading: 1,
    options: { ...RECURSIVE, '--reference': 'pattern-file' },
    match: ['chgrp x a.txt'],
  }),
  chattr: row('write', {
    leading: 1,
    options: { '-R': 'recursive', '-v': 'data', '-p': 'data' },
    match: ['chattr x a.txt'],
  }),
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
    match: ['setfacl a.txt', 'setfacl x'],
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
    match: ['cp notes.txt made.txt', 'cp x a.txt'],
    notMatch: ['cp'],
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
    match: ['install -m 755 f /usr/local/bin/f', 'install x a.txt'],
  }),
  // mv moves its sources away (deleting them where they were) and writes the destination.
  mv: row('delete', {
    last: 'write',
    options: { '-t': 'write', '--target-directory': 'write', '-S': 'data', '--suffix': 'data', '--backup': 'data' },
    match: ['mv a.txt b.txt', 'mv notes.txt moved.txt'],
    notMatch: ['mv'],
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
    match: ['patch a.txt', 'patch'],
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
    ].map((name) => [name, DEVICE_REWRITER]),
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
    judged: 'read',
    match: ['mount'],
  }),
  umount: withExamples(always(controls('umount detaches filesystems', 'high')), { match: ['umount /mnt', 'umount'] }),
  swapon: withExamples(always(controls('swapon changes swap space', 'high')), { match: ['swapon', 'swapon a.txt'] }),
  swapoff: withExamples(always(controls('swapoff changes swap space', 'high')), {
    match: ['swapoff', 'swapoff a.txt'],
  }),
  // Processes and the machine.
  // kill -l / -L list the signals' names (with a number, that signal's name); anything else signals.
  kill: row('data', {
    custom: (site) => {
      const words = site.args.map((word) => word.value ?? '\u0000');
      if (/^(-l|-L|--list|--table)$/.test(words[0] ?? '') && words.slice(1).every((word) => /^\d+$/.test(word))) return;
      site.emit(controls('kill sends signals to processes', 'high'));
    },
    judged: 'control-process',
    match: ['kill -l -9 1', 'kill -9 1234'],
  }),
  // Signals by name: they reach every process that matches.
  ...Object.fromEntries(
    ['pkill', 'killall', 'skill'].map((name) => [
      name,
      withExamples(always(controls(`${name} sends signals to processes`, 'high')), { match: [`${name} node`] }),
    ]),
  ),
  renice: withExamples(always(controls('renice changes the priority of running processes')), {
    match: ['renice', 'renice a.txt'],
  }),
  reboot: withExamples(always(controls('reboot restarts the machine', 'high')), { match: ['reboot', 'reboot a.txt'] }),
  // They stop the machine.
  ...Object.fromEntries(
    ['shutdown', 'poweroff', 'halt'].map((name) => [
      name,
      withExamples(always(controls(`${name} stops the machine`, 'high')), { match: [name] }),
    ]),
  ),
  telinit: withExamples(always(controls("telinit changes the machine's run level", 'high')), {
    match: ['telinit', 'telinit a.txt'],
  }),
  timedatectl: row('data', {
    subcommands: { '': row('data'), status: row('data'), show: row('data') },
    otherSubcommands: always(controls('timedatectl changes the clock or time zone')),
    judged: 'read',
    match: ['timedatectl', 'timedatectl status'],
  }),
  hostnamectl: row('data', {
    subcommands: { '': row('data'), status: row('data') },
    otherSubcommands: always(controls("hostnamectl changes the machine's name")),
    judged: 'read',
    match: ['hostnamectl', 'hostnamectl status'],
  }),
  loginctl: withExamples(always(controls('loginctl controls login sessions')), {
    match: ['loginctl', 'loginctl a.txt'],
  }),
  modprobe: withExamples(always(controls('modprobe loads or removes kernel modules', 'high')), {
    match: ['modprobe', 'modprobe a.txt'],
  }),
  insmod: withExamples(always(controls('insmod loads kernel modules', 'high')), { match: ['insmod', 'insmod a.txt'] }),
  rmmod: withExamples(always(controls('rmmod removes kernel modules', 'high')), { match: ['rmmod', 'rmmod a.txt'] }),
  // Firewalls.
  ...Object.fromEntries(
    ['iptables', 'ip6tables', 'nft', 'ufw'].map((name) => [
      name,
      withExamples(always(controls(`${name} changes the firewall`, 'high')), { match: [`${name} -F`] }),
    ]),
  ),
  'firewall-cmd': withExamples(always(controls('firewall-cmd changes the firewall', 'high')), {
    match: ['firewall-cmd', 'firewall-cmd a.txt'],
  }),
  route: withExamples(always(controls('route changes network routes')), { match: ['route', 'route a.txt'] }),
  ifconfig: withExamples(always(controls('ifconfig changes network interfaces')), {
    match: ['ifconfig down', 'ifconfig eth0 down'],
  }),
  at: withExamples(always(runs('a command at a later time (at)')), { match: ['at', 'at a.txt'] }),
  batch: withExamples(always(runs('a command at a later time (batch)')), { match: ['batch', 'batch a.txt'] }),
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
    judged: 'unknown',
    match: ['systemctl status nginx', 'systemctl list-units'],
    notMatch: ['systemctl restart nginx'],
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
    match: ['journalctl -u nginx -n 50', 'journalctl'],
    notMatch: ['journalctl -f', 'journalctl -f a.txt'],
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
    ].map((name) => [
      name,
      withExamples(privileges(`${name} changes users, groups or privileges`), { match: [`${name} eve`, name] }),
    ]),
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
    ].map((name) => [name, withExamples(always(runs(`the recipes ${name} runs`)), { match: [name, `${name} test`] })]),
  ),
  // Fetch a package and run it.
  ...Object.fromEntries(
    ['npx', 'pnpx', 'bunx', 'uvx', 'pipx'].map((name) => [
      name,
      withExamples(
        always(runs(`a package ${name} fetches and runs`, undefined, 'high'), connects('a package registry')),
        { match: [`${name} cowsay hi`] },
      ),
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
    ].map((name) => [name, withExamples(always(runs(name)), { match: [`${name} notes.txt`] })]),
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
    match: ['man ls', 'man -w ls'],
    notMatch: ['MANOPT=-Hfirefox man -w ls', 'man -P ./x a.txt'],
  }),
  // Endless output or screens.
  yes: withExamples(always(endless('yes prints for ever')), { match: ['yes', 'yes a.txt'] }),
  // top refreshes until stopped, unless told how many times (-n).
  top: row('data', {
    custom: (site) => {
      applyOperands(site, TOP);
      if (!site.args.some((word) => /^-[a-zA-Z]*n/.test(word.value ?? '')))
        site.emit(endless('top refreshes until it is stopped'));
    },
    judged: 'read',
    match: ['top -bn1', 'top -bn1 | head -20'],
    notMatch: ['top -bn1 -Z', 'top -k'],
  }),
  htop: withExamples(always(endless('htop refreshes until it is stopped')), { match: ['htop', 'htop a.txt'] }),
  // Keys and agents: ssh-add talks to the agent that signs as the person.
  'ssh-add': withExamples(always({ kind: 'read-env', names: ['SSH_AUTH_SOCK'] }), { match: ['ssh-add -L', 'ssh-add'] }),
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
    match: ['ssh-keygen', 'ssh-keygen a.txt'],
  }),
  'ssh-keyscan': withExamples(always(connects('the hosts ssh-keyscan names')), {
    match: ['ssh-keyscan', 'ssh-keyscan a.txt'],
  }),
  // Publishing uploads packages to a registry.
  twine: withExamples(always(connects('a package registry (twine uploads)')), {
    match: ['twine upload dist/*', 'twine'],
  }),
  // Service managers of other systems: loading, unloading and starting services.
  launchctl: withExamples(always(controls('launchctl loads, unloads or starts services', 'high')), {
    match: ['launchctl unload x.plist', 'launchctl'],
  }),
  'rc-service': withExamples(always(controls('rc-service starts or stops services', 'high')), {
    match: ['rc-service', 'rc-service a.txt'],
  }),
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
      withExamples(
        always({
          kind: 'read-db',
          object: 'saved Docker registry credentials',
          secret: `${name} prints saved registry passwords`,
        }),
        { match: [`${name} list`] },
      ),
    ]),
  ),
  'ssh-copy-id': withExamples(
    always(connects('a host'), runs('ssh-copy-id, which installs a key on another machine')),
    { match: ['ssh-copy-id', 'ssh-copy-id a.txt'] },
  ),
};
