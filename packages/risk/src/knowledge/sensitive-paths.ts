/**
 * The one table of paths that matter, used by every tool (shell commands, file operations,
 * SQL ATTACH, file:// URLs). Each row: a glob (`~/` is the home directory; a glob without a
 * leading `/` or `~/` matches that name in any directory), what it holds, and its class:
 *
 * - `secret`: reading or listing it hands secrets to the model.
 * - `machine`: writing it changes how the machine, the shell or a tool behaves (runs code
 *   later, grants access, loosens riskgate itself). Reads are fine unless also secret.
 * - `endless`: a read never ends or blocks (devices that stream forever, terminals).
 * - `raw`: a device or kernel file whose content is memory or a whole disk.
 *
 * Globs are matched with picomatch, dotfiles included. A directory row covers everything
 * below it. Extend by adding a row with a comment; nothing else needs to change.
 */
export type PathClass = 'secret' | 'machine' | 'endless' | 'raw';

export interface PathRow {
  readonly glob: string;
  readonly what: string;
  readonly class: PathClass;
  /**
   * The row names a file only, not a directory whose contents it covers: `credentials` is a
   * secret file, but `src/credentials/index.ts` is ordinary code.
   */
  readonly fileOnly?: boolean;
}

export const SENSITIVE_PATHS: readonly PathRow[] = [
  // --- secrets: keys and credential stores in the home directory
  // Public keys and known hosts are made to be shared (home-allowlist.ts lets them be read).
  { glob: '~/.ssh/!(*.pub|known_hosts|known_hosts.old)', what: 'SSH keys and configuration', class: 'secret' },
  { glob: '~/.aws', what: 'AWS credentials', class: 'secret' },
  { glob: '~/.azure', what: 'Azure credentials', class: 'secret' },
  { glob: '~/.config/gcloud', what: 'Google Cloud credentials', class: 'secret' },
  { glob: '~/.oci', what: 'Oracle Cloud credentials', class: 'secret' },
  { glob: '~/.kube', what: 'Kubernetes credentials', class: 'secret' },
  { glob: '~/.docker/config.json', what: 'Docker registry credentials', class: 'secret' },
  { glob: '~/.gnupg', what: 'GnuPG keys', class: 'secret' },
  { glob: '~/.password-store', what: 'a password store', class: 'secret' },
  { glob: '~/.local/share/keyrings', what: 'desktop keyrings', class: 'secret' },
  { glob: '~/.config/gh/hosts.yml', what: 'a GitHub CLI token', class: 'secret' },
  { glob: '~/.config/hub', what: 'a GitHub token (hub)', class: 'secret' },
  { glob: '~/.config/glab-cli', what: 'a GitLab CLI token', class: 'secret' },
  { glob: '~/.vault-token', what: 'a HashiCorp Vault token', class: 'secret' },
  { glob: '~/.terraform.d/credentials.tfrc.json', what: 'Terraform Cloud credentials', class: 'secret' },
  { glob: '~/.terraformrc', what: 'Terraform CLI credentials', class: 'secret' },
  { glob: 'terraform.rc', what: 'Terraform CLI credentials', class: 'secret' },
  { glob: '*.tfstate', what: 'Terraform state, which stores secrets in plain text', class: 'secret' },
  { glob: '*.tfstate.backup', what: 'Terraform state, which stores secrets in plain text', class: 'secret' },
  { glob: '~/.cargo/credentials', what: 'a crates.io token', class: 'secret' },
  { glob: '~/.cargo/credentials.toml', what: 'a crates.io token', class: 'secret' },
  { glob: '~/.gem/credentials', what: 'a RubyGems API key', class: 'secret' },
  { glob: '~/.pulumi/credentials.json', what: 'Pulumi access tokens', class: 'secret' },
  { glob: '~/.databrickscfg', what: 'Databricks tokens', class: 'secret' },
  { glob: '~/.s3cfg', what: 's3cmd credentials', class: 'secret' },
  { glob: '~/.boto', what: 'boto (AWS/GCS) credentials', class: 'secret' },
  { glob: '/etc/boto.cfg', what: 'boto (AWS/GCS) credentials', class: 'secret' },
  { glob: '~/.config/rclone/rclone.conf', what: 'rclone remote credentials', class: 'secret' },
  { glob: '~/.m2/settings.xml', what: 'Maven repository credentials', class: 'secret' },
  { glob: '~/.m2/settings-security.xml', what: 'the Maven master password', class: 'secret' },
  { glob: '~/.config/doctl', what: 'a DigitalOcean token', class: 'secret' },
  { glob: '~/.config/openstack', what: 'OpenStack credentials', class: 'secret' },
  { glob: 'clouds.yaml', what: 'OpenStack credentials', class: 'secret' },
  { glob: '~/.config/heroku', what: 'Heroku credentials', class: 'secret' },
  { glob: '~/.config/containers/auth.json', what: 'container registry credentials (podman, buildah)', class: 'secret' },
  {
    glob: '/run/{user/*/,}containers/auth.json',
    what: 'container registry credentials (podman, buildah)',
    class: 'secret',
  },
  { glob: '~/.{composer,config/composer}/auth.json', what: 'Composer repository tokens', class: 'secret' },
  {
    glob: '~/.gradle/gradle.properties',
    what: 'Gradle properties (signing and repository passwords)',
    class: 'secret',
  },
  { glob: '~/.config/sops/age/keys.txt', what: 'age secret keys (sops)', class: 'secret' },
  { glob: '~/.{ngrok2,config/ngrok}', what: 'an ngrok auth token', class: 'secret' },
  { glob: '~/.fly', what: 'a Fly.io access token', class: 'secret' },
  { glob: '~/.config/configstore/firebase-tools.json', what: 'a Firebase CLI token', class: 'secret' },
  { glob: '~/.{wrangler,config/.wrangler}/config', what: 'a Cloudflare (wrangler) token', class: 'secret' },
  { glob: '~/.cloudflared', what: 'Cloudflare tunnel credentials', class: 'secret' },
  { glob: '~/.config/hcloud', what: 'a Hetzner Cloud token', class: 'secret' },
  { glob: '~/.circleci/cli.yml', what: 'a CircleCI token', class: 'secret' },
  { glob: '~/.travis/config.yml', what: 'a Travis CI token', class: 'secret' },
  { glob: '~/.snowsql/config', what: 'Snowflake (SnowSQL) credentials', class: 'secret' },
  { glob: '~/.snowflake/{connections,config}.toml', what: 'Snowflake credentials', class: 'secret' },
  { glob: '~/.dbt/profiles.yml', what: 'dbt database credentials', class: 'secret' },
  { glob: '~/.{mc,mcli}/config.json', what: 'MinIO client credentials', class: 'secret' },
  { glob: '~/.config/filezilla/{sitemanager,recentservers}.xml', what: 'saved FileZilla passwords', class: 'secret' },
  { glob: '~/.local/share/com.vercel.cli/auth.json', what: 'a Vercel token', class: 'secret' },
  { glob: '~/.config/netlify/config.json', what: 'a Netlify token', class: 'secret' },
  { glob: '~/.config/op', what: '1Password CLI sessions', class: 'secret' },
  { glob: '~/.config/linode-cli', what: 'a Linode token', class: 'secret' },
  { glob: '~/.config/scw', what: 'Scaleway credentials', class: 'secret' },
  { glob: '~/.aliyun', what: 'Alibaba Cloud credentials', class: 'secret' },
  { glob: '~/.tccli', what: 'Tencent Cloud credentials', class: 'secret' },
  { glob: '~/.bluemix', what: 'IBM Cloud tokens', class: 'secret' },
  { glob: '~/.tsh', what: 'Teleport certificates and keys', class: 'secret' },
  { glob: '~/.config/stripe/config.toml', what: 'Stripe CLI keys', class: 'secret' },
  { glob: '~/.supabase/access-token', what: 'a Supabase token', class: 'secret' },
  { glob: '~/.mysqlsh', what: 'MySQL Shell saved passwords and history', class: 'secret' },
  { glob: '~/.purple/accounts.xml', what: 'saved chat passwords (Pidgin)', class: 'secret' },
  { glob: '~/.thunderbird/*/{logins.json,key4.db}', what: 'saved mail passwords', class: 'secret' },
  { glob: '~/.netrc', what: 'saved logins (netrc)', class: 'secret' },
  { glob: '.netrc', what: 'saved logins (netrc)', class: 'secret' },
  { glob: '_netrc', what: 'saved logins (netrc)', class: 'secret' },
  { glob: '.authinfo', what: 'saved logins (authinfo)', class: 'secret' },
  { glob: '.authinfo.gpg', what: 'saved logins (authinfo)', class: 'secret' },
  { glob: '.git-credentials', what: 'saved git passwords', class: 'secret' },
  { glob: '~/.config/git/credentials', what: 'saved git passwords', class: 'secret' },
  { glob: '.pgpass', what: 'saved PostgreSQL passwords', class: 'secret' },
  { glob: '.my.cnf', what: 'a saved MySQL password', class: 'secret' },
  { glob: '.mylogin.cnf', what: 'saved MySQL logins', class: 'secret' },
  { glob: '~/.mozilla/firefox/*/logins.json', what: 'saved browser passwords', class: 'secret' },
  { glob: '~/.mozilla/firefox/*/key4.db', what: 'the browser password key', class: 'secret' },
  { glob: '~/.mozilla/firefox/*/cookies.sqlite', what: 'browser cookies', class: 'secret' },
  {
    glob: '~/.config/{google-chrome,chromium,BraveSoftware}/**/{Login Data,Cookies}',
    what: 'browser passwords and cookies',
    class: 'secret',
  },
  // riskgate's own configuration holds the person's API key.
  { glob: '~/.config/riskgate', what: "riskgate's own configuration (API key)", class: 'secret' },
  // --- secrets: shell and client histories (typed passwords, tokens on command lines)
  { glob: '.bash_history', what: 'shell history', class: 'secret' },
  { glob: '.zsh_history', what: 'shell history', class: 'secret' },
  { glob: '.zhistory', what: 'shell history', class: 'secret' },
  { glob: '.sh_history', what: 'shell history', class: 'secret' },
  { glob: '.history', what: 'shell history', class: 'secret' },
  { glob: '.histfile', what: 'shell history (a common zsh HISTFILE)', class: 'secret' },
  { glob: '.{ash,ksh}_history', what: 'shell history', class: 'secret' },
  { glob: '~/.{local/share,config}/fish/fish_history', what: 'shell history', class: 'secret' },
  { glob: '.lesshst', what: 'less search history', class: 'secret' },
  { glob: '.{duckdb,influx,sqlcmd}_history', what: 'database client history', class: 'secret' },
  { glob: '.cqlsh_history', what: 'Cassandra shell history', class: 'secret' },
  { glob: '.psql_history', what: 'psql history', class: 'secret' },
  { glob: '.mysql_history', what: 'MySQL client history', class: 'secret' },
  { glob: '.sqlite_history', what: 'SQLite shell history', class: 'secret' },
  { glob: '.rediscli_history', what: 'redis-cli history', class: 'secret' },
  { glob: '.python_history', what: 'Python REPL history', class: 'secret' },
  { glob: '.node_repl_history', what: 'Node REPL history', class: 'secret' },
  { glob: '.irb_history', what: 'Ruby REPL history', class: 'secret' },
  { glob: '.dbshell', what: 'MongoDB shell history', class: 'secret' },
  { glob: '.mongosh', what: 'MongoDB shell history', class: 'secret' },
  // --- secrets: files that hold them by convention, in any directory
  { glob: '.env', what: 'an environment file (usually secrets)', class: 'secret' },
  {
    glob: '.env.!(example|sample|template|dist|defaults)',
    what: 'an environment file (usually secrets)',
    class: 'secret',
  },
  { glob: '*.env', what: 'an environment file (usually secrets)', class: 'secret' },
  { glob: '.envrc', what: 'a direnv file (usually secrets)', class: 'secret' },
  { glob: 'id_{rsa,dsa,ecdsa,ed25519,xmss}{,_sk}', what: 'a private SSH key', class: 'secret' },
  // `.pem` also holds public certificates: it is secret by content (SECRET_CONTENT), not by name.
  { glob: '*.{key,p12,pfx,keystore,jks,ppk,p8,kdbx,bks}', what: 'a private key or key store', class: 'secret' },
  { glob: '*.{tfvars,tfvars.json}', what: 'Terraform variables (usually passwords and keys)', class: 'secret' },
  { glob: '.vault{_,-}pass{,word}{,.txt}', what: 'an Ansible vault password', class: 'secret' },
  { glob: '*.keytab', what: 'a Kerberos keytab', class: 'secret' },
  { glob: '{.,}credentials{,.json,.toml,.yml,.yaml}', what: 'credentials', class: 'secret', fileOnly: true },
  { glob: '*service-account*.json', what: 'a cloud service-account key', class: 'secret' },
  { glob: 'secrets.{yml,yaml,json,toml}', what: 'secrets', class: 'secret' },
  { glob: '.vault-token', what: 'a HashiCorp Vault token', class: 'secret' },
  { glob: '.htpasswd', what: 'password hashes', class: 'secret' },
  { glob: '.dev.vars', what: 'local secrets of a Cloudflare Worker (wrangler)', class: 'secret' },
  { glob: '.gitcookies', what: 'git HTTP cookies (logged-in sessions)', class: 'secret' },
  { glob: '.dockercfg', what: 'Docker registry credentials (old format)', class: 'secret' },
  // Credential stores of applications that a project checkout or a copied home may carry (red team, round 3).
  { glob: '.fetchmailrc', what: 'saved mail passwords (fetchmail)', class: 'secret' },
  { glob: '.lftprc', what: 'FTP settings with passwords (lftp)', class: 'secret' },
  { glob: '{.,}lftp/bookmarks', what: 'saved FTP logins (lftp bookmarks)', class: 'secret' },
  { glob: '.ftpconfig', what: 'saved FTP logins (remote-ftp)', class: 'secret' },
  { glob: 'rclone.conf', what: 'cloud storage credentials (rclone)', class: 'secret' },
  { glob: '.dbeaver/credentials-config.json', what: 'saved database passwords (DBeaver)', class: 'secret' },
  { glob: 'pgadmin4.db', what: 'saved database passwords (pgAdmin)', class: 'secret' },
  { glob: '.subversion/auth', what: 'saved Subversion passwords', class: 'secret' },
  { glob: 'kaggle.json', what: 'a Kaggle API key', class: 'secret' },
  { glob: '{access_tokens,credentials}.db', what: 'cloud CLI tokens (gcloud)', class: 'secret', fileOnly: true },
  { glob: '.databrickscfg', what: 'a Databricks token', class: 'secret' },
  { glob: '.s3cfg', what: 'S3 keys (s3cmd)', class: 'secret' },
  { glob: '.boto', what: 'cloud storage keys (boto, gsutil)', class: 'secret' },
  { glob: '.pypirc', what: 'a PyPI token', class: 'secret' },
  { glob: '.terraformrc', what: 'Terraform Cloud tokens', class: 'secret' },
  { glob: 'terraform.tfstate{,.backup}', what: 'Terraform state (holds resource passwords and keys)', class: 'secret' },
  { glob: '.jenkins/secrets', what: "Jenkins' master key and secrets", class: 'secret' },
  { glob: 'credentials.xml', what: 'saved Jenkins credentials', class: 'secret' },
  { glob: 'sftp-config.json', what: 'saved SFTP logins (Sublime SFTP)', class: 'secret' },
  { glob: '.vscode/sftp.json', what: 'saved SFTP logins (VS Code SFTP)', class: 'secret' },
  { glob: 'WinSCP.ini', what: 'saved WinSCP passwords', class: 'secret' },
  { glob: '*.remmina', what: 'saved remote desktop passwords (Remmina)', class: 'secret' },
  // --- secrets: system
  { glob: '/etc/{shadow,gshadow}{,-}', what: 'system password hashes', class: 'secret' },
  { glob: '/etc/{security/opasswd,master.passwd,spwd.db}', what: 'system password hashes', class: 'secret' },
  { glob: '/etc/krb5.keytab', what: 'a Kerberos keytab', class: 'secret' },
  { glob: '/tmp/krb5cc_*', what: 'Kerberos tickets', class: 'secret' },
  { glob: '/etc/mysql/debian.cnf', what: 'the MySQL maintenance password', class: 'secret' },
  { glob: '/etc/NetworkManager/system-connections', what: 'saved Wi-Fi and VPN passwords', class: 'secret' },
  { glob: '/etc/wireguard', what: 'WireGuard private keys', class: 'secret' },
  { glob: '/etc/ppp/{chap,pap}-secrets', what: 'PPP passwords', class: 'secret' },
  { glob: '/etc/{ipsec.secrets,ipsec.d/private}', what: 'IPsec keys', class: 'secret' },
  { glob: '/etc/pki/tls/private', what: 'TLS private keys', class: 'secret' },
  { glob: '/etc/letsencrypt/{live,archive,accounts}', what: "Let's Encrypt private keys", class: 'secret' },
  { glob: '/etc/kubernetes/{*.conf,pki}', what: 'Kubernetes cluster credentials', class: 'secret' },
  { glob: '/etc/rancher', what: 'Kubernetes (k3s, rke2) cluster credentials', class: 'secret' },
  {
    glob: '/var/lib/rancher/{k3s,rke2}/server/{token,cred,tls}',
    what: 'Kubernetes (k3s) cluster credentials',
    class: 'secret',
  },
  { glob: '/var/lib/kubelet/pki', what: 'Kubernetes node credentials', class: 'secret' },
  { glob: '/etc/ssh/ssh_host_*', what: "the machine's SSH host keys", class: 'secret' },
  { glob: '/etc/ssl/private', what: 'TLS private keys', class: 'secret' },
  // Network and VPN credentials kept by the system.
  { glob: '/etc/wpa_supplicant', what: 'Wi-Fi passwords', class: 'secret' },
  { glob: '/etc/NetworkManager/system-connections', what: 'saved network passwords', class: 'secret' },
  { glob: '/etc/ppp/{chap,pap}-secrets', what: 'dial-up passwords', class: 'secret' },
  { glob: '/etc/ipsec.secrets', what: 'IPsec keys', class: 'secret' },
  { glob: '/etc/wireguard', what: 'WireGuard keys', class: 'secret' },
  { glob: '/etc/openvpn/**/*.{key,conf,ovpn}', what: 'OpenVPN keys and credentials', class: 'secret' },
  { glob: '/etc/mysql/debian.cnf', what: "the MySQL maintenance user's password", class: 'secret' },
  {
    glob: '/etc/kubernetes/{admin,kubelet,controller-manager,scheduler}.conf',
    what: 'Kubernetes cluster credentials',
    class: 'secret',
  },
  { glob: '/etc/rancher/k3s/k3s.yaml', what: 'Kubernetes cluster credentials', class: 'secret' },
  { glob: '/etc/letsencrypt/{live,archive,keys}', what: 'TLS private keys', class: 'secret' },
  { glob: '/etc/sudoers', what: 'sudo configuration', class: 'secret' },
  { glob: '/etc/sudoers.d', what: 'sudo configuration', class: 'secret' },
  { glob: '/root', what: "root's home directory", class: 'secret' },
  { glob: '/run/secrets', what: 'mounted container secrets', class: 'secret' },
  { glob: '/var/run/secrets', what: 'mounted container and Kubernetes secrets', class: 'secret' },
  { glob: '/{var/,}run/credentials', what: 'systemd credentials', class: 'secret' },
  { glob: '/var/lib/postgresql/**/pg_hba.conf', what: 'database access rules', class: 'secret' },
  // A process's environment holds its secrets (riskgate's API key, tokens).
  { glob: '/proc/*/environ', what: "a process's environment (secrets)", class: 'secret' },
  { glob: '/proc/*/task/*/environ', what: "a process's environment (secrets)", class: 'secret' },
  { glob: '/proc/*/{mem,cmdline,auxv}', what: "another process's memory or arguments", class: 'secret' },
  { glob: '/proc/*/task/*/{mem,cmdline}', what: "another process's memory or arguments", class: 'secret' },
  // Another view of the whole filesystem, or of a process's open files: reaches every secret.
  {
    glob: '/proc/*/{root,cwd,fd,map_files}',
    what: "a process's root, working directory or open files (reaches secrets)",
    class: 'secret',
  },
  {
    glob: '/proc/*/task/*/{root,cwd,fd}',
    what: "a process's root, working directory or open files (reaches secrets)",
    class: 'secret',
  },
  // Keystrokes, camera and microphone: what the person types or says.
  { glob: '/dev/{input,hidraw*,uhid}', what: 'keyboard and mouse input (keystrokes)', class: 'secret' },
  { glob: '/dev/{video*,media*}', what: 'a camera', class: 'secret' },
  { glob: '/dev/snd', what: 'sound devices (a microphone)', class: 'secret' },
  // --- raw devices and kernel memory
  { glob: '/dev/{mem,kmem,port}', what: 'physical memory', class: 'raw' },
  { glob: '/proc/kcore', what: 'kernel memory', class: 'raw' },
  { glob: '/dev/{sd,hd,vd,xvd,nvme,mmcblk,dm-,loop,md,sr,nbd}*', what: 'a raw disk', class: 'raw' },
  { glob: '/dev/{mapper,disk}', what: 'raw disks', class: 'raw' },
  // Opening it arms the hardware watchdog: unless fed, the machine reboots.
  { glob: '/dev/watchdog*', what: 'the hardware watchdog (opening it can reboot the machine)', class: 'raw' },
  // --- reads that never end or wait for input
  {
    glob: '/dev/{zero,random,urandom,full,tty,console,ptmx,stdin}',
    what: 'a device that never ends or waits for input',
    class: 'endless',
  },
  { glob: '/dev/{tty,pts/,vcs}*', what: 'a terminal device', class: 'endless' },
  { glob: '/dev/fd/0', what: 'standard input', class: 'endless' },
  { glob: '/proc/*/fd/0', what: 'standard input', class: 'endless' },
  { glob: '/{proc,dev}/kmsg', what: 'the kernel log stream, which waits for new lines', class: 'endless' },
  // --- writes that change how the machine, the shell or a tool behaves
  {
    glob: '/{etc,usr,bin,sbin,lib,lib32,lib64,libx32,boot,sys,proc,opt,srv,var/spool,var/lib}',
    what: 'a system path',
    class: 'machine',
  },
  { glob: '/dev/!(null|stdout|stderr)', what: 'a device', class: 'machine' },
  {
    glob: '~/.{bashrc,bash_profile,bash_login,bash_logout,profile,zshrc,zprofile,zshenv,zlogin,zlogout,kshrc,cshrc,tcshrc,inputrc}',
    what: 'a shell start-up file (runs in every new shell)',
    class: 'machine',
  },
  { glob: '~/.config/fish', what: 'fish start-up files (run in every new shell)', class: 'machine' },
  { glob: '~/.config/autostart', what: 'programs started at login', class: 'machine' },
  { glob: '~/.config/systemd', what: 'user services', class: 'machine' },
  { glob: '~/.local/bin', what: 'programs on the PATH', class: 'machine' },
  { glob: '~/bin', what: 'programs on the PATH', class: 'machine' },
  { glob: '~/.gitconfig', what: 'git configuration (can run programs)', class: 'machine' },
  { glob: '~/.config/git', what: 'git configuration (can run programs)', class: 'machine' },
  { glob: '.git/{config,hooks}', what: "a repository's configuration and hooks (can run programs)", class: 'machine' },
  { glob: '.gitmodules', what: 'submodule configuration (can fetch and run code)', class: 'machine' },
  { glob: '.riskgate', what: "riskgate's project configuration (changes the gate)", class: 'machine' },
  { glob: '~/.npmrc', what: 'npm configuration', class: 'machine' },
  { glob: '~/.pip', what: 'pip configuration', class: 'machine' },
  { glob: '~/.config/pip', what: 'pip configuration', class: 'machine' },
  { glob: 'crontab', what: 'scheduled jobs', class: 'machine' },
  { glob: '/var/spool/cron', what: 'scheduled jobs', class: 'machine' },
  { glob: '~/.vimrc', what: 'an editor start-up file (runs code)', class: 'machine' },
  { glob: '~/.config/nvim', what: 'an editor start-up file (runs code)', class: 'machine' },
  { glob: '~/.emacs{,.d}', what: 'an editor start-up file (runs code)', class: 'machine' },
];

/** Files that are secret only when their content says so (a registry token inside). */
export const SECRET_WHEN_CONTENT: readonly {
  readonly glob: string;
  readonly content: RegExp;
  readonly what: string;
}[] = [
  { glob: '.npmrc', content: /(_authToken|_auth\b|_password|password|token)\s*[=:]/i, what: 'a registry token' },
  { glob: '.pypirc', content: /password\s*[=:]/i, what: 'a registry password' },
  { glob: '.yarnrc{,.yml}', content: /(npmAuthToken|npmAuthIdent|_authToken)/i, what: 'a registry token' },
  { glob: '.docker/config.json', content: /"auth"\s*:/, what: 'Docker registry credentials' },
  { glob: 'settings.xml', content: /<password>/i, what: 'repository passwords' },
  // Public certificates are fine to read; a .pem that mentions a private key is one.
  { glob: '*.pem', content: /PRIVATE KEY/, what: 'a private key' },
  { glob: '*.conf', content: /^\s*PrivateKey\s*=\s*[A-Za-z0-9+/]{42,44}/m, what: 'a WireGuard private key' },
];

/**
 * Content that is a secret whatever the file is called: a private key renamed `backup.txt`,
 * a service-account key, a keytab.
 */
export const SECRET_CONTENT: readonly (readonly [RegExp, string])[] = [
  // The header alone is prose or an example; a key has encoded lines after it (maybe after
  // `Proc-Type:`/`Version:` headers): a long one, or short ones up to the END line.
  [
    /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----\r?\n(?:[A-Za-z-]+: .*\r?\n)*\s*(?:[A-Za-z0-9+/=]{40,}|[A-Za-z0-9+/=\s]*-----END )/,
    'a private key',
  ],
  [/AGE-SECRET-KEY-1[0-9A-Z]{50,}/, 'an age secret key'],
  [/PuTTY-User-Key-File-\d/, 'a private key (PuTTY)'],
  [/"private_key"\s*:\s*"-----BEGIN/, 'a service-account private key'],
  // With a value: a README that says `set AWS_SECRET_ACCESS_KEY=…` is not a credential.
  [/aws_secret_access_key\s*[=:]\s*["']?[A-Za-z0-9/+]{40}\b/i, 'AWS credentials'],
  [/\bAKIA[0-9A-Z]{16}\b[\s\S]{0,200}\b[A-Za-z0-9/+=]{40}\b/, 'AWS credentials'],
];
