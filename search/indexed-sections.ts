import type { SplitPage } from '../extraction/structure/split-page.ts';
import { apiNameOf, digestOf, type IndexedSection, isFullName, spacesAdded } from './fields.ts';
import { hasDocumentation } from './ranking.ts';
import { SECTION_NUMBER } from './titles.ts';
import { MIN_OVERVIEW_SHARE } from './weights.ts';

/**
 * A page's sections as the index keeps them, numbered from `first`: of a generated index or a hub
 * (`kind` 'index') only their headings.
 */
export function indexedSections(
  path: string,
  { title: pageTitle, name, sections, kind, documentTitle, entryShare }: SplitPage,
  first: number,
): IndexedSection[] {
  const changelog = isChangelog(name, sections);
  return sections.map((section, index) => {
    const indexed: IndexedSection = {
      id: first + index,
      path,
      pageSections: sections.length,
      pageTitle,
      pageName: name,
      anchor: section.id,
      title: section.title,
      // A hub (a heading and a table of contents) is found by its headings; the titles it lists are other pages'.
      content: kind === 'index' ? '' : section.text,
      role: section.role,
    };
    const runTogether = kind === 'index' ? undefined : spacesAdded(section.content, section.text);
    if (runTogether) indexed.runTogether = runTogether;
    const apiName = apiNameOf(section.role, section.id, section.title);
    if (apiName) indexed.apiName = apiName;
    if (indexed.apiName && hasDocumentation(indexed.content)) indexed.documented = true;
    // Where the page may be one object's (its title may yet lose the site's name): copies are told apart by their texts.
    if (indexed.content && (isFullName(pageTitle) || pageTitle === documentTitle)) indexed.digest = digestOf(indexed.content);
    if (changelog) indexed.changelog = true;
    if (entryShare >= MIN_OVERVIEW_SHARE) indexed.overview = Math.round(100 * entryShare) / 100;
    return indexed;
  });
}

/**
 * Release notes, found by structure: a title that says so (one release's: "Release 0.7.0", "Version 0.10.0 (December 17,
 * 2012)"; a history of releases), or a page whose headings are mostly versions.
 */
function isChangelog(name: string, sections: SplitPage['sections']): boolean {
  if (RELEASE_NOTES_TITLE.test(name.trim())) return true;
  const versions = sections.filter((section) => /(?:^|\s)v?\d+\.\d+(?:\.\d+)*\b/.test(section.title.replace(SECTION_NUMBER, ''))).length;
  return sections.length >= 4 && versions >= sections.length / 2;
}

const RELEASE_NOTES_TITLE = new RegExp(
  "what['’]?s new|change ?log|release notes|(?:release|change) history|^(?:change )?history$|^changes$|" +
    String.raw`^(?:release|version) v?\d+(?:\.\d+)+\b`,
  'i',
);
