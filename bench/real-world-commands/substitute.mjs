// tldr's placeholders replaced by realistic values (README.md, "How the lines were made").
// `{{[-a|--all]}}` is a choice of spellings: the short one or the long one, alternately, so both
// reach the assessor. `{{start|stop}}` is a choice of values: the first. `{{path/to/file}}` is a
// file of the scratch workspace (fixture.mjs creates every one the corpus names); other
// placeholders take a plain value of their kind.

/** Values for placeholders that are not paths, by the placeholder's words. */
const VALUES = [
  [/^(pid|process_id|PID)$/, '4242'],
  [/^(port|port_number)$/, '8080'],
  [/^(host|hostname|server|remote_host|domain|example\.com|website)$/, 'example.com'],
  [/^(ip_address|ip|ip_addr|ipv4_address)$/, '192.0.2.10'],
  [/^(address|addr|memory_address|instruction_address)$/, '0x401000'],
  [/^(user|username|user_name|login)$/, 'dev'],
  [/^(group|group_name|groupname)$/, 'staff'],
  [/^(password|passphrase)$/, 'hunter2'],
  [/^(package|package_name|package1|formula|formula\|cask|cask|crate|module|gem)$/, 'bash'],
  [/^(container|container_name|container_id)$/, 'web'],
  [/^(image|image_name)$/, 'nginx'],
  [/^(branch|branch_name|remote_branch)$/, 'feature'],
  [/^(commit|commit_hash|commit_id|revision|rev)$/, 'HEAD~1'],
  [/^(remote|remote_name)$/, 'origin'],
  [/^(tag|tag_name)$/, 'v1.0'],
  [/^(unit|service|service_name|unit_name)$/, 'ssh.service'],
  [/^(pattern|search_pattern|regex|regular_expression|keyword|search_string|query|text|string)$/, 'TODO'],
  [/^(command|cmd|program)$/, 'ls'],
  [/^(url|https?:\/\/.*)$/, 'https://example.com'],
  [/^(interface|network_interface|device_name)$/, 'eth0'],
  [/^(n|number|count|num|amount|lines)$/, '5'],
  [/^(message|commit_message|description)$/, 'fix typo'],
  [/^(name|file_name|filename)$/, 'notes.txt'],
  [/^(variable|var|env_var|VARIABLE)$/, 'LANG'],
  [/^(key)$/, 'user.name'],
  [/^(value)$/, 'value'],
  [/^(version)$/, '1.0'],
  [/^(signal|SIGNAL)$/, 'TERM'],
  [/^(shell|sh|bash)$/, 'sh'],
  [/^(editor)$/, 'vim'],
  [/^(mount_point|mountpoint)$/, '/mnt'],
  [/^(\/dev\/sd[A-Za-z]+|device|disk|drive|partition)$/, '/dev/sdb1'],
  [/^(language|lang)$/, 'en'],
  [/^(format)$/, 'json'],
  [/^(project|project_name|repository|repo|repo_name)$/, 'app'],
  [/^(database|database_name|db_name|dbname)$/, 'app'],
  [/^(table|table_name)$/, 'users'],
  [/^(file_extension|extension|ext)$/, 'txt'],
];

/** A path placeholder's value: the file's own name (`path/to/notes.txt` → `notes.txt`), made by the fixture. */
function pathValue(text, files) {
  return text
    .split(/\s+/)
    .filter((part) => part !== '...' && part !== '')
    .map((part) => {
      const name = part.replace(/^.*path\/to\//, '').replace(/^\/+/, '');
      const file = name === '' ? '.' : name;
      files.add(file);
      return file;
    })
    .join(' ');
}

/** Replace every placeholder of one tldr command; `index` alternates short and long spellings. */
export function substitute(command, index, files) {
  return command.replace(/\{\{(.*?)\}\}(?!\})/g, (_whole, inner) => {
    const spellings = /^\[(.*)\]$/.exec(inner);
    if (spellings !== null) {
      const options = spellings[1].split('|');
      return options[index % 2 === 0 ? 0 : options.length - 1];
    }
    // `{{a|b}}` and `{{a1|b1 a2|b2}}`: the first choice of each word.
    const choice = inner.includes('|')
      ? inner
          .split(' ')
          .map((part) => part.split('|')[0])
          .join(' ')
      : inner;
    if (/path\/to\//.test(choice)) return pathValue(choice, files);
    for (const [pattern, value] of VALUES) if (pattern.test(choice)) return value;
    // A value written as an example of itself (`{{10}}`, `{{*.txt}}`, `{{origin/main}}`): kept.
    return choice.replace(/\s*\.\.\.$/, '');
  });
}
