// `npm run lint`'s line length check: Biome's formatter wraps code at 140 columns but leaves strings,
// comments and templates as they are written, so this keeps those within the same width.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 140;
const root = new URL('../', import.meta.url);
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.js'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path && !path.startsWith('demo/docs/'));

let long = 0;
for (const path of files) {
  let text;
  try {
    text = readFileSync(new URL(path, root), 'utf8');
  } catch {
    continue; // listed by git but deleted in the working tree
  }
  for (const [index, line] of text.split('\n').entries()) {
    if (line.length <= MAX) continue;
    long++;
    console.error(`${path}:${index + 1}: ${line.length} columns (at most ${MAX})`);
  }
}
if (long > 0) {
  console.error(`${long} line${long === 1 ? '' : 's'} longer than ${MAX} columns`);
  process.exit(1);
}
console.log(`${files.length} files, no line longer than ${MAX} columns`);
