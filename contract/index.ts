/**
 * The wire contract: the JSON the proxy answers and the widget reads. Types only, so that the proxy's
 * handlers, the widget's client and the tests' fakes all check against one definition (`satisfies`)
 * and a changed shape fails to compile wherever it is built or read.
 */
import type { EmbedPreview, EmbedSection } from './embed.ts';
import type { PageContext } from './page-context.ts';
import type { SearchResponse } from './search.ts';

export type { EmbedPreview, EmbedSection } from './embed.ts';
export type { ErrorBody, ErrorCode } from './errors.ts';
export type { ContextTranslation, ContextVersion, Language, PageContext, VersionStatus } from './page-context.ts';
export type { SearchBlock, SearchedProject, SearchResponse, SearchResult } from './search.ts';

/** A successful answer of one of the widget's endpoints. */
export type ProxyAnswer = SearchResponse | EmbedSection | EmbedPreview | PageContext;
export type { StaticPageList, StaticPreviewFile, StaticPreviews, StaticProject, StaticSiteFile, StaticVersion } from './static.ts';
