import { nameLift } from './definitions.ts';
import { fieldOf, type IndexedSection, isMember, isObjectPage, kindOf, ownerOf } from './fields.ts';
import type { Found } from './matching.ts';
import { namedInWords } from './named-in-words.ts';
import { centralNamesakesFirst, membersOfNamedOwners } from './owners.ts';
import { isPlain, type QueryReading } from './query.ts';
import { howToWeights } from './questions.ts';
import { VERSION_NUMBER } from '../extraction/words/version-number.ts';
import { termsOf, tokens, WRITTEN_AS_CODE } from './terms.ts';
import { gluedName, holdsAll, sameWords, saysAsTyped, titledByGluedName, titleTerms } from './titles.ts';
import {
  CHANGELOG_WEIGHT,
  GLOBAL_NAME_TIER,
  NAME_TIER,
  NAMED_AS_CODE_WEIGHT,
  NAMED_IN_WORDS_WEIGHT,
  NEAR,
  OVERVIEW_DISCOUNT,
  OWNER_NAMED_WEIGHT,
  PAGE_TITLE_TIER,
  PROXIMITY_CANDIDATES,
  PROXIMITY_CHARS,
  QUESTION_TIER,
  TIER_GAP,
  TITLE_TIER,
  UNDOCUMENTED_WEIGHT,
  WRITTEN_TIER,
} from './weights.ts';

/** What the ranking reads of the index besides the sections found. */
export interface RankedSite {
  section(id: number): IndexedSection;
  /** In how many sections of prose (not of the reference) a name is mentioned: how central its object is to the site. */
  mentions(name: string): number;
}

export interface RankedSection {
  section: IndexedSection;
  result: Found;
  /** BM25's score, weighed by rules 2 and 3. */
  base: number;
  /**
   * Rule 1's tier: 2 and up for an exact name, 1.25 for an exact page title, 1 for an exact section
   * title (0.4 more where a title says the words as typed) and a page about a lone word, 0 for the rest.
   */
  tier: number;
  /** The tier and the base relative to the best. */
  score: number;
}

/**
 * The rules on top of BM25, in order of strength:
 * 1. An exact name: a documented object whose full name ends with the query (`merge`,
 *    `DataFrame.merge`, `HealthCheck too_slow`) comes first, among namesakes the one on the object
 *    the site mentions most (its central object); then a page whose title says exactly the query's
 *    words, then a section so titled (or an object whose name runs them together: "qq plot" for
 *    `qqplot`); among those titles, the ones that say its words as typed; with them, for a question, a heading that asks
 *    it holding every word of it (an FAQ's entry). A
 *    glossary's entry is lifted so only when the query asks what a term is. A page about a lone word
 *    (its title holds the word, all its sections say it) ranks with a section titled by it.
 * 2. Release notes rank below the rest unless the query names a version or release notes; an
 *    overview's lines (a summary table of other pages) weigh less than the pages they sum up; an
 *    object's entry that documents nothing weighs less, one that a query of several words names as
 *    code is written ("an ARIMA model") more, and so do one it names by initials or glued words ("weighted least
 *    squares") and a member of a class the query names beside it ("deviance residuals of GLMResults"), among methods
 *    of several classes named in words the one on the class the site mentions most ("forward fill" for `DataFrame.ffill`); a
 *    reference page's entries weigh less for a question of how to do something.
 * 3. Sections where the query's words stand close together (a phrase) rank higher.
 */
export function rank(site: RankedSite, reading: QueryReading, results: Found[]): RankedSection[] {
  if (results.length === 0) return [];
  const { query, terms, asksForDefinition, typing } = reading;
  const asName = query.join('.').toLowerCase();
  const asksForReleases = asksForReleasesIn(query);
  const ranked = weighed(site, reading, results);
  for (const entry of proximityCandidates(reading, ranked)) entry.base *= 1 + proximity(entry.section, terms);
  const best = Math.max(...ranked.map((entry) => entry.base));
  // A name or title that says the whole query holds every one of its terms.
  const holdsQuery = (entry: RankedSection) =>
    entry.result.queryTerms.length >= terms.length && (!entry.section.changelog || asksForReleases);
  const exact = ranked.filter(holdsQuery);
  const named = exact.filter(
    (entry) => entry.section.apiName && endsWithName(entry.section.apiName, asName, query) && entry.section.documented,
  );
  // A word being typed stands for the shortest word the site has on its way ("skycoo" for "SkyCoord", not "SkyCoordInfo").
  const completion = typing && shortestCompletion(typing, ranked);
  // Names whole too: the title `task_acks_late` says "task_acks_late", not "task acks late".
  const titleStems = new Set(terms.map((term) => (term === typing && completion ? completion : term)));
  // A glossary's entry defines a term in brief and points to where it is explained: lifted only for "what is…". An object
  // whose name runs the query's words together is titled by them too ("qq plot" for `qqplot`).
  const glued = gluedName(query);
  const titled = ranked.filter(
    (entry) =>
      (asksForDefinition || entry.section.role !== GLOSSARY_ENTRY) &&
      ((holdsQuery(entry) &&
        (sameWords(fieldOf(entry.section, 'title')!, titleStems) || sameWords(fieldOf(entry.section, 'pageName')!, titleStems))) ||
        titledByGluedName(entry.section, glued)),
  );
  // A lone word that heads a guide ("blueprint", "chord") is the guide's subject first: a member of a class so named
  // (`Request.blueprint`) ranks with that heading, not above it, unless the query names the class too.
  const guideSubject =
    query.length === 1 && !/[.:]/.test(query[0]!) && titled.some((entry) => !entry.section.role && !isObjectPage(entry.section));
  const owners = new Set(named.map((entry) => ownerOf(entry.section.apiName!)));
  const mentions = new Map([...owners].map((owner) => [owner, owners.size > 1 ? site.mentions(owner.split('.').at(-1) ?? '') : 0]));
  const most = Math.max(1, ...mentions.values());
  // A name that belongs to nothing (a built-in: `enumerate`, `len`) is what the name means: above its namesakes on modules.
  // So is a class, and where it is defined (`nameLift`).
  for (const entry of named) {
    const owner = ownerOf(entry.section.apiName!);
    const lift = nameLift(entry.section);
    entry.tier =
      guideSubject && isMember(entry.section.role)
        ? TITLE_TIER
        : owner === ''
          ? GLOBAL_NAME_TIER
          : NAME_TIER + lift + mentions.get(owner)! / most;
  }
  // "What is…" asks for a definition: a glossary's entry answers it as a name answers a name. A page titled by the
  // query is about it; a section so titled is part of a page about something else.
  for (const entry of titled)
    if (entry.tier === 0)
      entry.tier =
        entry.section.role === GLOSSARY_ENTRY
          ? NAME_TIER
          : sameWords(fieldOf(entry.section, 'pageName')!, titleStems)
            ? PAGE_TITLE_TIER
            : TITLE_TIER;
  // A question a section's heading asks ("How do I change the timeout value for cursors?") and that holds every word of
  // the query is the question the reader put in other words ("how do I change the cursor timeout").
  if (reading.asksQuestion && terms.length > 1)
    for (const entry of ranked) {
      const title = fieldOf(entry.section, 'title')!;
      if (entry.tier === 0 && holdsQuery(entry) && title.trimEnd().endsWith('?') && holdsAll(titleTerms(title), titleStems))
        entry.tier = QUESTION_TIER;
    }
  // A title that says the query's words as typed says what the reader meant; one that says other words of their stems
  // may not ("differentiation" finds the heading "Differentiation" before the class `Differential`).
  const saysTyped = saysAsTyped(query);
  for (const entry of titled)
    if (entry.tier < NAME_TIER && [fieldOf(entry.section, 'title')!, fieldOf(entry.section, 'pageName')!].some(saysTyped))
      entry.tier += WRITTEN_TIER;
  // A lone word may ask what a page is about: one whose title holds it and all of whose sections say it ranks with a
  // section titled by the word on a page about something else (for "intersph…", the extension's page beside the
  // quickstart's heading "Intersphinx").
  if (query.length === 1)
    for (const entry of onPagesAbout(ranked, titleStems, asksForReleases)) if (entry.tier === 0) entry.tier = TITLE_TIER;
  for (const entry of ranked) entry.score = TIER_GAP * entry.tier + entry.base / best;
  return ranked;
}

/** Whether a query asks for release notes: it names a version or release notes. */
const asksForReleasesIn = (query: string[]) =>
  query.some((token) => VERSION_NUMBER.test(token) || /^(changelog|changes|release|releases)$/i.test(token));

/** The sections found with BM25's score weighed by rule 2, best first. */
export function weighed(site: RankedSite, { query, terms }: QueryReading, results: Found[]): RankedSection[] {
  const versions = new Set(query.filter((token) => VERSION_NUMBER.test(token)).map(versionOf));
  const asksForReleases = asksForReleasesIn(query);
  // A lone word is rule 1's exact name; among other words, one written as code names an object.
  const asCode = query.length > 1 ? query.filter((token) => WRITTEN_AS_CODE.test(token)) : [];
  const sections = results.map(({ id }) => site.section(id));
  const howTo = howToWeights(query, terms.length, sections);
  const ranked: RankedSection[] = results.map((result, index) => {
    const section = sections[index]!;
    // Release notes weigh less, unless the query asks for them; then the notes of the version it names
    // (in their title, not in passing) weigh more.
    const weight = !section.changelog
      ? 1
      : !asksForReleases
        ? CHANGELOG_WEIGHT
        : tokens(`${section.title} ${section.pageName}`).some((token) => versions.has(versionOf(token)))
          ? 1 / CHANGELOG_WEIGHT
          : 1;
    // An overview's line on an object is the object's page in brief: that page answers. A class's table of its own
    // members is the class's documentation (statsmodels' `TTestIndPower` lists `power`, `solve_power`).
    const overview = section.apiName && kindOf(section.role) === 'class' ? 1 : 1 - OVERVIEW_DISCOUNT * (section.overview ?? 0);
    // An object's entry that documents nothing answers its name alone; one the query names as code is asked for, and
    // so is a section headed by that name (a setting: `task_acks_late`).
    const entry = !section.apiName
      ? asCode.includes(section.title.trim())
        ? NAMED_AS_CODE_WEIGHT
        : 1
      : !section.documented
        ? UNDOCUMENTED_WEIGHT
        : asCode.some((token) => namesObject(section.apiName!, token))
          ? NAMED_AS_CODE_WEIGHT
          : 1;
    const base = result.score * weight * overview * entry * howTo(section, result.queryTerms.length);
    return { section, result, base, tier: 0, score: 0 };
  });
  const namedByWords = namedInWords(ranked, query);
  for (const named of namedByWords) named.base *= NAMED_IN_WORDS_WEIGHT;
  centralNamesakesFirst(namedByWords, query, (name) => site.mentions(name));
  for (const member of membersOfNamedOwners(ranked, query)) member.base *= OWNER_NAMED_WEIGHT;
  return ranked.sort((a, b) => b.base - a.base);
}

/** The sections whose text rule 3 reads (the start of it): the best weighed ones, for a query of more than one word. */
export function proximityCandidates({ terms }: QueryReading, ranked: RankedSection[]): RankedSection[] {
  return new Set(terms.filter(isPlain)).size > 1 ? ranked.slice(0, PROXIMITY_CANDIDATES) : [];
}

/**
 * The shortest word of the found sections' titles that a word being typed starts, among equals the one
 * most titles hold; else the longest stem it was cut from ("equival" of "equivalen"). Titles, not
 * text: text may run words together.
 */
function shortestCompletion(typing: string, found: readonly RankedSection[]): string | undefined {
  const completions = new Map<string, number>();
  let longestStem: string | undefined;
  const seen = new Set<string>();
  for (const { section } of found) {
    for (const title of [section.title, section.pageName]) {
      if (seen.has(title)) continue;
      seen.add(title);
      for (const word of tokens(title).flatMap(termsOf)) {
        if (!isPlain(word)) continue;
        if (word.startsWith(typing)) completions.set(word, (completions.get(word) ?? 0) + 1);
        if (typing.startsWith(word) && word.length >= MIN_COMPLETED_STEM && (!longestStem || word.length > longestStem.length))
          longestStem = word;
      }
    }
  }
  const [best] = [...completions].sort(([a, aTitles], [b, bTitles]) => a.length - b.length || bTitles - aTitles);
  return best?.[0] ?? longestStem;
}

/** The shortest stem a word being typed may stand for. */
const MIN_COMPLETED_STEM = 4;

/**
 * Whether a full name ends with the query's words joined by dots, as written: names are case-sensitive
 * ("blueprint", the concept, does not name the class `Blueprint`; `SECRET_KEY` is not `secret_key`).
 */
function endsWithName(apiName: string, name: string, query: string[]): boolean {
  return namesObject(apiName.toLowerCase(), name) && namesObject(apiName, query.join('.'));
}

/** Whether a full name's last parts are a name as written (`ARIMA` of `statsmodels.tsa.arima.model.ARIMA`). */
const namesObject = (apiName: string, name: string) => {
  const written = apiName.replaceAll('::', '.');
  return written === name || written.endsWith(`.${name}`);
};

/** A version number as a query or a title writes it, without its "v" (`2.1` of `v2.1`). */
const versionOf = (token: string) => token.toLowerCase().replace(/^v/, '');

/** The role of a glossary's entry (Sphinx's `std:term`). */
const GLOSSARY_ENTRY = 'std:term';

/** Words of documentation below which an entry documents nothing (an empty entry, "alias of _chord"): no answer to lift. */
const MIN_ENTRY_WORDS = 4;

/**
 * Whether a documented object's text documents it: at least MIN_ENTRY_WORDS words (read when it is
 * indexed: ranking reads no text but rule 3's).
 */
export const hasDocumentation = (content: string) => tokens(content).length >= MIN_ENTRY_WORDS;

/**
 * The sections found on pages whose title holds the terms (not only them) and all of whose sections were found;
 * a page generated for one object is about the object (`join_skycoord` is not about `SkyCoord`).
 */
function onPagesAbout(ranked: RankedSection[], terms: ReadonlySet<string>, asksForReleases: boolean): RankedSection[] {
  const counted = ranked.filter((entry) => (!entry.section.changelog || asksForReleases) && !isObjectPage(entry.section));
  const found = new Map<string, number>();
  for (const { section } of counted) found.set(section.path, (found.get(section.path) ?? 0) + 1);
  return counted.filter(
    ({ section }) => found.get(section.path) === section.pageSections && holdsAll(titleTerms(fieldOf(section, 'pageName')!), terms),
  );
}

/**
 * Share of the query's neighbouring word pairs that stand within `NEAR` words of each other in the
 * section's title and the start of its text (0 to 1).
 */
function proximity(section: IndexedSection, terms: string[]): number {
  const wanted = terms.filter(isPlain);
  if (wanted.length < 2) return 0;
  const positions = new Map<string, number[]>(wanted.map((term) => [term, []]));
  let position = 0;
  for (const text of [section.title, section.content.slice(0, PROXIMITY_CHARS)]) {
    for (const token of tokens(text)) {
      // An identifier's parts stand side by side.
      position++;
      for (const term of termsOf(token)) if (isPlain(term)) positions.get(term)?.push(position);
    }
    position += NEAR + 1;
  }
  let near = 0;
  for (let index = 1; index < wanted.length; index++) {
    const before = positions.get(wanted[index - 1]!)!;
    const after = positions.get(wanted[index]!)!;
    if (before.some((at) => after.some((other) => Math.abs(other - at) <= NEAR))) near++;
  }
  return near / (wanted.length - 1);
}
