import { setFlagsFromString } from 'node:v8';
import { buildStatic, type BuildProgress } from '../static/build.ts';
import { parseOptions, UsageError } from './args.ts';
import type { CommandIO } from './io.ts';

export const buildHelp = `Usage: doclens build --docs DIR [options]

Writes beside a built documentation site the files that give it doclens' search, previews and
version switcher with no server: any static file server (a CDN, a project's pages site) serves them.

Options:
  --docs DIR       the built site: one folder of HTML (Sphinx _build/html, MkDocs site/), or
                   <language>/<version>/ folders as the hosting service serves them
  --manifest FILE  a manifest of "doclens host"'s form naming the site's projects and versions
                   (its folders inside --docs)
  --out DIR        where the files go (default: DIR/_doclens)
  --inject         write the widget's tag into every HTML page of the site (again: no second tag)
  -h, --help       show this help
`;

const buildOptions = {
  docs: { type: 'string' },
  manifest: { type: 'string' },
  out: { type: 'string' },
  inject: { type: 'boolean' },
} as const;

const PHASES: Record<BuildProgress['phase'], string> = {
  pages: 'pages indexed and previewed',
  previews: 'pages read again for targets linked from pages after them',
};

/**
 * V8's tiering for a build, which runs the same code over thousands of pages in three isolates (the main thread and
 * the page threads), each compiling it again. A function is optimized after four times V8's default budget of
 * bytecode run (66 KB), so with the feedback of more pages (fewer wrong guesses thrown away), and inlines half the
 * bytecode (smaller compilations). Set before the page threads start: V8's flags are the process's.
 * On pandas: 1,017 → 662 optimizing compilations, 274 → 158 deoptimizations (docs/benchmarks.md).
 */
const TIERING_FLAGS = ['--interrupt-budget=270336', '--max-inlined-bytecode-size-cumulative=460'];

const size = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

export async function runBuild(argv: string[], io: CommandIO): Promise<undefined> {
  const values = parseOptions(argv, buildOptions);
  if (values.help) {
    io.stdout.write(buildHelp);
    return undefined;
  }
  if (values.docs === undefined) throw new UsageError('--docs DIR is required');
  for (const flag of TIERING_FLAGS) setFlagsFromString(flag);
  // Progress rewrites one line, on a terminal only: a log gets the summary alone.
  const progress = io.stderr.isTTY
    ? ({ phase, done, total }: BuildProgress) => {
        if (done === total || done % 25 === 0) io.stderr.write(`\r\x1b[Kdoclens build: ${done}/${total} ${PHASES[phase]}`);
      }
    : undefined;
  const summary = await buildStatic({ docs: values.docs, out: values.out, manifest: values.manifest, inject: values.inject }, progress);
  if (progress) io.stderr.write('\r\x1b[K');
  const injected = values.inject ? `, the tag written into ${summary.injected} pages` : '';
  const { pages, sections, previews, bytes, out, seconds, searchCodeBytes } = summary;
  io.stdout.write(
    `doclens build: ${pages} pages, ${sections} sections, ${previews} previews, ${size(bytes)} in ${out}, ${seconds.toFixed(1)} s` +
      `${injected}; the search code a reader fetches: ${size(searchCodeBytes)} gzip\n`,
  );
  return undefined;
}
