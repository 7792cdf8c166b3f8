import { findSection, InvalidSelectorError, toHtml, withAbsoluteReferences } from '../../extraction/embed.ts';
import { absolutizeHtml, pageUrlOf } from '../../extraction/html/links.ts';
import { parseHtml, type ParsedHtml } from '../../extraction/html/parse.ts';
import { cutFromListing, hasTextBeyondTitle, previewOf, previewOfTarget } from '../../extraction/preview.ts';
import { percentDecoded } from '../../extraction/structure/tree.ts';
import { choiceParam, requiredParam, stringParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import type { ProxyContext } from '../context.ts';
import type { EmbedPreview, EmbedSection } from '../../contract/index.ts';
import type { JsonEndpoint } from './cached-json.ts';
import type { EmbedDomains } from './domains.ts';

export const EMBED_PARAMS = ['url', 'doctool', 'doctoolversion', 'maincontent', 'form'] as const;
export const MAX_URL_LENGTH = 2048;

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
      const maincontent = stringParam(query, 'maincontent', 200);
      const form = choiceParam(query, 'form', ['full', 'preview'] as const) ?? 'full';
      const { url, external } = embedTarget(raw, context.domains);
      // The fragment is part of the key as the URL parser normalizes it: `#a b` and `#a%20b` are one.
      query.set('url', url.href);
      return { url, external, doctool, doctoolversion, maincontent, form };
    },
    async load({ url, external, doctool, doctoolversion, maincontent, form }, { credential }) {
      const fragment = url.hash.slice(1);
      // The page itself, once read: previews of a fragment look around the target in it.
      let targetPage: ParsedHtml | undefined;
      /** The section, as HTML with absolute links; undefined when the page has no section the fragment names. */
      const sectionOf = async (asked: URL): Promise<string | undefined> => {
        const askedFragment = asked.hash.slice(1);
        if (external) {
          const page = await context.pages.get(pageUrlOf(asked.href));
          targetPage = page;
          let section;
          try {
            // Ids are matched as written in the URL, then percent-decoded as a browser would.
            section = [askedFragment, percentDecoded(askedFragment)]
              .map((candidate) => findSection(page, { fragment: candidate, doctool: doctool ?? null, maincontent: maincontent ?? null }))
              .find(Boolean);
          } catch (error) {
            if (error instanceof InvalidSelectorError) throw invalidParameter('maincontent', 'is not a valid CSS selector');
            throw error;
          }
          return section ? toHtml(withAbsoluteReferences(section, pageUrlOf(asked.href))) : undefined;
        }
        const result = await context.api
          .embed({ url: asked.href, doctool, doctoolversion, maincontent }, credential)
          .catch((error: unknown) => {
            if (error instanceof ProxyError && error.status === 404) return undefined;
            throw error;
          });
        // Upstream content gets the same link rewriting as the proxy's own extraction.
        return result && absolutizeHtml(result.content, pageUrlOf(asked.href));
      };
      const notFound = () =>
        new ProxyError(404, 'section_not_found', `No content found for ${fragment ? `section "${fragment}"` : 'this page'}.`);
      let content = await sectionOf(url);
      // A link to an anchor the page lacks lands at the page's top: its preview is the page's opening.
      let missingFragment = false;
      if (content === undefined && fragment && form === 'preview') {
        content = await sectionOf(new URL(pageUrlOf(url.href)));
        missingFragment = content !== undefined;
      }
      if (content === undefined) throw notFound();
      const base = { url: url.href, fragment: fragment || null, external };
      if (form !== 'preview') return { ...base, content } satisfies EmbedSection;
      // What the link points to, read around the target in the page: what an empty target labels, the
      // blocks under a bare heading, the text after an empty definition.
      if (missingFragment) return { ...base, ...previewOf(content), missing_fragment: true } satisfies EmbedPreview;
      let preview = (fragment && targetPage && previewOfTarget(targetPage, fragment, pageUrlOf(url.href))) || previewOf(content);
      // A bare target, or a definition cut out of its code listing: the page around it tells what it is.
      if (fragment && !targetPage && (!hasTextBeyondTitle(preview) || cutFromListing(content))) {
        // The page's content from the upstream, with the reader's own credential.
        const page = await context.api
          .embed({ url: pageUrlOf(url.href), doctool, doctoolversion, maincontent }, credential)
          .catch(() => undefined);
        preview = (page && previewOfTarget(parseHtml(page.content), fragment, pageUrlOf(url.href))) ?? preview;
      }
      return { ...base, ...preview, missing_fragment: false } satisfies EmbedPreview;
    },
  };
}
