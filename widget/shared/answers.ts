import type {
  ContextTranslation,
  ContextVersion,
  EmbedPreview,
  ErrorBody,
  ErrorCode,
  Language,
  PageContext,
  SearchBlock,
  SearchResponse,
  SearchResult,
} from '../../contract/index.ts';

/**
 * Whether JSON read from the network has the shape `T`. `_shape` exists only for the type checker: it
 * makes a check's type invariant, so that a check whose type drifts from the contract's fails to compile.
 */
export interface Check<T> {
  (value: unknown): value is T;
  readonly _shape?: (value: T) => T;
}

/** A check for every field of `T`: a field added to the contract, removed or retyped fails to compile here. */
type Fields<T> = { [K in keyof T]-?: Check<T[K]> };

const check = <T>(test: (value: unknown) => boolean): Check<T> => test as Check<T>;

const string = check<string>((value) => typeof value === 'string');
const number = check<number>((value) => typeof value === 'number' && Number.isFinite(value));
const boolean = check<boolean>((value) => typeof value === 'boolean');
const oneOf = <L extends string>(...values: L[]) => check<L>((value) => values.includes(value as L));
const nullable = <T>(inner: Check<T>) => check<T | null>((value) => value === null || inner(value));
const optional = <T>(inner: Check<T>) => check<T | undefined>((value) => value === undefined || inner(value));
const arrayOf = <T>(inner: Check<T>) => check<T[]>((value) => Array.isArray(value) && value.every(inner));
const shape = <T>(fields: Fields<T>) =>
  check<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      (Object.entries(fields) as [string, (field: unknown) => boolean][]).every(([name, field]) =>
        field((value as Record<string, unknown>)[name]),
      ),
  );
/**
 * A field the contract requires that a hosting service answering the widget directly may leave out:
 * the widget reads it with a default.
 */
const omittable = <T>(inner: Check<T>) => check<T>((value) => value === undefined || inner(value));

const searchBlock = shape<SearchBlock>({
  type: oneOf('section', 'domain'),
  id: string,
  title: optional(string),
  name: optional(string),
  role: optional(string),
  content: omittable(string),
  highlights: omittable(
    shape<SearchBlock['highlights']>({ title: optional(arrayOf(string)), name: optional(arrayOf(string)), content: arrayOf(string) }),
  ),
});

const searchResult = shape<SearchResult>({
  type: oneOf('page'),
  project: shape({ slug: string, alias: nullable(string) }),
  version: shape({ slug: string }),
  title: omittable(string),
  domain: string,
  path: string,
  highlights: omittable(shape({ title: arrayOf(string) })),
  blocks: omittable(arrayOf(searchBlock)),
});

export const isSearchResponse = shape<SearchResponse>({
  count: number,
  next: nullable(string),
  previous: nullable(string),
  projects: arrayOf(shape({ slug: string, versions: arrayOf(shape({ slug: string })) })),
  query: string,
  results: arrayOf(searchResult),
  indexing: omittable(boolean),
});

export const isEmbedPreview = shape<EmbedPreview>({
  url: string,
  fragment: nullable(string),
  external: boolean,
  title: string,
  content: string,
  truncated: boolean,
  missing_fragment: boolean,
});

const language = shape<Language>({ code: string, name: string });

const samePage = { current: boolean, url: string, root_url: string, exists: nullable(boolean) };

const contextVersion = shape<ContextVersion>({
  ...samePage,
  slug: string,
  verbose_name: string,
  type: string,
  downloads: shape<ContextVersion['downloads']>({ pdf: optional(string), htmlzip: optional(string), epub: optional(string) }),
});

const contextTranslation = shape<ContextTranslation>({ ...samePage, slug: string, name: string, language });

export const isPageContext = shape<PageContext>({
  project: shape({ slug: string, name: string, language, default_version: string }),
  version: shape({ slug: string, verbose_name: string, type: string, status: nullable(oneOf('old', 'dev')) }),
  path: string,
  versions: arrayOf(contextVersion),
  translations: arrayOf(contextTranslation),
  stable: nullable(shape({ slug: string, verbose_name: string, release: string, url: string })),
  subprojects: number,
});

// Any code is read as one: a newer proxy may answer with a code this widget does not know yet.
export const isErrorBody = shape<ErrorBody>({
  error: shape({ code: check<ErrorCode>((value) => typeof value === 'string'), message: string }),
});
