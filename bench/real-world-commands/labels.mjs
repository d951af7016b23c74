// Our judgement of tldr's programs, by page (build-corpus.mjs applies it; README.md explains it).
// A page named here yields read-only lines only for examples whose description is a read ("List",
// "Display", "Show", …) and whose command writes, runs and reaches nothing (build-corpus.mjs's
// SIDE_SIGNS); every other example of it is side-effect or left out. The family says which kind
// of read it is, so the measurement can report each family's share.

const pages = (family, names) =>
  names
    .trim()
    .split(/\s+/)
    .map((name) => [name, family]);

/** Programs that only read or print in the forms their read examples show. */
export const READ_PAGES = new Map([
  ...pages(
    'core-reader',
    `
    ls cat head tail wc grep egrep fgrep rg ag ack find fd fdfind locate plocate tree du df stat file diff cmp comm sort
    uniq cut paste join tr column nl tac rev fold fmt pr expand unexpand od hexdump xxd strings md5sum sha1sum sha224sum
    sha256sum sha384sum sha512sum b2sum cksum sum base64 base32 basenc basename dirname realpath readlink pwd echo printf
    seq expr date cal ncal factor numfmt jq yq bat batcat zcat zgrep bzcat xzcat look cut gron dasel xmllint csvlook
    csvstat csvcut shellcheck hadolint yamllint wdiff colordiff sdiff diff3 zdiff zipinfo`,
  ),
  ...pages(
    'lister',
    `
    lsd eza exa dust duf difft delta tokei cloc scc ipcs lsns lslocks lsipc lsattr getfacl namei findmnt blkid lshw
    hwinfo inxi neofetch fastfetch screenfetch sensors lscpu lsblk lspci lsusb lsmod lsof ss netstat pstree pgrep pidof
    ps w who last users uptime free nproc arch uname hostname whoami id groups tty locale getconf lsb_release logname
    which whereis type whatis apropos man dmesg journalctl vmstat iostat mpstat lsirq lsmem lscpu numactl
    lsinitramfs lsfd pwdx cpuid dmidecode`,
  ),
  ...pages(
    'git-read',
    'git-describe git-blame git-log git-status git-show git-diff git-shortlog git-ls-files git-ls-tree git-cat-file git-rev-parse git-rev-list git-show-ref git-for-each-ref git-name-rev git-merge-base git-whatchanged git-annotate git-count-objects git-grep git-var',
  ),
  ...pages(
    'binary-inspect',
    `
    objdump readelf nm size c++filt addr2line strings pdfinfo identify mediainfo ffprobe hexyl`,
  ),
]);

/** Programs and subcommand pages with reads among their examples and writes among the others. */
export const MIXED_PAGES = new Map([
  ...pages('binary-inspect', 'exiftool'),
  ...pages('archive-listing', 'tar unzip gzip zip 7z 7za xz zstd bsdtar'),
  ...pages(
    'git-read',
    `
    git git-log git-status git-diff git-show git-blame git-shortlog git-describe git-cat-file git-rev-parse git-ls-files
    git-ls-tree git-rev-list git-name-rev git-merge-base git-for-each-ref git-show-ref git-check-ignore git-check-attr
    git-count-objects git-whatchanged git-show-branch git-var git-annotate git-cherry git-diff-tree git-diff-files
    git-diff-index git-range-diff git-verify-commit git-verify-tag git-fsck git-branch git-tag git-remote git-stash
    git-worktree git-reflog git-bisect git-notes git-hash-object git-grep git-check-mailmap git-check-ref-format
    git-show-index git-verify-pack git-get-tar-commit-id git-column git-stripspace git-help`,
  ),
  ...pages(
    'package-query',
    `
    apt apt-cache apt-file dpkg dpkg-query rpm pacman pacman-query brew brew-list brew-info brew-leaves pip pip3 pip-list
    pip-show pip-freeze pip3-list pip3-show gem conda-list conda-info flatpak apk npm-ls npm-list pnpm-list yarn-list
    rustup cargo-tree cargo-locate-project cargo-pkgid cargo-verify-project cargo-metadata go-env go-version pipx`,
  ),
  ...pages(
    'daemon-listing',
    `
    systemctl docker docker-ps docker-images docker-logs docker-container-ls docker-image-ls docker-container-logs
    docker-container-top docker-top docker-diff docker-container-diff docker-volume docker-network podman podman-ps
    podman-images podman-logs nmcli nmcli-device nmcli-connection nmcli-general timedatectl hostnamectl localectl
    loginctl resolvectl busctl snap`,
  ),
  ...pages('system-info', 'ip ip-address ip-route ip-link ip-neighbour ip-rule sysctl mount service'),
]);

/** Programs every example of which changes something, runs code or reaches out. */
export const SIDE_PAGES = new Set(
  `rm rmdir mv cp mkdir touch chmod chown chgrp ln dd mkfs shred truncate kill killall pkill reboot shutdown poweroff
  halt systemd-run useradd userdel usermod passwd groupadd groupdel curl wget ssh scp rsync sftp nc ncat netcat telnet
  ping ping6 dig nslookup host traceroute mtr nmap whois ftp aria2c http xh sudo su doas umount fdisk parted mkswap
  swapon swapoff iptables nft ufw firewall-cmd xargs eval python python3 node npx bash sh zsh make install rsync
  docker-run docker-exec docker-rm docker-rmi docker-build docker-inspect docker-container-inspect docker-secret
  docker-login docker-push docker-pull docker-stop docker-start docker-kill git-push git-pull git-fetch git-clone
  git-commit git-reset git-clean git-rebase git-merge git-checkout git-add git-rm git-mv git-restore git-switch
  git-credential git-credential-store git-credential-cache git-config env printenv`.split(/\s+/),
);

/**
 * Lines the review judged against the rules (page TAB original command → label), each with why:
 * each group says why. A `null` label leaves the line out.
 */
const read = (family) => ({ label: 'read-only', family });
const side = () => ({ label: 'side-effect', family: 'side-effect-description' });
export const OVERRIDES = new Map([
  // Reads the rules labelled by program name: kill -l lists signal names; npm sbom
  // --package-lock-only prints the lock file's packages (no scripts, no network); git config -l
  // prints the configuration, which is asked when it holds a credential (an extraheader, a URL
  // password: the judge reads the file's content) — the fixture's holds none.
  ['common/kill\tkill -l', read('lister')],
  ['linux/kill\tkill {{-l|-L|--table}}', read('lister')],
  ['common/npm-sbom\tnpm sbom --package-lock-only', read('package-query')],
  ['common/git-config\tgit config --{{local|global|system}} {{[-l|--list]}} --show-origin', read('git-read')],
  // Found by reading the read-only lines: a "read" that reaches the network (brew info's analytics,
  // pip list --outdated), prints secrets (conda's tokens and environment), writes (neofetch's
  // first config, screenfetch's screenshot, cargo metadata's Cargo.lock and rustc runs), or that
  // we could not vouch for (brew doctor, hostname -i's lookup, rustup show installing a toolchain).
  ['common/brew-info\tbrew info', null], // Display statistics for Homebrew installation
  ['common/brew-info\tbrew info {{formula|cask}}', side()], // Display more information about a formula or cask
  ['common/brew-info\tbrew info --json {{formula|cask}}', null], // Display information about a formula or cask in JSON format
  ['common/brew-info\tbrew info --json --installed', null], // Print JSON of currently installed formulae
  ['common/brew\tbrew info {{formula|cask}}', side()], // Display information about a formula or a cask (version, inst
  ['common/brew\tbrew doctor', null], // Check the local Homebrew installation for potential problems
  ['common/cargo-metadata\tcargo metadata', side()], // Print the workspace members and resolved dependencies of the
  ['common/cargo-metadata\tcargo metadata --no-deps', side()], // Print only the workspace members and do not fetch dependenci
  ['common/cargo-metadata\tcargo metadata --format-version {{version}}', side()], // Print metadata in a specific format based on the specified v
  ['common/cargo-metadata\tcargo metadata --filter-platform {{target_triple}}', side()], // Print metadata with the `resolve` field including dependenci
  ['common/conda-info\tconda info {{[-s|--system]}}', side()], // List environment variables
  ['common/conda-info\tconda info --unsafe-channels', side()], // Display list of channels with tokens exposed
  ['common/hostname\thostname {{[-i|--ip-address]}}', null], // Show the network address of the host name
  ['common/neofetch\tneofetch', side()], // Return the default config, and create it if it's the first t
  ['common/pip-list\tpip list {{[-o|--outdated]}}', side()], // List outdated packages that can be upgraded
  ['common/rustup\trustup show', null], // List installed toolchains
  ['common/screenfetch\tscreenfetch -s', side()], // Take a screenshot (requires `scrot`)

  // A dry run: prints what would be deleted.
  ['common/git-clean\tgit clean {{[-n|--dry-run]}}', read('git-read')],
  // Prints one alias: no secret (a URL with a token would be remote.*.url, asked below as side-effect).
  ['common/git-config\tgit config {{alias.unstage}}', read('git-read')],
  // One named variable that holds no secret (printenv alone, every variable, stays side-effect).
  ['common/printenv\tprintenv {{HOME}}', read('core-reader')],
  ['common/printenv\tprintenv {{[-0|--null]}} {{HOME}}', read('core-reader')],
  // Decompress to standard output: the file is only read.
  ['common/xz\txz {{[-d|--decompress]}} {{[-c|--stdout]}} {{path/to/file.xz}}', read('core-reader')],
  ['common/zstd\tzstd {{[-d|--decompress]}} {{[-c|--stdout]}} {{path/to/file.zst}}', read('core-reader')],
  ['common/lz4\tlz4 {{[-dc|--decompress --stdout]}} {{file.lz4}}', read('core-reader')],
  // A pager, not on a terminal: prints the file.
  ['common/zmore\tzmore {{path/to/file.txt.gz}}', read('core-reader')],
  // Random bytes or a fresh key printed: nothing read, nothing changed; neither label fits.
  ['common/openssl-genrsa\topenssl genrsa', null],
  ['common/openssl-rand\topenssl rand -hex 8', null],
  ['common/openssl-rand\topenssl rand -base64 20', null],
  // The example's script only prints: the line is a read, not the "runs code" its page is about.
  ['common/bash\tbash -c "{{echo \'bash is executed\'}}"', null],
  ['common/ksh\tksh -c "{{echo \'ksh is executed\'}}"', null],
  ['common/zsh\tzsh -c "{{echo Hello world}}"', null],
  ['common/eval\teval "{{echo foo}}"', null],
  ['common/eval\teval "{{foo=bar}}"', null],
  // A calculator reading standard input (riskgate's is empty).
  ['common/bc\tbc', null],
  ['common/bc\tbc {{[-i|--interactive]}} {{[-l|--mathlib]}}', null],
  ['common/csh\tcsh -c "{{echo \'csh is executed\'}}"', null],
  ['common/openssl-genrsa\topenssl genrsa {{-aes256}}', null],
  // A terminal control sequence printed: nothing read, nothing changed.
  ['common/tput\ttput smcup', null],
  // Found by the measurement and judged one by one: the description's verb ("Create", "Remove",
  // "Extract", "Merge", "Enable", "Format") names what the printed output shows, or "remote"
  // names a remote-tracking branch, not a change or a connection: these lines print only. The
  // null ones print nothing that was read (colours, random bytes) or only change the throwaway
  // shell riskgate runs them in.
  [
    'common/hadolint\thadolint --trusted-registry {{docker.io}} --trusted-registry {{example.com}}:{{5000}} {{path/to/Dockerfile1 path/to/Dockerfile2 ...}}',
    read('core-reader'),
  ],
  ['common/busybox\tbusybox {{ls|rm|mkdir|cat|...}} {{args}}', null],
  ['common/clear\tclear', null],
  // Starts gitk (or a pager on git log): a program, not a print.
  ['common/git-bisect\tgit bisect visualize', { label: 'side-effect', family: 'side-effect-description' }],
  ['common/dash\tdash -c "{{echo \'dash is executed\'}}"', null],
  ['common/openssl-passwd\topenssl passwd -apr1', null],
  ['common/timeout\ttimeout {{[-s|--signal]}} {{INT|HUP|KILL|...}} {{5s}} {{sleep 10}}', null],
  // taskset with a CPU list and no command prints its usage.
  ['linux/taskset\ttaskset {{[-c|--cpu-list]}} {{cpu_id_1}}-{{cpu_id_4}}', null],
  // bc has no way to run a program or write a file: its "script" is arithmetic, printed.
  ['common/bc\tbc {{path/to/script.bc}}', read('core-reader')],
  ['common/more\tmore {{path/to/file}}', read('core-reader')],
  ['common/tput\ttput sgr0', null],
  ['common/command\tcommand {{ls}}', null],
  ['common/bzip2\tbzip2 {{[-dc|--decompress --stdout]}} {{path/to/compressed_file.bz2}}', read('core-reader')],
  ['common/clear\tclear -x', null],
  ['common/openssl-prime\topenssl prime -generate -bits 2048 -hex', null],
  ['common/bat\tbat {{[-n|--number]}} {{path/to/file}}', read('core-reader')],
  ['common/bat\tbat {{[-pp|--style plain --pager never]}} {{path/to/file}}', read('core-reader')],
  ['common/bg\tbg', null],
  [
    'common/jq\t{{cat path/to/file.json}} | jq \'. {{+|-}} {{{"key1": "value1", "key2": "value2", ...}}}\'',
    read('core-reader'),
  ],
  [
    "common/jq\t{{cat path/to/multiple_json_file_*.json}} | jq '{{{newKey1: .key1, newKey2: .key2.nestedKey, ...}}}'",
    read('core-reader'),
  ],
  ['common/csvcut\tcsvcut {{[-C|--not-columns]}} {{4}} {{data.csv}}', read('core-reader')],
  ['common/csvcut\tcsvcut {{[-c|--columns]}} {{1,3}} {{data.csv}}', read('core-reader')],
  ['common/csvcut\tcsvcut {{[-c|--columns]}} {{id,"first name"}} {{data.csv}}', read('core-reader')],
  ['common/difft\tdifft --syntax-highlight {{on|off}} {{path/to/file1}} {{path/to/file2}}', read('core-reader')],
  ['common/duf\tduf --theme {{dark|light}}', read('core-reader')],
  ['common/echo\techo -e "{{Column 1\\tColumn 2}}"', read('core-reader')],
  ['common/tr\techo {{text}} | tr {{find_character}} {{replace_character}}', read('core-reader')],
  ['common/file\tfile {{[-s|--special-files]}} {{path/to/file}}', read('core-reader')],
  ["common/gawk\tgawk '($10 >= {{min_value}} && $10 <= {{max_value}})' {{path/to/file}}", read('core-reader')],
  ['common/git-branch\tgit branch {{[-a|--all]}}', read('git-read')],
  ['common/git-cherry\tgit cherry {{[-v|--verbose]}}', read('git-read')],
  ['common/git-cherry\tgit cherry {{origin}} {{topic}}', read('git-read')],
  ['common/git-describe\tgit describe', read('git-read')],
  ['common/git-describe\tgit describe --abbrev={{4}}', read('git-read')],
  ['common/git-describe\tgit describe --all', read('git-read')],
  ['common/git-describe\tgit describe {{branch_name}}', read('git-read')],
  ['common/git-remote\tgit remote get-url {{remote_name}}', read('git-read')],
  ['common/git-show-branch\tgit show-branch {{[-r|--remotes]}}', read('git-read')],
  ['common/git-show-branch\tgit show-branch {{[-a|--all]}}', read('git-read')],
  ["common/hexdump\thexdump -e '{{element_format .. end_format}}' {{path/to/file}}", read('core-reader')],
  ["common/jq\tjq '.' {{path/to/file.json}}", read('core-reader')],
  [
    'linux/lsblk\tlsblk {{[-o|--output]}} +{{NAME,ROTA,SERIAL,MODEL,TRAN,TYPE,SIZE,FSTYPE,MOUNTPOINT,...}}',
    read('lister'),
  ],
  ['linux/lscpu\tlscpu {{[-e|--extended]}} {{[-b|--online]}}', read('lister')],
  ['linux/lspci\tlspci -vm', read('lister')],
  ['common/openssl-rand\topenssl rand -{{hex|base64}} 1{{K|M|G|T}}', null],
  ["common/paste\tpaste {{[-d|--delimiters]}} '\\n' {{path/to/file1}} {{path/to/file2}}", read('core-reader')],
  ['common/paste\tpaste {{[-d|--delimiters]}} {{delimiter}} {{path/to/file1}} {{path/to/file2}}', read('core-reader')],
  ['common/paste\tpaste {{path/to/file1}} {{path/to/file2}}', read('core-reader')],
  ['linux/column\tprintf "header1 header2\\nbar foo\\n" | column {{[-c|--output-width]}} {{30}}', read('core-reader')],
  ['common/printf\tprintf -v {{myvar}} {{"This is %s = %d\\n" "a year" 2016}}', null],
  ['common/realpath\trealpath {{[-s|--no-symlinks]}} {{path/to/file_or_directory}}', read('core-reader')],
  ['common/seq\tseq {{[-f|--format]}} "%04g" {{5 3 20}}', read('core-reader')],
  [
    'common/shellcheck\tshellcheck {{[-o|--enable]}} {{add-default-case,avoid-nullary-conditions,...}} {{path/to/script.sh}}',
    read('core-reader'),
  ],
  ['linux/ss\tss {{[-pt|--processes --tcp]}} dst :ssh', read('lister')],
  ['common/tcsh\ttcsh -c "{{echo \'tcsh is executed\'}}"', null],
  ['common/timeout\ttimeout 3s sleep 10', null],
  ['common/tput\ttput {{setaf|setab}} {{ansi_color_code}}', null],
  ["common/tr\ttr < {{path/to/file}} {{[-s|--squeeze-repeats]}} '{{input_characters}}'", read('core-reader')],
  ["common/tr\ttr < {{path/to/file}} {{[-d|--delete]}} '{{input_characters}}'", read('core-reader')],
  ['common/tr\ttr < {{path/to/file}} {{find_character}} {{replace_character}}', read('core-reader')],
  ['linux/uncompress\tuncompress -c {{path/to/file1.Z path/to/file2.Z ...}}', read('core-reader')],
  ['common/xxd\txxd {{input_file}}', read('core-reader')],
]);
