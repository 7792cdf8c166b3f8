import { type IndexedSection, isObjectPage, ownName, ownerOf } from './fields.ts';
import type { RankedSection } from './ranking.ts';
import { COPY_WEIGHT, FOCUS_WEIGHT, HOW_TO_COVERAGE, NAME_TIER, TIER_GAP } from './weights.ts';

export interface SectionHit {
  section: IndexedSection;
  score: number;
  /** Terms of the section that matched (after prefix and typo expansion), as the index keeps them. */
  matchedWords: ReadonlySet<string>;
}

export interface PageHit {
  path: string;
  title: string;
  score: number;
  sections: SectionHit[];
  matchedWords: ReadonlySet<string>;
}

/** How many sections of one page a result shows. */
const SECTIONS_PER_PAGE = 3;

/**
 * Pages by their rules' tier, then by how well the page as a whole answers: each of the query's
 * words by its best section on the page (a page may answer "chains and groups" in a section on
 * chains and one on groups), at least its best section's score; and by how much of the page is
 * about the query (the share of its sections that match), so that a long
 * reference page that mentions a word in a few of its hundreds of entries ranks below the page about it. For a question of how
 * to do something (`howTo`), the words by their sections count up to `HOW_TO_COVERAGE` times the best section: a task is
 * answered in one place, not by a long page that says each of its words somewhere.
 */
export function groupByPage(ranked: RankedSection[], howTo = false): PageHit[] {
  const most = howTo ? HOW_TO_COVERAGE : Number.POSITIVE_INFINITY;
  ranked.sort((a, b) => b.score - a.score);
  const best = Math.max(...ranked.map((entry) => entry.base));
  const pages = new Map<string, PageHit & { tier: number; words: Map<string, number>; best: number; matched: number; of: number }>();
  for (const { section, result, score, base, tier } of ranked) {
    const hit: SectionHit = { section, score, matchedWords: new Set(result.terms) };
    let page = pages.get(section.path);
    if (!page) {
      page = {
        path: section.path,
        title: section.pageTitle,
        score: 0,
        sections: [],
        matchedWords: new Set(),
        tier,
        words: new Map(),
        best: base / best,
        matched: 0,
        of: section.pageSections,
      };
      pages.set(section.path, page);
    }
    page.matched++;
    page.sections.push(hit);
    for (const word of result.terms) (page.matchedWords as Set<string>).add(word);
    // The section's weight (release notes, proximity) carried to each of its words.
    const weight = base / result.score;
    for (const [index, term] of result.queryTerms.entries())
      page.words.set(term, Math.max(page.words.get(term) ?? 0, (weight * result.termScores[index]!) / best));
  }
  const tiers = new Map<PageHit, number>();
  const ranking = [...pages.values()].map(({ tier, words, best: bestSection, matched, of, ...page }) => {
    const covered = [...words.values()].reduce((sum, score) => sum + score, 0);
    const focus = matched / of;
    const hit = {
      ...page,
      score: TIER_GAP * tier + Math.max(bestSection, Math.min(covered, most * bestSection)) * (1 - FOCUS_WEIGHT + FOCUS_WEIGHT * focus),
    };
    tiers.set(hit, tier);
    return hit;
  });
  ranking.sort((a, b) => b.score - a.score);
  const pagesOnce = copiesAfterFirst(withoutCopies(ranking, tiers), tiers);
  for (const page of pagesOnce) page.sections = page.sections.slice(0, SECTIONS_PER_PAGE);
  return pagesOnce;
}

/**
 * Pages best first, an object documented on two pages (under its public name and the name of the
 * module that defines it: `astropy.stats.sigma_clip`, `astropy.stats.sigma_clipping.sigma_clip`) once:
 * at the better page's place, under the shorter name, the one readers import, unless the query names the other
 * exactly ("Array.map_blocks" for Dask's method, not its function `dask.array.map_blocks`). Namesakes on other
 * objects that share a docstring (`Series.rolling`, `DataFrame.rolling`) stay apart.
 */
function withoutCopies(ranking: PageHit[], tiers: Map<PageHit, number>): PageHit[] {
  const places = new Map<string, number[]>();
  const kept: PageHit[] = [];
  for (const page of ranking) {
    const key = copyKey(page);
    const place = key === undefined ? undefined : places.get(key)?.find((at) => sameObject(kept[at]!.title, page.title));
    if (place === undefined) {
      if (key !== undefined) places.set(key, [...(places.get(key) ?? []), kept.length]);
      kept.push(page);
    } else if (page.title.length < kept[place]!.title.length && !namedOnly(kept[place]!, page, tiers)) {
      const merged = { ...page, score: kept[place]!.score };
      tiers.set(merged, tiers.get(kept[place]!)!);
      kept[place] = merged;
    }
  }
  return kept;
}

/** Whether the query names one page of an object exactly (rule 1's exact name) and not the other. */
const namedOnly = (named: PageHit, other: PageHit, tiers: ReadonlyMap<PageHit, number>) =>
  tiers.get(named)! >= NAME_TIER && tiers.get(other)! < NAME_TIER;

/** Whether two full names of one name name one object: one's module holds the other's (it re-exports it). */
function sameObject(name: string, other: string): boolean {
  const [shorter, longer] = [ownerOf(name), ownerOf(other)].sort((a, b) => a.length - b.length) as [string, string];
  return longer.startsWith(`${shorter}.`);
}

/** What an object's page shares with the pages of its namesakes that copy its docstring: its own name and its text's digest. */
function copyKey(page: PageHit): string | undefined {
  const best = page.sections[0]?.section;
  return best?.digest && isObjectPage(best) ? `${ownName(best.pageTitle)}\0${best.digest}` : undefined;
}

/**
 * Pages best first, where the copies of one docstring on namesakes on other classes (a method a dozen results classes
 * inherit: statsmodels' `get_margeff`, `plot_sample_acorr`) weigh `COPY_WEIGHT` within their tier after the first: the
 * reader has read that text, and an answer nearly as good comes before it again.
 */
function copiesAfterFirst(ranking: PageHit[], tiers: ReadonlyMap<PageHit, number>): PageHit[] {
  const seen = new Set<string>();
  for (const page of ranking) {
    const key = copyKey(page);
    if (key === undefined) continue;
    if (!seen.has(key)) seen.add(key);
    else {
      const tier = tiers.get(page)!;
      page.score = TIER_GAP * tier + (page.score - TIER_GAP * tier) * COPY_WEIGHT;
    }
  }
  return ranking.sort((a, b) => b.score - a.score);
}
