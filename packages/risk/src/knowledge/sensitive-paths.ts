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
  /**
   * Paths the row covers, as a person writes them (`~/` the home, `/` absolute, anything else
   * relative to a workspace): each gets this row's class and `what` from the knowledge base's
   * lookup (`pathFacts`, the judge's). Every row has at least one; test/path-row-examples.test.ts
   * checks them all.
   */
  readonly match: readonly string[];
  /**
   * Paths the row must not cover, where its meaning has an edge: a public key beside the private
   * ones, a file-only row's directory, a look-alike name, a name outside the home.
   */
  readonly notMatch?: readonly string[];
}

export const SENSITIVE_PATHS: readonly PathRow[] = [
  // --- secrets: keys and credential stores in the home directory
  // Public keys and known hosts are made to be shared (home-allowlist.ts lets them be read).
  {
    glob: '~/.ssh/!(*.pub|known_hosts|known_hosts.old)',
    what: 'SSH keys and configuration',
    class: 'secret',
    match: ['~/.ssh/id_rsa'],
    notMatch: ['~/.ssh/id_ed25519.pub', '~/.ssh/known_hosts'],
  },
  {
    glob: '~/.aws',
    what: 'AWS credentials',
    class: 'secret',
    match: ['~/.aws/credentials', '~/.aws'],
    notMatch: ['~/.aws-notes.txt'],
  },
  { glob: '~/.azure', what: 'Azure credentials', class: 'secret', match: ['~/.azure/msal_token_cache.json'] },
  {
    glob: '~/.config/gcloud',
    what: 'Google Cloud credentials',
    class: 'secret',
    match: ['~/.config/gcloud/application_default_credentials.json'],
  },
  { glob: '~/.oci', what: 'Oracle Cloud credentials', class: 'secret', match: ['~/.oci', '~/.oci/x'] },
  { glob: '~/.kube', what: 'Kubernetes credentials', class: 'secret', match: ['~/.kube/config'] },
  {
    glob: '~/.docker/config.json',
    what: 'Docker registry credentials',
    class: 'secret',
    match: ['~/.docker/config.json'],
  },
  { glob: '~/.gnupg', what: 'GnuPG keys', class: 'secret', match: ['~/.gnupg/private-keys-v1.d/x.key', '~/.gnupg'] },
  { glob: '~/.password-store', what: 'a password store', class: 'secret', match: ['~/.password-store/email.gpg'] },
  {
    glob: '~/.local/share/keyrings',
    what: 'desktop keyrings',
    class: 'secret',
    match: ['~/.local/share/keyrings', '~/.local/share/keyrings/x'],
  },
  { glob: '~/.config/gh/hosts.yml', what: 'a GitHub CLI token', class: 'secret', match: ['~/.config/gh/hosts.yml'] },
  { glob: '~/.config/hub', what: 'a GitHub token (hub)', class: 'secret', match: ['~/.config/hub', '~/.config/hub/x'] },
  {
    glob: '~/.config/glab-cli',
    what: 'a GitLab CLI token',
    class: 'secret',
    match: ['~/.config/glab-cli', '~/.config/glab-cli/x'],
  },
  { glob: '~/.vault-token', what: 'a HashiCorp Vault token', class: 'secret', match: ['~/.vault-token'] },
  {
    glob: '~/.terraform.d/credentials.tfrc.json',
    what: 'Terraform Cloud credentials',
    class: 'secret',
    match: ['~/.terraform.d/credentials.tfrc.json'],
  },
  { glob: '~/.terraformrc', what: 'Terraform CLI credentials', class: 'secret', match: ['~/.terraformrc'] },
  { glob: 'terraform.rc', what: 'Terraform CLI credentials', class: 'secret', match: ['terraform.rc'] },
  {
    glob: '*.tfstate',
    what: 'Terraform state, which stores secrets in plain text',
    class: 'secret',
    match: ['x.tfstate'],
    notMatch: ['main.tf'],
  },
  {
    glob: '*.tfstate.backup',
    what: 'Terraform state, which stores secrets in plain text',
    class: 'secret',
    match: ['x.tfstate.backup'],
  },
  { glob: '~/.cargo/credentials', what: 'a crates.io token', class: 'secret', match: ['~/.cargo/credentials'] },
  {
    glob: '~/.cargo/credentials.toml',
    what: 'a crates.io token',
    class: 'secret',
    match: ['~/.cargo/credentials.toml'],
  },
  { glob: '~/.gem/credentials', what: 'a RubyGems API key', class: 'secret', match: ['~/.gem/credentials'] },
  {
    glob: '~/.pulumi/credentials.json',
    what: 'Pulumi access tokens',
    class: 'secret',
    match: ['~/.pulumi/credentials.json'],
  },
  { glob: '~/.databrickscfg', what: 'Databricks tokens', class: 'secret', match: ['~/.databrickscfg'] },
  { glob: '~/.s3cfg', what: 's3cmd credentials', class: 'secret', match: ['~/.s3cfg'] },
  { glob: '~/.boto', what: 'boto (AWS/GCS) credentials', class: 'secret', match: ['~/.boto'] },
  { glob: '/etc/boto.cfg', what: 'boto (AWS/GCS) credentials', class: 'secret', match: ['/etc/boto.cfg'] },
  {
    glob: '~/.config/rclone/rclone.conf',
    what: 'rclone remote credentials',
    class: 'secret',
    match: ['~/.config/rclone/rclone.conf'],
  },
  { glob: '~/.m2/settings.xml', what: 'Maven repository credentials', class: 'secret', match: ['~/.m2/settings.xml'] },
  {
    glob: '~/.m2/settings-security.xml',
    what: 'the Maven master password',
    class: 'secret',
    match: ['~/.m2/settings-security.xml'],
  },
  { glob: '~/.config/doctl', what: 'a DigitalOcean token', class: 'secret', match: ['~/.config/doctl/config.yaml'] },
  {
    glob: '~/.config/openstack',
    what: 'OpenStack credentials',
    class: 'secret',
    match: ['~/.config/openstack', '~/.config/openstack/x'],
  },
  { glob: 'clouds.yaml', what: 'OpenStack credentials', class: 'secret', match: ['clouds.yaml'] },
  {
    glob: '~/.config/heroku',
    what: 'Heroku credentials',
    class: 'secret',
    match: ['~/.config/heroku', '~/.config/heroku/x'],
  },
  {
    glob: '~/.config/containers/auth.json',
    what: 'container registry credentials (podman, buildah)',
    class: 'secret',
    match: ['~/.config/containers/auth.json'],
  },
  {
    glob: '/run/{user/*/,}containers/auth.json',
    what: 'container registry credentials (podman, buildah)',
    class: 'secret',
    match: ['/run/user/x/containers/auth.json'],
  },
  {
    glob: '~/.{composer,config/composer}/auth.json',
    what: 'Composer repository tokens',
    class: 'secret',
    match: ['~/.composer/auth.json', '~/.config/composer/auth.json'],
  },
  {
    glob: '~/.gradle/gradle.properties',
    what: 'Gradle properties (signing and repository passwords)',
    class: 'secret',
    match: ['~/.gradle/gradle.properties'],
  },
  {
    glob: '~/.config/sops/age/keys.txt',
    what: 'age secret keys (sops)',
    class: 'secret',
    match: ['~/.config/sops/age/keys.txt'],
  },
  {
    glob: '~/.{ngrok2,config/ngrok}',
    what: 'an ngrok auth token',
    class: 'secret',
    match: ['~/.config/ngrok/ngrok.yml'],
  },
  { glob: '~/.fly', what: 'a Fly.io access token', class: 'secret', match: ['~/.fly/config.yml'] },
  {
    glob: '~/.config/configstore/firebase-tools.json',
    what: 'a Firebase CLI token',
    class: 'secret',
    match: ['~/.config/configstore/firebase-tools.json'],
  },
  {
    glob: '~/.{wrangler,config/.wrangler}/config',
    what: 'a Cloudflare (wrangler) token',
    class: 'secret',
    match: ['~/.wrangler/config/default.toml'],
  },
  {
    glob: '~/.cloudflared',
    what: 'Cloudflare tunnel credentials',
    class: 'secret',
    match: ['~/.cloudflared', '~/.cloudflared/x'],
  },
  { glob: '~/.config/hcloud', what: 'a Hetzner Cloud token', class: 'secret', match: ['~/.config/hcloud/cli.toml'] },
  { glob: '~/.circleci/cli.yml', what: 'a CircleCI token', class: 'secret', match: ['~/.circleci/cli.yml'] },
  { glob: '~/.travis/config.yml', what: 'a Travis CI token', class: 'secret', match: ['~/.travis/config.yml'] },
  { glob: '~/.snowsql/config', what: 'Snowflake (SnowSQL) credentials', class: 'secret', match: ['~/.snowsql/config'] },
  {
    glob: '~/.snowflake/{connections,config}.toml',
    what: 'Snowflake credentials',
    class: 'secret',
    match: ['~/.snowflake/connections.toml'],
  },
  { glob: '~/.dbt/profiles.yml', what: 'dbt database credentials', class: 'secret', match: ['~/.dbt/profiles.yml'] },
  { glob: '~/.{mc,mcli}/config.json', what: 'MinIO client credentials', class: 'secret', match: ['~/.mc/config.json'] },
  {
    glob: '~/.config/filezilla/{sitemanager,recentservers}.xml',
    what: 'saved FileZilla passwords',
    class: 'secret',
    match: ['~/.config/filezilla/sitemanager.xml'],
  },
  {
    glob: '~/.local/share/com.vercel.cli/auth.json',
    what: 'a Vercel token',
    class: 'secret',
    match: ['~/.local/share/com.vercel.cli/auth.json'],
  },
  {
    glob: '~/.config/netlify/config.json',
    what: 'a Netlify token',
    class: 'secret',
    match: ['~/.config/netlify/config.json'],
  },
  { glob: '~/.config/op', what: '1Password CLI sessions', class: 'secret', match: ['~/.config/op', '~/.config/op/x'] },
  {
    glob: '~/.config/linode-cli',
    what: 'a Linode token',
    class: 'secret',
    match: ['~/.config/linode-cli', '~/.config/linode-cli/x'],
  },
  { glob: '~/.config/scw', what: 'Scaleway credentials', class: 'secret', match: ['~/.config/scw', '~/.config/scw/x'] },
  { glob: '~/.aliyun', what: 'Alibaba Cloud credentials', class: 'secret', match: ['~/.aliyun', '~/.aliyun/x'] },
  { glob: '~/.tccli', what: 'Tencent Cloud credentials', class: 'secret', match: ['~/.tccli', '~/.tccli/x'] },
  { glob: '~/.bluemix', what: 'IBM Cloud tokens', class: 'secret', match: ['~/.bluemix', '~/.bluemix/x'] },
  { glob: '~/.tsh', what: 'Teleport certificates and keys', class: 'secret', match: ['~/.tsh', '~/.tsh/x'] },
  {
    glob: '~/.config/stripe/config.toml',
    what: 'Stripe CLI keys',
    class: 'secret',
    match: ['~/.config/stripe/config.toml'],
  },
  { glob: '~/.supabase/access-token', what: 'a Supabase token', class: 'secret', match: ['~/.supabase/access-token'] },
  {
    glob: '~/.mysqlsh',
    what: 'MySQL Shell saved passwords and history',
    class: 'secret',
    match: ['~/.mysqlsh', '~/.mysqlsh/x'],
  },
  {
    glob: '~/.purple/accounts.xml',
    what: 'saved chat passwords (Pidgin)',
    class: 'secret',
    match: ['~/.purple/accounts.xml'],
  },
  {
    glob: '~/.thunderbird/*/{logins.json,key4.db}',
    what: 'saved mail passwords',
    class: 'secret',
    match: ['~/.thunderbird/x/logins.json'],
  },
  { glob: '~/.netrc', what: 'saved logins (netrc)', class: 'secret', match: ['~/.netrc'] },
  {
    glob: '.netrc',
    what: 'saved logins (netrc)',
    class: 'secret',
    match: ['.netrc', '~/.netrc'],
    notMatch: ['netrc.md'],
  },
  { glob: '_netrc', what: 'saved logins (netrc)', class: 'secret', match: ['_netrc'] },
  { glob: '.authinfo', what: 'saved logins (authinfo)', class: 'secret', match: ['.authinfo'] },
  { glob: '.authinfo.gpg', what: 'saved logins (authinfo)', class: 'secret', match: ['.authinfo.gpg'] },
  {
    glob: '.git-credentials',
    what: 'saved git passwords',
    class: 'secret',
    match: ['.git-credentials', '~/.git-credentials'],
  },
  {
    glob: '~/.config/git/credentials',
    what: 'saved git passwords',
    class: 'secret',
    match: ['~/.config/git/credentials'],
  },
  { glob: '.pgpass', what: 'saved PostgreSQL passwords', class: 'secret', match: ['.pgpass', '~/.pgpass'] },
  {
    // psql's service file: its sections may carry password= (riskgate reads it for its own connection only).
    glob: '.pg_service.conf',
    what: 'PostgreSQL service definitions (they may hold passwords)',
    class: 'secret',
    match: ['.pg_service.conf', '~/.pg_service.conf'],
  },
  { glob: '.my.cnf', what: 'a saved MySQL password', class: 'secret', match: ['.my.cnf', '~/.my.cnf'] },
  { glob: '.mylogin.cnf', what: 'saved MySQL logins', class: 'secret', match: ['.mylogin.cnf'] },
  {
    glob: '~/.mozilla/firefox/*/logins.json',
    what: 'saved browser passwords',
    class: 'secret',
    match: ['~/.mozilla/firefox/x/logins.json'],
  },
  {
    glob: '~/.mozilla/firefox/*/key4.db',
    what: 'the browser password key',
    class: 'secret',
    match: ['~/.mozilla/firefox/x/key4.db'],
  },
  {
    glob: '~/.mozilla/firefox/*/cookies.sqlite',
    what: 'browser cookies',
    class: 'secret',
    match: ['~/.mozilla/firefox/x/cookies.sqlite'],
  },
  {
    glob: '~/.config/{google-chrome,chromium,BraveSoftware}/**/{Login Data,Cookies}',
    what: 'browser passwords and cookies',
    class: 'secret',
    match: ['~/.config/google-chrome/a/Login Data'],
  },
  // riskgate's own configuration holds the person's API key.
  {
    glob: '~/.config/riskgate',
    what: "riskgate's own configuration (API key)",
    class: 'secret',
    match: ['~/.config/riskgate/config.json'],
  },
  // riskgate's copies for /undo: the bytes of files calls changed, a .env or a key among them
  // (its default state directory; the copies are 0600 in 0700 folders as well).
  {
    glob: '~/.local/state/riskgate/checkpoints',
    what: "riskgate's copies of changed files for /undo, secrets among them",
    class: 'secret',
    match: ['~/.local/state/riskgate/checkpoints/0123456789abcdef/blobs/ab12cd'],
    notMatch: ['~/.local/state/riskgate/audit.jsonl'],
  },
  // --- secrets: shell and client histories (typed passwords, tokens on command lines)
  { glob: '.bash_history', what: 'shell history', class: 'secret', match: ['.bash_history', '~/.bash_history'] },
  { glob: '.zsh_history', what: 'shell history', class: 'secret', match: ['.zsh_history', '~/.zsh_history'] },
  { glob: '.zhistory', what: 'shell history', class: 'secret', match: ['.zhistory'] },
  { glob: '.sh_history', what: 'shell history', class: 'secret', match: ['.sh_history'] },
  { glob: '.history', what: 'shell history', class: 'secret', match: ['.history'] },
  {
    glob: '.histfile',
    what: 'shell history (a common zsh HISTFILE)',
    class: 'secret',
    match: ['.histfile', '~/.histfile'],
  },
  { glob: '.{ash,ksh}_history', what: 'shell history', class: 'secret', match: ['.ash_history'] },
  {
    glob: '~/.{local/share,config}/fish/fish_history',
    what: 'shell history',
    class: 'secret',
    match: ['~/.local/share/fish/fish_history', '~/.config/fish/fish_history'],
  },
  { glob: '.lesshst', what: 'less search history', class: 'secret', match: ['.lesshst', '~/.lesshst'] },
  {
    glob: '.{duckdb,influx,sqlcmd}_history',
    what: 'database client history',
    class: 'secret',
    match: ['.duckdb_history'],
  },
  { glob: '.cqlsh_history', what: 'Cassandra shell history', class: 'secret', match: ['.cqlsh_history'] },
  { glob: '.psql_history', what: 'psql history', class: 'secret', match: ['.psql_history', '~/.psql_history'] },
  {
    glob: '.mysql_history',
    what: 'MySQL client history',
    class: 'secret',
    match: ['.mysql_history', '~/.mysql_history'],
  },
  {
    glob: '.sqlite_history',
    what: 'SQLite shell history',
    class: 'secret',
    match: ['.sqlite_history', '~/.sqlite_history'],
  },
  {
    glob: '.rediscli_history',
    what: 'redis-cli history',
    class: 'secret',
    match: ['.rediscli_history', '~/.rediscli_history'],
  },
  {
    glob: '.python_history',
    what: 'Python REPL history',
    class: 'secret',
    match: ['.python_history', '~/.python_history'],
  },
  {
    glob: '.node_repl_history',
    what: 'Node REPL history',
    class: 'secret',
    match: ['.node_repl_history', '~/.node_repl_history'],
  },
  { glob: '.irb_history', what: 'Ruby REPL history', class: 'secret', match: ['.irb_history'] },
  { glob: '.dbshell', what: 'MongoDB shell history', class: 'secret', match: ['.dbshell'] },
  {
    glob: '.mongosh',
    what: 'MongoDB shell history',
    class: 'secret',
    match: ['.mongosh', '~/.mongosh/mongosh_repl_history'],
  },
  // --- secrets: files that hold them by convention, in any directory
  {
    glob: '.env',
    what: 'an environment file (usually secrets)',
    class: 'secret',
    match: ['.env'],
    notMatch: ['.env.example', 'src/env.ts'],
  },
  {
    glob: '.env.!(example|sample|template|dist|defaults)',
    what: 'an environment file (usually secrets)',
    class: 'secret',
    match: ['.env.private'],
    notMatch: ['.env.example', '.env.sample'],
  },
  {
    glob: '*.env',
    what: 'an environment file (usually secrets)',
    class: 'secret',
    match: ['x.env'],
    notMatch: ['.envrc.example'],
  },
  { glob: '.envrc', what: 'a direnv file (usually secrets)', class: 'secret', match: ['.envrc'] },
  {
    glob: 'id_{rsa,dsa,ecdsa,ed25519,xmss}{,_sk}',
    what: 'a private SSH key',
    class: 'secret',
    match: ['id_rsa', '~/.ssh/id_rsa'],
    notMatch: ['~/.ssh/id_rsa.pub'],
  },
  // `.pem` also holds public certificates: it is secret by content (SECRET_CONTENT), not by name.
  {
    glob: '*.{key,p12,pfx,keystore,jks,ppk,p8,kdbx,bks}',
    what: 'a private key or key store',
    class: 'secret',
    match: ['x.key', '~/.gnupg/private-keys-v1.d/x.key'],
    notMatch: ['src/key.ts', 'docs/keys.md'],
  },
  {
    glob: '*.{tfvars,tfvars.json}',
    what: 'Terraform variables (usually passwords and keys)',
    class: 'secret',
    match: ['x.tfvars'],
  },
  {
    glob: '.vault{_,-}pass{,word}{,.txt}',
    what: 'an Ansible vault password',
    class: 'secret',
    match: ['.vault_pass', '~/.vault_pass.txt'],
  },
  { glob: '*.keytab', what: 'a Kerberos keytab', class: 'secret', match: ['x.keytab', '/etc/krb5.keytab'] },
  {
    glob: '{.,}credentials{,.json,.toml,.yml,.yaml}',
    what: 'credentials',
    class: 'secret',
    fileOnly: true,
    match: ['.credentials', '~/.cargo/credentials.toml'],
    notMatch: ['src/credentials/index.ts'],
  },
  {
    glob: '*service-account*.json',
    what: 'a cloud service-account key',
    class: 'secret',
    match: ['xservice-accountx.json'],
    notMatch: ['service-account.md'],
  },
  {
    glob: 'secrets.{yml,yaml,json,toml}',
    what: 'secrets',
    class: 'secret',
    match: ['secrets.yml'],
    notMatch: ['docs/secrets.md'],
  },
  { glob: '.vault-token', what: 'a HashiCorp Vault token', class: 'secret', match: ['.vault-token', '~/.vault-token'] },
  { glob: '.htpasswd', what: 'password hashes', class: 'secret', match: ['.htpasswd'] },
  { glob: '.dev.vars', what: 'local secrets of a Cloudflare Worker (wrangler)', class: 'secret', match: ['.dev.vars'] },
  { glob: '.gitcookies', what: 'git HTTP cookies (logged-in sessions)', class: 'secret', match: ['.gitcookies'] },
  { glob: '.dockercfg', what: 'Docker registry credentials (old format)', class: 'secret', match: ['.dockercfg'] },
  // Credential stores of applications that a project checkout or a copied home may carry (red team, round 3).
  { glob: '.fetchmailrc', what: 'saved mail passwords (fetchmail)', class: 'secret', match: ['.fetchmailrc'] },
  { glob: '.lftprc', what: 'FTP settings with passwords (lftp)', class: 'secret', match: ['.lftprc'] },
  {
    glob: '{.,}lftp/bookmarks',
    what: 'saved FTP logins (lftp bookmarks)',
    class: 'secret',
    match: ['.lftp/bookmarks'],
  },
  { glob: '.ftpconfig', what: 'saved FTP logins (remote-ftp)', class: 'secret', match: ['.ftpconfig'] },
  {
    glob: 'rclone.conf',
    what: 'cloud storage credentials (rclone)',
    class: 'secret',
    match: ['rclone.conf', '~/.config/rclone/rclone.conf'],
  },
  {
    glob: '.dbeaver/credentials-config.json',
    what: 'saved database passwords (DBeaver)',
    class: 'secret',
    match: ['.dbeaver/credentials-config.json'],
  },
  { glob: 'pgadmin4.db', what: 'saved database passwords (pgAdmin)', class: 'secret', match: ['pgadmin4.db'] },
  {
    glob: '.subversion/auth',
    what: 'saved Subversion passwords',
    class: 'secret',
    match: ['.subversion/auth', '.subversion/auth/x'],
  },
  { glob: 'kaggle.json', what: 'a Kaggle API key', class: 'secret', match: ['kaggle.json'] },
  {
    glob: '{access_tokens,credentials}.db',
    what: 'cloud CLI tokens (gcloud)',
    class: 'secret',
    fileOnly: true,
    match: ['access_tokens.db'],
    notMatch: ['access_tokens.db/README.md'],
  },
  {
    glob: '.databrickscfg',
    what: 'a Databricks token',
    class: 'secret',
    match: ['.databrickscfg', '~/.databrickscfg'],
  },
  { glob: '.s3cfg', what: 'S3 keys (s3cmd)', class: 'secret', match: ['.s3cfg', '~/.s3cfg'] },
  { glob: '.boto', what: 'cloud storage keys (boto, gsutil)', class: 'secret', match: ['.boto', '~/.boto'] },
  { glob: '.pypirc', what: 'a PyPI token', class: 'secret', match: ['.pypirc', '~/.pypirc'] },
  { glob: '.terraformrc', what: 'Terraform Cloud tokens', class: 'secret', match: ['.terraformrc', '~/.terraformrc'] },
  {
    glob: 'terraform.tfstate{,.backup}',
    what: 'Terraform state (holds resource passwords and keys)',
    class: 'secret',
    match: ['terraform.tfstate'],
  },
  {
    glob: '.jenkins/secrets',
    what: "Jenkins' master key and secrets",
    class: 'secret',
    match: ['.jenkins/secrets', '.jenkins/secrets/x'],
  },
  { glob: 'credentials.xml', what: 'saved Jenkins credentials', class: 'secret', match: ['credentials.xml'] },
  { glob: 'sftp-config.json', what: 'saved SFTP logins (Sublime SFTP)', class: 'secret', match: ['sftp-config.json'] },
  {
    glob: '.vscode/sftp.json',
    what: 'saved SFTP logins (VS Code SFTP)',
    class: 'secret',
    match: ['.vscode/sftp.json'],
  },
  { glob: 'WinSCP.ini', what: 'saved WinSCP passwords', class: 'secret', match: ['WinSCP.ini'] },
  { glob: '*.remmina', what: 'saved remote desktop passwords (Remmina)', class: 'secret', match: ['x.remmina'] },
  // --- secrets: system
  {
    glob: '/etc/{shadow,gshadow}{,-}',
    what: 'system password hashes',
    class: 'secret',
    match: ['/etc/shadow', '/etc/shadow-'],
  },
  {
    glob: '/etc/{security/opasswd,master.passwd,spwd.db}',
    what: 'system password hashes',
    class: 'secret',
    match: ['/etc/security/opasswd', '/etc/master.passwd'],
  },
  { glob: '/etc/krb5.keytab', what: 'a Kerberos keytab', class: 'secret', match: ['/etc/krb5.keytab'] },
  {
    glob: '/tmp/krb5cc_*',
    what: 'Kerberos tickets',
    class: 'secret',
    match: ['/tmp/krb5cc_1000'],
    notMatch: ['/tmp/krb5.conf'],
  },
  {
    glob: '/etc/mysql/debian.cnf',
    what: 'the MySQL maintenance password',
    class: 'secret',
    match: ['/etc/mysql/debian.cnf'],
  },
  {
    glob: '/etc/NetworkManager/system-connections',
    what: 'saved Wi-Fi and VPN passwords',
    class: 'secret',
    match: ['/etc/NetworkManager/system-connections/home.nmconnection'],
  },
  { glob: '/etc/wireguard', what: 'WireGuard private keys', class: 'secret', match: ['/etc/wireguard/wg0.conf'] },
  { glob: '/etc/ppp/{chap,pap}-secrets', what: 'PPP passwords', class: 'secret', match: ['/etc/ppp/chap-secrets'] },
  { glob: '/etc/{ipsec.secrets,ipsec.d/private}', what: 'IPsec keys', class: 'secret', match: ['/etc/ipsec.secrets'] },
  {
    glob: '/etc/pki/tls/private',
    what: 'TLS private keys',
    class: 'secret',
    match: ['/etc/pki/tls/private', '/etc/pki/tls/private/x'],
  },
  {
    glob: '/etc/letsencrypt/{live,archive,accounts}',
    what: "Let's Encrypt private keys",
    class: 'secret',
    match: ['/etc/letsencrypt/live'],
  },
  {
    glob: '/etc/kubernetes/{*.conf,pki}',
    what: 'Kubernetes cluster credentials',
    class: 'secret',
    match: ['/etc/kubernetes/admin.conf'],
  },
  {
    glob: '/etc/rancher',
    what: 'Kubernetes (k3s, rke2) cluster credentials',
    class: 'secret',
    match: ['/etc/rancher/k3s/k3s.yaml'],
  },
  {
    glob: '/var/lib/rancher/{k3s,rke2}/server/{token,cred,tls}',
    what: 'Kubernetes (k3s) cluster credentials',
    class: 'secret',
    match: ['/var/lib/rancher/k3s/server/token'],
  },
  {
    glob: '/var/lib/kubelet/pki',
    what: 'Kubernetes node credentials',
    class: 'secret',
    match: ['/var/lib/kubelet/pki', '/var/lib/kubelet/pki/x'],
  },
  {
    glob: '/etc/ssh/ssh_host_*',
    what: "the machine's SSH host keys",
    class: 'secret',
    match: ['/etc/ssh/ssh_host_ed25519_key'],
  },
  {
    glob: '/etc/ssl/private',
    what: 'TLS private keys',
    class: 'secret',
    match: ['/etc/ssl/private/ssl-cert-snakeoil.key'],
  },
  // Network and VPN credentials kept by the system.
  {
    glob: '/etc/wpa_supplicant',
    what: 'Wi-Fi passwords',
    class: 'secret',
    match: ['/etc/wpa_supplicant', '/etc/wpa_supplicant/x'],
  },
  {
    glob: '/etc/NetworkManager/system-connections',
    what: 'saved network passwords',
    class: 'secret',
    match: ['/etc/NetworkManager/system-connections/home.nmconnection'],
  },
  { glob: '/etc/ppp/{chap,pap}-secrets', what: 'dial-up passwords', class: 'secret', match: ['/etc/ppp/chap-secrets'] },
  { glob: '/etc/ipsec.secrets', what: 'IPsec keys', class: 'secret', match: ['/etc/ipsec.secrets'] },
  { glob: '/etc/wireguard', what: 'WireGuard keys', class: 'secret', match: ['/etc/wireguard/wg0.conf'] },
  {
    glob: '/etc/openvpn/**/*.{key,conf,ovpn}',
    what: 'OpenVPN keys and credentials',
    class: 'secret',
    match: ['/etc/openvpn/a/x.key'],
  },
  {
    glob: '/etc/mysql/debian.cnf',
    what: "the MySQL maintenance user's password",
    class: 'secret',
    match: ['/etc/mysql/debian.cnf'],
  },
  {
    glob: '/etc/kubernetes/{admin,kubelet,controller-manager,scheduler}.conf',
    what: 'Kubernetes cluster credentials',
    class: 'secret',
    match: ['/etc/kubernetes/admin.conf'],
  },
  {
    glob: '/etc/rancher/k3s/k3s.yaml',
    what: 'Kubernetes cluster credentials',
    class: 'secret',
    match: ['/etc/rancher/k3s/k3s.yaml'],
  },
  {
    glob: '/etc/letsencrypt/{live,archive,keys}',
    what: 'TLS private keys',
    class: 'secret',
    match: ['/etc/letsencrypt/live'],
  },
  { glob: '/etc/sudoers', what: 'sudo configuration', class: 'secret', match: ['/etc/sudoers'] },
  {
    glob: '/etc/sudoers.d',
    what: 'sudo configuration',
    class: 'secret',
    match: ['/etc/sudoers.d', '/etc/sudoers.d/x'],
  },
  {
    glob: '/root',
    what: "root's home directory",
    class: 'secret',
    match: ['/root/.bash_history', '/root/.ssh/id_rsa'],
    notMatch: ['/rootfs/etc/hosts'],
  },
  {
    glob: '/run/secrets',
    what: 'mounted container secrets',
    class: 'secret',
    match: ['/run/secrets/db_password', '/run/secrets/kubernetes.io/serviceaccount/token'],
  },
  {
    glob: '/var/run/secrets',
    what: 'mounted container and Kubernetes secrets',
    class: 'secret',
    match: ['/var/run/secrets/kubernetes.io/serviceaccount/token'],
  },
  {
    glob: '/{var/,}run/credentials',
    what: 'systemd credentials',
    class: 'secret',
    match: ['/run/credentials/app.service/token'],
  },
  {
    glob: '/var/lib/postgresql/**/pg_hba.conf',
    what: 'database access rules',
    class: 'secret',
    match: ['/var/lib/postgresql/a/pg_hba.conf'],
  },
  // A process's environment holds its secrets (riskgate's API key, tokens).
  {
    glob: '/proc/*/environ',
    what: "a process's environment (secrets)",
    class: 'secret',
    match: ['/proc/self/environ'],
    notMatch: ['/proc/self/status'],
  },
  {
    glob: '/proc/*/task/*/environ',
    what: "a process's environment (secrets)",
    class: 'secret',
    match: ['/proc/self/task/1/environ', '/proc/1/task/1/environ'],
  },
  {
    glob: '/proc/*/{mem,cmdline,auxv}',
    what: "another process's memory or arguments",
    class: 'secret',
    match: ['/proc/self/mem', '/proc/self/cmdline'],
  },
  {
    glob: '/proc/*/task/*/{mem,cmdline}',
    what: "another process's memory or arguments",
    class: 'secret',
    match: ['/proc/x/task/x/mem'],
  },
  // Another view of the whole filesystem, or of a process's open files: reaches every secret.
  {
    glob: '/proc/*/{root,cwd,fd,map_files}',
    what: "a process's root, working directory or open files (reaches secrets)",
    class: 'secret',
    match: ['/proc/self/root/etc/shadow', '/proc/1/root/etc/shadow'],
    notMatch: ['/proc/self/status'],
  },
  {
    glob: '/proc/*/task/*/{root,cwd,fd}',
    what: "a process's root, working directory or open files (reaches secrets)",
    class: 'secret',
    match: ['/proc/x/task/x/root'],
  },
  // Keystrokes, camera and microphone: what the person types or says.
  {
    glob: '/dev/{input,hidraw*,uhid}',
    what: 'keyboard and mouse input (keystrokes)',
    class: 'secret',
    match: ['/dev/input/event0'],
  },
  { glob: '/dev/{video*,media*}', what: 'a camera', class: 'secret', match: ['/dev/video0'] },
  { glob: '/dev/snd', what: 'sound devices (a microphone)', class: 'secret', match: ['/dev/snd', '/dev/snd/x'] },
  // --- raw devices and kernel memory
  { glob: '/dev/{mem,kmem,port}', what: 'physical memory', class: 'raw', match: ['/dev/mem', '/dev/kmem'] },
  { glob: '/proc/kcore', what: 'kernel memory', class: 'raw', match: ['/proc/kcore'] },
  {
    glob: '/dev/{sd,hd,vd,xvd,nvme,mmcblk,dm-,loop,md,sr,nbd}*',
    what: 'a raw disk',
    class: 'raw',
    match: ['/dev/sda', '/dev/sda1'],
  },
  {
    glob: '/dev/{mapper,disk}',
    what: 'raw disks',
    class: 'raw',
    match: ['/dev/mapper/root', '/dev/disk/by-uuid/1234'],
  },
  // Opening it arms the hardware watchdog: unless fed, the machine reboots.
  {
    glob: '/dev/watchdog*',
    what: 'the hardware watchdog (opening it can reboot the machine)',
    class: 'raw',
    match: ['/dev/watchdog'],
  },
  // --- reads that never end or wait for input
  {
    glob: '/dev/{zero,random,urandom,full,tty,console,ptmx,stdin}',
    what: 'a device that never ends or waits for input',
    class: 'endless',
    match: ['/dev/zero', '/dev/urandom'],
  },
  {
    glob: '/dev/{tty,pts/,vcs}*',
    what: 'a terminal device',
    class: 'endless',
    match: ['/dev/tty', '/dev/tty1'],
    notMatch: ['/dev/null'],
  },
  { glob: '/dev/fd/0', what: 'standard input', class: 'endless', match: ['/dev/fd/0'] },
  { glob: '/proc/*/fd/0', what: 'standard input', class: 'endless', match: ['/proc/self/fd/0'] },
  {
    glob: '/{proc,dev}/kmsg',
    what: 'the kernel log stream, which waits for new lines',
    class: 'endless',
    match: ['/dev/kmsg', '/proc/kmsg'],
  },
  // --- writes that change how the machine, the shell or a tool behaves
  {
    glob: '/{etc,usr,bin,sbin,lib,lib32,lib64,libx32,boot,sys,proc,opt,srv,var/spool,var/lib}',
    what: 'a system path',
    class: 'machine',
    match: ['/etc/boto.cfg', '/etc/shadow'],
    notMatch: ['/var/log/syslog', '/etcetera'],
  },
  {
    glob: '/dev/!(null|stdout|stderr)',
    what: 'a device',
    class: 'machine',
    match: ['/dev/mem', '/dev/kmem'],
    notMatch: ['/dev/null', '/dev/stdout'],
  },
  {
    glob: '~/.{bashrc,bash_profile,bash_login,bash_logout,profile,zshrc,zprofile,zshenv,zlogin,zlogout,kshrc,cshrc,tcshrc,inputrc}',
    what: 'a shell start-up file (runs in every new shell)',
    class: 'machine',
    match: ['~/.bashrc'],
  },
  {
    glob: '~/.config/fish',
    what: 'fish start-up files (run in every new shell)',
    class: 'machine',
    match: ['~/.config/fish/fish_history'],
  },
  {
    glob: '~/.config/autostart',
    what: 'programs started at login',
    class: 'machine',
    match: ['~/.config/autostart', '~/.config/autostart/x'],
  },
  {
    glob: '~/.config/systemd',
    what: 'user services',
    class: 'machine',
    match: ['~/.config/systemd', '~/.config/systemd/x'],
  },
  { glob: '~/.local/bin', what: 'programs on the PATH', class: 'machine', match: ['~/.local/bin', '~/.local/bin/x'] },
  { glob: '~/bin', what: 'programs on the PATH', class: 'machine', match: ['~/bin', '~/bin/x'] },
  {
    glob: '~/.gitconfig',
    what: 'git configuration (can run programs)',
    class: 'machine',
    match: ['~/.gitconfig'],
    notMatch: ['.gitconfig'],
  },
  {
    glob: '~/.config/git',
    what: 'git configuration (can run programs)',
    class: 'machine',
    match: ['~/.config/git/credentials'],
  },
  {
    glob: '.git/{config,hooks}',
    what: "a repository's configuration and hooks (can run programs)",
    class: 'machine',
    match: ['.git/config'],
    notMatch: ['.git/HEAD', '.git/objects/ab/cdef'],
  },
  {
    glob: '.gitmodules',
    what: 'submodule configuration (can fetch and run code)',
    class: 'machine',
    match: ['.gitmodules'],
  },
  {
    glob: '.riskgate',
    what: "riskgate's project configuration (changes the gate)",
    class: 'machine',
    match: ['.riskgate', '.riskgate/x'],
  },
  { glob: '~/.npmrc', what: 'npm configuration', class: 'machine', match: ['~/.npmrc'], notMatch: ['.npmrc'] },
  { glob: '~/.pip', what: 'pip configuration', class: 'machine', match: ['~/.pip', '~/.pip/x'] },
  { glob: '~/.config/pip', what: 'pip configuration', class: 'machine', match: ['~/.config/pip', '~/.config/pip/x'] },
  { glob: 'crontab', what: 'scheduled jobs', class: 'machine', match: ['crontab'] },
  {
    glob: '/var/spool/cron',
    what: 'scheduled jobs',
    class: 'machine',
    match: ['/var/spool/cron', '/var/spool/cron/x'],
  },
  { glob: '~/.vimrc', what: 'an editor start-up file (runs code)', class: 'machine', match: ['~/.vimrc'] },
  {
    glob: '~/.config/nvim',
    what: 'an editor start-up file (runs code)',
    class: 'machine',
    match: ['~/.config/nvim', '~/.config/nvim/x'],
  },
  { glob: '~/.emacs{,.d}', what: 'an editor start-up file (runs code)', class: 'machine', match: ['~/.emacs'] },
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
