import type { EmbedJobInput, EmbedJobKind, EmbedJobOutput } from '../../extraction/jobs.ts';
import { pageUrlOf } from '../../extraction/html/links.ts';
import { MAX_SELECTOR_LENGTH, simpleSelector } from '../../extraction/selector.ts';
import type { Preview } from '../../extraction/preview.ts';
import { JobRefused } from '../../runtime/thread-pool.ts';
import { choiceParam, requiredParam, stringParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import type { ProxyContext } from '../context.ts';
import type { EmbedPreview, EmbedSection } from '../../contract/index.ts';
import type { JsonEndpoint } from './cached-json.ts';
import type { EmbedDomains } from './domains.ts';

export const EMBED_PARAMS = ['url', 'doctool', 'doctoolversion', 'maincontent', 'form'] as const;
export const MAX_URL_LENGTH = 2048;

/**
 * `maincontent` as it goes upstream and into the cache key: rebuilt from a simple selector, the only
 * kind the proxy runs or forwards (a short selector with `:has` can keep any server busy for good).
 */
function mainContentSelector(query: URLSearchParams): string | undefined {
  const raw = stringParam(query, 'maincontent', MAX_SELECTOR_LENGTH);
  if (!raw) return undefined;
  const simple = simpleSelector(raw);
  if (simple === undefined)
    throw invalidParameter(
      'maincontent',
      'must be a simple CSS selector: type, class, id and attribute selectors joined by descendant or child combinators',
    );
  query.set('maincontent', simple);
  return simple;
}

/** The page URL to embed, checked: absolute http(s), no credentials in it, on an allowed domain. */
export function embedTarget(raw: string, domains: EmbedDomains): { url: URL; external: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParameter('url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidParameter('url', 'must be an absolute http(s) URL');
  if (url.username || url.password) throw invalidParameter('url', 'must not contain a user name or password');
  if (domains.docs.matches(url)) return { url, external: false };
  if (domains.external.matches(url)) return { url, external: true };
  throw new ProxyError(403, 'domain_not_allowed', `Pages on ${url.host} cannot be embedded through this proxy.`);
}

interface EmbedInput {
  url: URL;
  external: boolean;
  doctool: 'sphinx' | undefined;
  doctoolversion: string | undefined;
  maincontent: string | undefined;
  form: 'full' | 'preview';
}

/** A section, or with `form=preview` the few blocks of its preview. */
type EmbedAnswer = EmbedSection | EmbedPreview;

/**
 * A job of the embed endpoint, run in an extraction thread; a page too deep or too costly for its
 * limits is `page_too_complex`, a full queue `overloaded`.
 */
async function extracted<K extends EmbedJobKind>(
  context: ProxyContext,
  url: URL,
  kind: K,
  input: EmbedJobInput<K>,
): Promise<EmbedJobOutput<K>> {
  try {
    return await context.threads.run(kind, input);
  } catch (error) {
    if (!(error instanceof JobRefused)) throw error;
    if (error.reason === 'busy')
      throw new ProxyError(503, 'overloaded', 'The proxy is extracting too many pages at once; try again shortly.', { 'retry-after': '1' });
    const problem = error.reason === 'too_deep' ? 'nests elements too deeply' : 'is too costly';
    throw new ProxyError(502, 'page_too_complex', `The page at ${url.host}${url.pathname} ${problem} to extract.`);
  }
}

/** A section of a page, or its preview. */
export function embedEndpoint(context: ProxyContext): JsonEndpoint<EmbedInput, EmbedAnswer> {
  return {
    params: EMBED_PARAMS,
    freshness: 'embedTtl',
    read({ query }) {
      const raw = requiredParam(query, 'url', MAX_URL_LENGTH);
      const doctool = choiceParam(query, 'doctool', ['sphinx'] as const);
      const doctoolversion = stringParam(query, 'doctoolversion', 32);
      if (doctoolversion !== undefined && !/^[\w.+-]*$/.test(doctoolversion))
        throw invalidParameter('doctoolversion', 'must be a version number');
      const maincontent = mainContentSelector(query);
      const form = choiceParam(query, 'form', ['full', 'preview'] as const) ?? 'full';
      const { url, external } = embedTarget(raw, context.domains);
      // Documentation pages are static: the path and fragment decide the answer, and a query string
      // (`?v=1`, `?highlight=…`) would only multiply the work and the cache entries for one page.
      url.search = '';
      // The fragment is part of the key as the URL parser normalizes it: `#a b` and `#a%20b` are one.
      query.set('url', url.href);
      return { url, external, doctool, doctoolversion, maincontent, form };
    },
    async load({ url, external, doctool, doctoolversion, maincontent, form }, { credential, scope }) {
      const fragment = url.hash.slice(1);
      const pageUrl = pageUrlOf(url.href);
      const preview = form === 'preview';
      /** The section `name` of the page (its opening when empty), or its preview alone; undefined when the page has none. */
      const sectionOf = async (name: string): Promise<{ content: string } | { preview: Preview } | undefined> => {
        if (external) {
          const section = await context.pages.extract(pageUrl, (page) =>
            extracted(context, url, 'section', {
              page,
              pageUrl,
              fragment: name,
              doctool: doctool ?? null,
              maincontent: maincontent ?? null,
              preview,
            }),
          );
          if (!section) return undefined;
          return section.preview ? { preview: section.preview } : { content: section.content };
        }
        const result = await context.api
          .embed(
            { url: name === fragment ? url.href : `${pageUrl}${name ? `#${name}` : ''}`, doctool, doctoolversion, maincontent },
            credential,
          )
          .catch((error: unknown) => {
            if (error instanceof ProxyError && error.status === 404) return undefined;
            throw error;
          });
        if (!result) return undefined;
        const section = await extracted(context, url, 'upstreamSection', { content: result.content, pageUrl, fragment: name, preview });
        if (!('preview' in section) || !name || (section.previewHasText && !section.readAround)) return section;
        // A bare target (a heading, an empty anchor), a definition cut out of its code listing, or a label
        // the section around it stands in for: what it is, read around it in the page's content from the
        // upstream, with the reader's own credential.
        const around = await context.pages
          .extractContent(
            `${scope} ${pageUrl} ${doctool ?? ''} ${doctoolversion ?? ''} ${maincontent ?? ''}`,
            async () => (await context.api.embed({ url: pageUrl, doctool, doctoolversion, maincontent }, credential)).content,
            (page) => extracted(context, url, 'targetPreview', { page, pageUrl, fragment: name }),
          )
          .catch((error: unknown) => {
            // The section's start stands in for a page that cannot be read (or read around), not for a moment's overload.
            if (error instanceof ProxyError && error.code === 'overloaded') throw error;
            return undefined;
          });
        return { preview: around ?? section.preview };
      };
      const base = { url: url.href, fragment: fragment || null, external };
      const section = await sectionOf(fragment);
      // A link to an anchor the page lacks lands at the page's top: its preview is the page's opening.
      if (!section && fragment && preview) {
        const opening = await sectionOf('');
        if (opening && 'preview' in opening) return { ...base, ...opening.preview, missing_fragment: true } satisfies EmbedPreview;
      }
      if (!section)
        throw new ProxyError(404, 'section_not_found', `No content found for ${fragment ? `section "${fragment}"` : 'this page'}.`);
      if ('content' in section) return { ...base, content: section.content } satisfies EmbedSection;
      return { ...base, ...section.preview, missing_fragment: false } satisfies EmbedPreview;
    },
  };
}
