import { cloneNode, type Element } from 'domhandler';
import { findSection, InvalidSelectorError, toHtml, withAbsoluteReferences } from '../extraction/find-section.ts';
import { pageUrlOf } from '../extraction/html/links.ts';
import { descendants, textOf } from '../extraction/html/parse.ts';
import { findMainContent, removePermalinks } from '../extraction/html/structure.ts';
import { normalizeSpace } from '../extraction/sections.ts';
import { isHeadingName } from '../extraction/structure/tree.ts';
import { HttpError, notFound } from './http.ts';
import type { PageStore } from './pages.ts';
import { fileForPath, type PageLocation, type Registry } from './registry.ts';

/** `scheme://host…` with a non-empty host: what the hosting service accepts as a URL to embed. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i;

export interface EmbedV3Params {
  url: string | undefined;
  doctool: string | undefined;
  maincontent: string | undefined;
}

const embedError = (status: number, error: string) => new HttpError(status, { error });

function fragmentOf(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? '' : url.slice(hash + 1);
}

/** Embed API v3 over the host's own pages, with the hosting service's error bodies. */
export async function embedV3(registry: Registry, pages: PageStore, params: EmbedV3Params): Promise<Record<string, unknown>> {
  const { url, doctool, maincontent } = params;
  if (!url) throw embedError(400, 'Invalid arguments. Please provide "url".');
  let parsed: URL | undefined;
  try {
    parsed = ABSOLUTE_URL.test(url) ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw embedError(400, `The URL requested is malformed. url=${url}`);
  // The host embeds its own pages only: every other domain is external, and none is allowlisted.
  if (!registry.siteFor(parsed)) throw embedError(400, `External domain not allowed. domain=${parsed.host}`);
  const fragment = fragmentOf(url);
  const notFoundError = embedError(
    404,
    `Can't find content for section: url=${url} fragment=${fragment} maincontent=${maincontent ?? 'None'}`,
  );
  const location = registry.resolveUrl(parsed);
  if (!location) throw notFoundError;
  if (!location.version.active || !location.version.root) throw notFound();
  const page = await pages.parse(location.version, location.file);
  if (!page) throw notFoundError;
  let section: Element | undefined;
  try {
    section = findSection(page, { fragment, doctool: doctool ?? null, maincontent: maincontent ?? null });
  } catch (error) {
    if (error instanceof InvalidSelectorError)
      throw embedError(400, `"maincontent" is not a valid CSS selector. maincontent=${maincontent}`);
    throw error;
  }
  if (!section) throw notFoundError;
  return {
    url,
    fragment: fragment || null,
    content: toHtml(withAbsoluteReferences(section, pageUrlOf(url))),
    external: false,
  };
}

export interface EmbedV2Params {
  url?: string | undefined;
  project?: string | undefined;
  version?: string | undefined;
  doc?: string | undefined;
  path?: string | undefined;
  section?: string | undefined;
}

/** `guides/users/index.html` → `guides/users/index`, `/guides/users//` → `guides/users`. */
function docName(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.html$/, '');
}

function locateV2(registry: Registry, params: EmbedV2Params): { location: PageLocation; section: string | undefined } {
  if (params.url) {
    let url: URL;
    try {
      url = new URL(params.url);
    } catch {
      throw embedError(400, `The URL requested is malformed. url=${params.url}`);
    }
    const location = registry.resolveUrl(url);
    if (!location) throw notFound();
    return { location, section: params.section ?? (fragmentOf(params.url) || undefined) };
  }
  const page = params.path ?? params.doc;
  if (!params.project || !page) {
    throw embedError(400, 'Invalid Arguments. Please provide "url" or "section" and "path" GET arguments.');
  }
  const project = registry.project(params.project);
  const version = project?.versions.find((candidate) => candidate.slug === (params.version ?? 'latest'));
  if (!project || !version) throw notFound();
  const cleaned = page.replace(/^\/+/, '').replace(/\/{2,}$/, '/');
  const file = params.path
    ? cleaned.endsWith('.html') || cleaned.endsWith('/')
      ? fileForPath(cleaned)
      : `${cleaned}/index.html`
    : `${cleaned}.html`;
  return { location: { project, version, file }, section: params.section };
}

/** A copy of a heading without its permalink (a `¶` or an icon, depending on the theme). */
function withoutPermalinks(heading: Element): Element {
  const copy = cloneNode(heading, true);
  removePermalinks(copy);
  return copy;
}

/** Embed API v2: every section as a list, and the page's headings with their anchors. */
export async function embedV2(registry: Registry, pages: PageStore, params: EmbedV2Params): Promise<Record<string, unknown>> {
  const { location, section } = locateV2(registry, params);
  const { version, file, project } = location;
  if (!version.active || !version.root || version.privacyLevel !== 'public') throw notFound();
  const page = await pages.parse(version, file);
  if (!page) throw notFound();
  const pageUrl = registry.docsUrl(version, file);
  const main = findMainContent(page);
  const found = section ? findSection(page, { fragment: section, doctool: 'sphinx' }) : main;
  const headings = main ? [...descendants(main)].filter((element) => isHeadingName(element.name)) : [];
  return {
    content: found ? [toHtml(withAbsoluteReferences(found, pageUrl))] : [],
    headers: headings.map((heading, index) => {
      const anchor = heading.attribs.id ?? (heading.parent && 'attribs' in heading.parent ? heading.parent.attribs.id : undefined);
      const title = normalizeSpace(textOf(withoutPermalinks(heading)));
      return { [title]: index === 0 && heading.name === 'h1' ? '#' : `#${anchor ?? ''}` };
    }),
    url: pageUrl,
    meta: { project: project.slug, version: version.slug, doc: docName(file), section: section ?? null },
  };
}
