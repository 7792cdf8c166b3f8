import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { LANGUAGE_CODE, loadManifest, ManifestError, parseManifest, type Manifest } from '../host/manifest.ts';
import { commonTitleSuffix } from '../extraction/structure/titles.ts';
import { Registry, type Version } from '../host/registry.ts';
import { parseVersion } from '../versions/version-order.ts';

/** A folder that holds no built documentation: `doclens build` says so and exits with code 2. */
export class NotABuiltSiteError extends Error {
  override name = 'NotABuiltSiteError';
}

/** A version of the site with the folder it is served from. */
export interface SiteVersion {
  version: Version;
  /** Its folder's URL path below the site's root: `en/2.0/`, or empty for a site of one folder. */
  path: string;
}

/** The built site `doclens build` reads: its projects and versions, and where each version's pages are. */
export interface StaticSite {
  /** The folder served as the site's root. */
  root: string;
  registry: Registry;
  versions: SiteVersion[];
  /** Whether a manifest names its projects; else they are named after the folder until the pages say (see `siteNameOf`). */
  named: boolean;
}

const SLUG = /^[a-z0-9][a-z0-9._-]*$/i;

const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();

const holdsPages = (dir: string): boolean => readdirSync(dir).some((name) => name.endsWith('.html'));

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A folder named by a language code a reader's language can be (`en`, `pt-br`), not a word that looks like one (`ref`, `api`). */
function isLanguage(name: string): boolean {
  if (!LANGUAGE_CODE.test(name)) return false;
  try {
    return languageNames.of(name.replace('_', '-')) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The `<language>/<version>/` folders of a site laid out as the hosting service serves it; empty when
 * it is not. Such a site has no pages at its top but a start page (often a redirect to its default).
 */
function languageVersionFolders(root: string): { language: string; versions: string[] }[] {
  const topPages = readdirSync(root).filter((name) => name.endsWith('.html') && name !== 'index.html' && name !== '404.html');
  if (topPages.length > 0) return [];
  return folders(root)
    .filter(isLanguage)
    .map((language) => ({
      language,
      versions: folders(join(root, language)).filter((version) => SLUG.test(version) && holdsPages(join(root, language, version))),
    }))
    .filter(({ versions }) => versions.length > 0);
}

/** What readers open first: `stable`, else `latest`, else the newest release. */
function defaultVersion(slugs: string[]): string {
  for (const named of ['stable', 'latest']) if (slugs.includes(named)) return named;
  return [...slugs].sort((a, b) => (parseVersion(b)?.release[0] ?? -1) - (parseVersion(a)?.release[0] ?? -1))[0]!;
}

/** The project slug of a site read without a manifest: its folder's name, made a slug. */
function projectSlug(root: string): string {
  const name = basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return name || 'docs';
}

/** A manifest for `/<language>/<version>/` folders: one project per language, the first language's the main one. */
function layoutManifest(root: string, languages: { language: string; versions: string[] }[]): Manifest {
  const slug = projectSlug(root);
  const main = languages.find(({ language }) => language === 'en') ?? languages[0]!;
  const ordered = [main, ...languages.filter((entry) => entry !== main)];
  return parseManifest(
    {
      projects: ordered.map(({ language, versions }) => ({
        slug: language === main.language ? slug : `${slug}-${language.toLowerCase()}`,
        name: slug,
        language,
        defaultVersion: defaultVersion(versions),
        ...(language === main.language ? {} : { translationOf: slug }),
        versions: versions.map((version) => ({
          slug: version,
          type: parseVersion(version) ? 'tag' : 'branch',
          path: join(language, version),
        })),
      })),
    },
    root,
  );
}

/** Where Sphinx and MkDocs write a site below the folder a reader may name instead: the project's, or a Debian package's. */
const BUILT_FOLDERS = ['site', 'html', '_build/html', 'build/html', 'docs/_build/html', 'docs/build/html', 'docs/site'];

/**
 * Reads the layout of a built site: `<language>/<version>/` folders (as the hosting service serves
 * them, and `doclens host` does), a manifest of `doclens host`'s form whose folders are inside the
 * site, or one folder of pages (Sphinx's `_build/html`, MkDocs' `site/`).
 */
export function readSite(docs: string, manifestFile?: string): StaticSite {
  const root = resolve(docs);
  if (!existsSync(root)) throw new NotABuiltSiteError(`no such folder: ${docs}`);
  if (!statSync(root).isDirectory()) throw new NotABuiltSiteError(`${docs} is a file: --docs names the folder of the built pages`);
  let manifest: Manifest;
  if (manifestFile !== undefined) manifest = loadManifest(manifestFile);
  else {
    const languages = languageVersionFolders(root);
    if (languages.length > 0) manifest = layoutManifest(root, languages);
    else if (holdsPages(root))
      manifest = parseManifest(
        { projects: [{ slug: projectSlug(root), name: projectSlug(root), versions: [{ slug: 'latest', path: '.' }] }] },
        root,
      );
    else {
      const built = BUILT_FOLDERS.find((folder) => existsSync(join(root, folder, 'index.html')));
      const sources = ['conf.py', 'mkdocs.yml', 'index.rst', 'index.md'].filter((name) => existsSync(join(root, name)));
      const hint = built
        ? ` (${join(docs, built)} holds a built site: point --docs there)`
        : sources.length
          ? ` (it holds ${sources.join(', ')}: build the site first, then point --docs at its output)`
          : '';
      throw new NotABuiltSiteError(`${docs} is not a built documentation site: no HTML pages at its top${hint}`);
    }
  }
  const registry = new Registry(manifest);
  const versions = registry.projects.flatMap((project) =>
    project.versions
      .filter((version) => version.root !== undefined && version.active && !version.hidden)
      .map((version) => {
        const path = relative(root, version.root!);
        if (path.startsWith('..') || resolve(root, path) !== version.root)
          throw new ManifestError(`project "${project.slug}" version "${version.slug}": folder ${version.root} is outside ${root}`);
        return { version, path: path === '' ? '' : `${path.split(sep).join('/')}/` };
      }),
  );
  return { root, registry, versions, named: manifestFile !== undefined };
}

/** A version number in a site's name: `1.5.3`, `v5.2`, `6.x`, `(2.2.x)`. */
const VERSION_IN_NAME = /\s*\(?\bv?\d+(?:\.[\dx]+)+[\w.+-]*\)?/gi;

/**
 * What a site calls itself, from its pages' `<title>`s: the name they end with ("pandas 1.5.3
 * documentation", "Node.js API"), less its version and the word "documentation" ("pandas"); none
 * when they share no ending.
 */
export function siteNameOf(titles: readonly string[]): string | undefined {
  const suffix = commonTitleSuffix(titles).replace(TITLE_SEPARATOR_START, '');
  const name = suffix
    .replace(VERSION_IN_NAME, '')
    .replace(/\s+(?:documentation|docs|manual)$/i, '')
    .trim();
  return name || suffix || undefined;
}

/** The separator a title's suffix starts with (see `commonTitleSuffix`). */
const TITLE_SEPARATOR_START = /^\s*[-–—|·:»]\s*/;
