import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the MkDocs sites are built (gitignored). */
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));
const QUERIES = fileURLToPath(new URL('./queries/', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

export interface Site {
  slug: string;
  /** The project whose documentation it is. */
  name: string;
  generator: 'sphinx' | 'mkdocs';
  theme: string;
  /** The folder of built HTML, once `prepare` has run. */
  root: string;
  /** Installs or builds what the site needs; cheap when it is already there. */
  prepare(): void;
}

export interface Query {
  /** What a reader types. */
  q: string;
  /** The page that answers it, relative to the site's root (`topics/http/urls.html`, `fs/`); several when they are equally good. */
  page: string | string[];
}

/** A stable hash of a query's text (FNV-1a, 32 bits). */
function hashOf(query: Query): number {
  let hash = 0x811c9dc5;
  for (const char of query.q) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash;
}

/**
 * The held-out half of a site's queries, which no ranking change is tuned on: a ranking change lands
 * only if the held-out half's top-3 and MRR do not fall on any site (docs/real-docs.md). It is the
 * half with the lower hashes of their text: the same on every run, and a query added later moves at
 * most one other between the halves.
 */
export function heldOutOf(queries: readonly Query[]): Set<Query> {
  const ordered = [...queries].sort((a, b) => hashOf(a) - hashOf(b) || (a.q < b.q ? -1 : 1));
  return new Set(ordered.slice(0, Math.floor(queries.length / 2)));
}

export function queriesOf(site: Site): Query[] {
  return JSON.parse(readFileSync(join(QUERIES, `${site.slug}.json`), 'utf8')) as Query[];
}

/**
 * A site's extra tuning queries (`queries/tuning-extra/`): more signal to tune on, written from the site's
 * pages before any engine ran on them; counted in no target figure and apart from the suite's set, so that which of its
 * queries are held out does not move (docs/real-docs.md).
 */
export function extraQueriesOf(site: Site): Query[] {
  const file = join(QUERIES, 'tuning-extra', `${site.slug}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Query[]) : [];
}

function run(command: string, args: string[], cwd?: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit code ${result.status}`})`);
}

const dpkgField = (pkg: string, field: string) => spawnSync('dpkg-query', ['-W', `-f=\${${field}}`, pkg], { encoding: 'utf8' }).stdout;
const installed = (pkg: string) => dpkgField(pkg, 'Status').includes('install ok installed');

/** Debian packages, installed with apt-get when missing (the suite runs as root on Debian). */
function ensurePackages(...packages: string[]): void {
  const missing = packages.filter((pkg) => !installed(pkg));
  if (missing.length === 0) return;
  console.log(`realdocs: installing ${missing.join(' ')}`);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing]);
}

/** A site as a Debian documentation package ships it (HTML built by the project's own configuration), in `root`. */
function debianSite(
  slug: string,
  name: string,
  generator: Site['generator'],
  theme: string,
  pkg: string,
  root = `/usr/share/doc/${pkg}/html`,
): Site {
  return { slug, name, generator, theme, root, prepare: () => ensurePackages(pkg) };
}

const debianSphinx = (slug: string, name: string, theme: string, pkg: string) => debianSite(slug, name, 'sphinx', theme, pkg);

/**
 * A site built here with MkDocs from a real project's Markdown: `assemble` copies the sources into
 * `docs/`; the build is redone only when the configuration, the source list or its version changes.
 */
function mkdocsSite(options: {
  slug: string;
  name: string;
  theme: 'mkdocs' | 'material';
  packages: string[];
  /** The version of the sources, so that an upgraded package is built again. */
  sourceVersion: () => string;
  sources: () => string[];
  assemble: (docs: string) => void;
  config: string;
}): Site {
  const folder = join(CACHE, options.slug);
  const site: Site = {
    slug: options.slug,
    name: options.name,
    generator: 'mkdocs',
    theme: options.theme,
    root: join(folder, 'site'),
    prepare: () => {
      ensurePackages('mkdocs', ...(options.theme === 'material' ? ['mkdocs-material'] : []), ...options.packages);
      const stamp = `${options.config}\n# sources ${options.sourceVersion()}: ${options.sources().join(' ')}\n`;
      const configFile = join(folder, 'mkdocs.yml');
      if (existsSync(join(site.root, 'index.html')) && existsSync(configFile) && readFileSync(configFile, 'utf8') === stamp) return;
      console.log(`realdocs: building ${options.slug} with MkDocs (${options.theme} theme)`);
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(join(folder, 'docs'), { recursive: true });
      options.assemble(join(folder, 'docs'));
      writeFileSync(configFile, stamp);
      run('mkdocs', ['build', '--quiet', '--clean', '--config-file', configFile], folder);
    },
  };
  return site;
}

const NODE_API = '/usr/share/doc/nodejs/api';
const nodeApiPages = () => readdirSync(NODE_API).filter((file) => file.endsWith('.md'));

const UNDICI = join(NODE_MODULES, 'undici');
const undiciPages = () => [
  'README.md',
  ...['api', 'best-practices'].flatMap((part) => readdirSync(join(UNDICI, 'docs/docs', part)).map((file) => `docs/docs/${part}/${file}`)),
];

/** The corpus: Sphinx sites of different themes, and two MkDocs sites (default and material themes). */
export const SITES: Site[] = [
  debianSphinx('django', 'Django', 'custom (djangodocs)', 'python-django-doc'),
  debianSphinx('flask', 'Flask', 'pallets', 'python-flask-doc'),
  debianSphinx('requests', 'Requests', 'alabaster', 'python-requests-doc'),
  debianSphinx('sqlalchemy', 'SQLAlchemy', 'zzzeeksphinx', 'python-sqlalchemy-doc'),
  debianSphinx('sphinx', 'Sphinx', 'sphinx13', 'sphinx-doc'),
  debianSphinx('tornado', 'Tornado', 'sphinx_rtd_theme', 'python-tornado-doc'),
  debianSphinx('astropy', 'Astropy', 'bootstrap-astropy', 'python-astropy-doc'),
  debianSphinx('celery', 'Celery', 'custom (celery)', 'python-celery-doc'),
  debianSphinx('hypothesis', 'Hypothesis', 'sphinx_rtd_theme', 'python-hypothesis-doc'),
  debianSphinx('scipy', 'SciPy', 'pydata-sphinx-theme (scipy)', 'python-scipy-doc'),
  debianSphinx('pandas', 'pandas', 'pydata-sphinx-theme', 'python-pandas-doc'),
  debianSphinx('python', 'Python 3.11', 'python_docs_theme', 'python3.11-doc'),
  debianSphinx('sympy', 'SymPy', 'furo', 'python-sympy-doc'),
  debianSphinx('dask', 'Dask', 'sphinx-book-theme', 'python-dask-doc'),
  // A generated API reference of 5,767 pages (6,245 in all).
  debianSphinx('statsmodels', 'statsmodels', 'nature', 'python-statsmodels-doc'),
  // Where issue 33 saw readers trip: two more sphinx_rtd_theme builds, Pallets' theme, Celery's theme on Kombu, and MkDocs' own.
  debianSphinx('scrapy', 'Scrapy', 'sphinx_rtd_theme', 'python-scrapy-doc'),
  debianSphinx('cryptography', 'cryptography', 'sphinx_rtd_theme', 'python-cryptography-doc'),
  debianSphinx('werkzeug', 'Werkzeug', 'pallets', 'python-werkzeug-doc'),
  debianSphinx('kombu', 'Kombu', 'custom (celery)', 'python-kombu-doc'),
  // Debian builds MkDocs' documentation with its own `mkdocs` theme, pages as `.html` files, into the mkdocs package's folder.
  debianSite('mkdocs', 'MkDocs', 'mkdocs', 'mkdocs', 'mkdocs-doc', '/usr/share/doc/mkdocs/html'),
  mkdocsSite({
    slug: 'nodejs',
    name: 'Node.js API (Markdown of the nodejs package)',
    theme: 'mkdocs',
    packages: ['nodejs'],
    sourceVersion: () => dpkgField('nodejs', 'Version'),
    sources: nodeApiPages,
    assemble: (docs) => {
      for (const file of nodeApiPages()) cpSync(join(NODE_API, file), join(docs, file));
    },
    config: [
      'site_name: Node.js API',
      'docs_dir: docs',
      'site_dir: site',
      'theme:',
      '  name: mkdocs',
      'markdown_extensions:',
      '  - toc:',
      '      permalink: true',
    ].join('\n'),
  }),
  mkdocsSite({
    slug: 'undici',
    name: 'undici (Markdown of the npm package)',
    theme: 'material',
    packages: [],
    sourceVersion: () => (JSON.parse(readFileSync(join(UNDICI, 'package.json'), 'utf8')) as { version: string }).version,
    sources: undiciPages,
    assemble: (docs) => {
      for (const file of undiciPages()) {
        const target = file === 'README.md' ? join(docs, 'index.md') : join(docs, file.replace('docs/docs/', ''));
        mkdirSync(join(target, '..'), { recursive: true });
        // The README links into the docs as they sit in the package; as the home page they sit beside it.
        const text = readFileSync(join(UNDICI, file), 'utf8');
        writeFileSync(target, basename(file) === 'README.md' ? text.replaceAll('](./docs/docs/', '](') : text);
      }
    },
    config: [
      'site_name: undici',
      'docs_dir: docs',
      'site_dir: site',
      'theme:',
      '  name: material',
      'markdown_extensions:',
      '  - admonition',
      '  - toc:',
      '      permalink: true',
    ].join('\n'),
  }),
];
