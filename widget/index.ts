/**
 * The doclens elements for pages and apps that bundle them (`import 'doclens/widget'`): importing this
 * module defines <doclens-search>, <doclens-preview>, <doclens-versions>, <doclens-matches> and
 * <doclens-settings>, and their classes, events and strings are typed for TypeScript. The one-tag
 * loader the proxy serves (dist/doclens.js) instead loads each element's code on first use.
 */
export { DoclensSearch } from './search/doclens-search.ts';
export { DoclensPreview } from './preview/doclens-preview.ts';
export { DoclensVersions } from './versions/doclens-versions.ts';
export { DoclensMatches } from './matches/doclens-matches.ts';
export { DoclensSettings } from './settings/doclens-settings.ts';
export type { DoclensEventDetail, DoclensEventMap, DoclensEventName, DoclensWindowEventMap } from './shared/events.ts';
export { registerStrings, type Strings } from './shared/i18n.ts';
export type { ReaderSettings } from './settings/store.ts';
