/** What the index keeps of a section, and the fields of it that queries match. */

/** One section of one page, as indexed. */
export interface IndexedSection {
  /** Its place in the index (sections are numbered in the order they are added, from 0). */
  id: number;
  path: string;
  /** How many sections its page has: a page that mentions a word in few of many ranks below one about it. */
  pageSections: number;
  /** What search results call the page. */
  pageTitle: string;
  /** What the page calls itself, which queries match: a full name in the title would match its module's words. */
  pageName: string;
  /** Anchor of the section, empty for the content before the first heading. */
  anchor: string;
  title: string;
  /** Its text as a reader sees it (extraction's `PageSection.text`): what is indexed and what excerpts show. */
  content: string;
  /**
   * Places of spaces in `content` that the hosting service's text lacks, where its blocks run together
   * (see `hostedContent`); undefined where the two texts are the same.
   */
  runTogether?: number[];
  role: string | undefined;
  /** The full name of a documented object (`pandas.DataFrame.merge`): its anchor, where its title is a signature. */
  apiName?: string;
  /** On a page of release notes, which ranks below guides unless the query names a version. */
  changelog?: true;
  /** On an overview, how much of the page is entries linking elsewhere, when that is much. */
  overview?: number;
  /** Of a documented object: its text documents it (see `hasDocumentation`). */
  documented?: true;
  /** A digest of its text, which tells copies of one docstring apart without the text (see `withoutCopies`). */
  digest?: string;
}

/**
 * A short digest of a text (32 bits of FNV-1a, in base 36): the ranking compares texts by it, so that an
 * index fetched in parts ranks without the sections' texts. Texts compared are those of one name.
 */
export function digestOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Where `text` has spaces that `hosted` lacks, `hosted` being `text` with some spaces left out (as
 * extraction's two texts of a section are); undefined when they are the same, or differ otherwise.
 */
export function spacesAdded(hosted: string, text: string): number[] | undefined {
  if (hosted.length === text.length) return undefined;
  const places: number[] = [];
  let at = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === hosted[at]) at++;
    else if (text[index] === ' ') places.push(index);
    else return undefined;
  }
  return at === hosted.length ? places : undefined;
}

/** A section's text as the hosting service's Search API answers it: its blocks run together (see `runTogether`). */
export function hostedContent({ content, runTogether }: IndexedSection): string {
  if (!runTogether) return content;
  let hosted = '';
  let from = 0;
  for (const place of runTogether) {
    hosted += content.slice(from, place);
    from = place + 1;
  }
  return hosted + content.slice(from);
}

/** The fields the index keeps, by their ids (their places here). */
export const FIELDS = ['title', 'apiName', 'pageName', 'lead', 'content'] as const;

export type Field = (typeof FIELDS)[number];

/** A field's text in a section. */
export function fieldOf(section: IndexedSection, field: Field): string | undefined {
  if (field === 'lead') return leadOf(section.content);
  // A documented object's title is its signature: its name says what it is, its parameters' names do not.
  // Its name is the signature's last word: before it may stand `class`, `async`, a return type.
  if (field === 'title' && section.apiName) return ownName(section.title.replace(SIGNATURE_REST, '').split(/\s+/).at(-1) ?? '');
  if (field === 'title' || field === 'pageName') return ownName(section[field]);
  return section[field];
}

/** What follows a documented object's name in its signature: parameters, a value, a `[source]` label. */
const SIGNATURE_REST = /\s*(?:[([]|\s=\s).*$/s;

/** Words of a section's lead at most. */
const LEAD_WORDS = 30;

/**
 * A section's first sentence (at most `LEAD_WORDS` words), when more follows: where an API entry
 * states what it does (a docstring's summary line) and prose its subject, as a heading does; the rest
 * of a long section only mentions things.
 */
function leadOf(content: string): string {
  const end = content.search(/[.!?](?=\s|$)/);
  // A section of one sentence has no lead apart from its text.
  if (end === -1 || end > content.length / 2) return '';
  return content.slice(0, end).split(/\s+/, LEAD_WORDS).join(' ');
}

/**
 * A full name's own part (`quantity_input` of `astropy.units.quantity_input`): its modules are where it
 * lives, not what it is (every name in `astropy.units` would be about units); the API name field keeps
 * the full name. Other titles as they are.
 */
export function ownName(title: string): string {
  return isFullName(title) ? title.split(/\.|::/).at(-1)! : title;
}

/** A full name as Sphinx and similar generators write anchors: identifiers joined by dots. */
const API_NAME = /^[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::)[\p{L}_][\p{L}\p{N}_]*)*$/u;

/**
 * A section's `apiName`: the anchor of a documented object, where it is a full name: one with a role (a Sphinx domain's),
 * or a heading that is the object's signature (mkdocstrings: `<h3 id="click.core.Context.invoke">invoke(…)</h3>`).
 */
export const apiNameOf = (role: string | undefined, anchor: string, title: string) =>
  API_NAME.test(anchor) && (role || (isFullName(anchor) && isSignatureOf(title, anchor))) ? anchor : undefined;

/** Whether a title is the named object's own name, alone or opening its signature (`invoke(ctx)`, `meta: dict`). */
function isSignatureOf(title: string, anchor: string): boolean {
  const own = anchor.split(/\.|::/).at(-1)!;
  return title.startsWith(own) && /^(?:$|[\s(:=[<])/.test(title.slice(own.length));
}

/** A name with its modules or classes (`pandas.DataFrame.fillna`, `std::vector`), not a lone identifier. */
export const isFullName = (name: string) => API_NAME.test(name) && /\.|::/.test(name);

/** Whether a section is on a page generated for one object (titled by its full name, `pandas.DataFrame.fillna`): no guide. */
export const isObjectPage = (section: IndexedSection) => isFullName(section.pageTitle);

/** A documented object's kind (`method` of `py:method`). */
export const kindOf = (role: string | undefined) => role?.split(':')[1] ?? '';

/** Kinds of documented objects that belong to a class (Sphinx's object types: `py:method`, `cpp:member`…). */
const MEMBER_KINDS = new Set(['method', 'attribute', 'property', 'classmethod', 'staticmethod', 'member', 'abstractmethod']);

export const isMember = (role: string | undefined) => MEMBER_KINDS.has(kindOf(role));

/** `pandas.dataframe` of `pandas.DataFrame.merge`, '' for a name without an owner. */
export function ownerOf(apiName: string): string {
  const lower = apiName.toLowerCase();
  return lower.slice(0, Math.max(0, lower.search(/(?:\.|::)[^.:]*$/)));
}
