import type { SearchBlock } from '../contract/index.ts';
import { hostedContent } from './fields.ts';
import { highlight, highlightExcerpts } from './highlight.ts';
import type { PageHit, SectionHit } from './pages.ts';
import { titleTerms } from './titles.ts';

/**
 * A page hit in the shapes of the Search API v3's results, the same from the docs host and from the
 * static mode's search in the browser.
 */

/** Longest section text a search result carries; highlights point into the rest. */
const MAX_BLOCK_CONTENT = 1000;

/** The URL path of a page: `guide/index.html` is served as `guide/`. */
export function pageUrlPath(file: string): string {
  return file === 'index.html' ? '' : file.replace(/(^|\/)index\.html$/, '$1');
}

export function titleHighlights(title: string, words: ReadonlySet<string>): string[] {
  const highlighted = highlight(title, words);
  return highlighted.includes('<span>') ? [highlighted] : [];
}

/** A section as a result's block: its text as the hosting service answers it, excerpts of it as a reader sees it. */
function blockOf({ section, matchedWords }: SectionHit): SearchBlock {
  const hosted = hostedContent(section);
  const content = hosted.length > MAX_BLOCK_CONTENT ? `${hosted.slice(0, MAX_BLOCK_CONTENT)}…` : hosted;
  // A section whose title says every word the search matched in it is told by its opening ("OrderingFilter": "Enable
  // queryset ordering…"), not by a use of the name in its code.
  const titleWords = titleTerms(section.title);
  const opening = matchedWords.size > 0 && [...matchedWords].every((word) => titleWords.has(word));
  const contentHighlights = highlightExcerpts(section.content, matchedWords, { opening });
  if (section.role) {
    return {
      type: 'domain',
      role: section.role,
      name: section.title,
      id: section.anchor,
      content,
      highlights: { name: titleHighlights(section.title, matchedWords), content: contentHighlights },
    };
  }
  return {
    type: 'section',
    id: section.anchor,
    title: section.title,
    content,
    highlights: { title: titleHighlights(section.title, matchedWords), content: contentHighlights },
  };
}

/** The sections of a page hit, as a result's blocks. */
export function resultBlocks(hit: PageHit): SearchBlock[] {
  return hit.sections.map(blockOf);
}
