import { findSection, InvalidSelectorError, toHtml, withAbsoluteReferences } from '../../extraction/embed.ts';
import { absolutizeHtml, pageUrlOf } from '../../extraction/html/links.ts';
import { parseHtml, type ParsedHtml } from '../../extraction/html/parse.ts';
import { hasTextBeyondTitle, previewOf, previewOfTarget } from '../../extraction/preview.ts';
import { MAX_SELECTOR_LENGTH, simpleSelector } from '../../extraction/selector.ts';
import { percentDecoded } from '../../extraction/structure/tree.ts';
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
      // The fragment is part of the key as the URL parser normalizes it: `#a b` and `#a%20b` are one.
      query.set('url', url.href);
      return { url, external, doctool, doctoolversion, maincontent, form };
    },
    async load({ url, external, doctool, doctoolversion, maincontent, form }, { credential }) {
      const fragment = url.hash.slice(1);
      let content: string;
      // The page itself, once read: previews of a fragment look around the target in it.
      let targetPage: ParsedHtml | undefined;
      if (external) {
        const page = await context.pages.get(pageUrlOf(url.href));
        targetPage = page;
        let section;
        try {
          // Ids are matched as written in the URL, then percent-decoded as a browser would.
          section = [fragment, percentDecoded(fragment)]
            .map((candidate) => findSection(page, { fragment: candidate, doctool: doctool ?? null, maincontent: maincontent ?? null }))
            .find(Boolean);
        } catch (error) {
          if (error instanceof InvalidSelectorError) throw invalidParameter('maincontent', 'is not a valid CSS selector');
          throw error;
        }
        if (!section) throw new ProxyError(404, 'section_not_found', `The page has no section "${fragment}".`);
        content = toHtml(withAbsoluteReferences(section, pageUrlOf(url.href)));
      } else {
        const result = await context.api
          .embed({ url: url.href, doctool, doctoolversion, maincontent }, credential)
          .catch((error: unknown) => {
            if (error instanceof ProxyError && error.status === 404)
              throw new ProxyError(404, 'section_not_found', `No content found for ${fragment ? `section "${fragment}"` : 'this page'}.`);
            throw error;
          });
        // Upstream content gets the same link rewriting as the proxy's own extraction.
        content = absolutizeHtml(result.content, pageUrlOf(url.href));
      }
      const base = { url: url.href, fragment: fragment || null, external };
      if (form !== 'preview') return { ...base, content } satisfies EmbedSection;
      // What the link points to, read around the target in the page: what an empty target labels, the
      // blocks under a bare heading, the text after an empty definition.
      let preview = (fragment && targetPage && previewOfTarget(targetPage, fragment, pageUrlOf(url.href))) || previewOf(content);
      if (fragment && !targetPage && !hasTextBeyondTitle(preview)) {
        // The page's content from the upstream, with the reader's own credential.
        const page = await context.api
          .embed({ url: pageUrlOf(url.href), doctool, doctoolversion, maincontent }, credential)
          .catch(() => undefined);
        preview = (page && previewOfTarget(parseHtml(page.content), fragment, pageUrlOf(url.href))) ?? preview;
      }
      return { ...base, ...preview } satisfies EmbedPreview;
    },
  };
}
