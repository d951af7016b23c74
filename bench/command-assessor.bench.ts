// execute_command assessor latency per command line, over a few hundred ordinary lines and
// bypass attempts, plus 10,000-character lines. Prints one JSON object.
import { assessCommand as assessLine, loadBashParser } from '@riskgate/tools-command';
import { measure } from './stats.ts';

const ordinary = [
  'ls -la',
  'git status',
  'git log --oneline -20',
  'cat package.json | jq .scripts',
  'grep -rn TODO src | head -50',
  'find . -name "*.ts" -not -path "./node_modules/*" | wc -l',
  'du -sh * 2>/dev/null | sort -h | tail',
  'ps aux | grep node',
  "sed -n '10,40p' src/index.ts",
  'diff <(sort a.txt) <(sort b.txt)',
  'rm -rf dist',
  'npm install',
  'git push --force',
  'curl -fsSL https://example.com/install.sh | sh',
  'echo "$(whoami)@$(hostname)"',
  'ls; rm -rf ~',
  'sudo systemctl restart nginx',
  'tar czf backup.tgz src',
  'docker ps -a',
  'make -j4 && ./run-tests.sh > results.txt 2>&1',
];
const corpus: string[] = [];
for (let index = 0; index < 15; index++)
  for (const line of ordinary) corpus.push(index === 0 ? line : `${line} # ${index}`);
const large = {
  '10,000-character echo': `echo ${'word '.repeat(2000)}`,
  '10,000-character pipeline': Array.from({ length: 1250 }, () => 'cat x')
    .join(' | ')
    .slice(0, 10_000),
  '10,000-character chain of ls': Array.from({ length: 2500 }, () => 'ls')
    .join('; ')
    .slice(0, 10_000),
  '1,000 nested substitutions': `${'echo $('.repeat(1000)}ls${')'.repeat(1000)}`,
};

// The assessor reports effects; the bench measures the walk alone, in this directory.
const assessCommand = (line: string) => assessLine(line, { cwd: process.cwd() });
await loadBashParser();
for (const line of corpus) await assessCommand(line);
const timing = await measure(
  corpus.map((line) => () => assessCommand(line)),
  5,
);
const largeInputs: Record<string, number> = {};
for (const [label, line] of Object.entries(large)) {
  const started = performance.now();
  await assessCommand(line);
  largeInputs[label] = performance.now() - started;
}
process.stdout.write(`${JSON.stringify({ lines: corpus.length, ...timing, largeInputs })}\n`);
