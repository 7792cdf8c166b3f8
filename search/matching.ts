import { editDistance, typoCost } from './edit-distance.ts';
import type { Correction, FieldHit, FieldSearch } from './field-search.ts';
import type { IndexedSection } from './fields.ts';
import { initialsRuns, namedByInitials } from './initials.ts';
import { nameTypedJoined } from './joined-names.ts';
import { isPrefix, type QueryReading, regionalSpellings } from './query.ts';
import { VERSION_NUMBER } from '../extraction/words/version-number.ts';
import { termsOf, WHOLE, WRITTEN_AS_CODE } from './terms.ts';
import { CORRECTION_FREQUENCY, PREFIX_WEIGHT, SPELLED_NAME_SHARE, typoEdits, typoWeight } from './weights.ts';

/** A section the query's terms found: what the ranking reads of it. */
export interface Found {
  id: number;
  score: number;
  /** The query's terms it holds. */
  queryTerms: string[];
  /** The score of each of them. */
  termScores: number[];
  /** The forms of them it holds, as the index keeps them. */
  terms: string[];
}

/** The shortest stem a word cut short is taken to start with. */
const MIN_STEM = 4;

/** A word found in this many sections or more is the word the reader meant: its spellings are not searched. */
const FEW_SECTIONS = 3;

/** The shortest part of a compound word searched apart ("cross" of "crossvalidation"). */
const MIN_PART = 3;

/**
 * The parts of a word written as one that the site writes apart ("crossvalidation" for "cross
 * validation", "cross-validation"), as terms: where both parts are in at least `FEW_SECTIONS`
 * sections and the word as one is `CORRECTION_FREQUENCY` times rarer than the rarer part. The
 * parts are searched besides the word. None for a word the site writes as one.
 */
function compoundParts(search: FieldSearch, typed: string): string[] {
  if (typed.length < 2 * MIN_PART) return [];
  const joined = search.sectionsWith(termsOf(typed)[0] ?? typed);
  let best: { parts: string[]; sections: number } | undefined;
  for (let at = MIN_PART; at <= typed.length - MIN_PART; at++) {
    const parts = [typed.slice(0, at), typed.slice(at)].flatMap((part) => termsOf(part).slice(0, 1));
    if (parts.length < 2) continue;
    const sections = Math.min(...parts.map((part) => search.sectionsWith(part)));
    if (sections >= FEW_SECTIONS && sections > CORRECTION_FREQUENCY * joined && (!best || sections > best.sections))
      best = { parts, sections };
  }
  return best?.parts ?? [];
}

/** The stems a word cut short may be the start of, longest first ("equivale", "equival" of "equivalen"). */
function stemsCutFrom(typed: string): string[] {
  const stems: string[] = [];
  for (let length = typed.length - 1; length >= Math.max(MIN_STEM, typed.length - 3); length--) stems.push(typed.slice(0, length));
  return stems;
}

/**
 * The words `findSections` may look up for a query: each whole, or as a prefix (with the words it
 * starts). Spellings near a word are left out (they need every term), and so are the parts of a
 * compound (which split counts is known only from the terms: `SearchIndex.partsFor` names the parts of
 * the terms the search reads).
 */
export function lookups(reading: QueryReading): { word: string; prefix: boolean }[] {
  // The initials of the whole query as a prefix (`IMAP4`); of a run of its words, whole, as the site spells them out.
  const found = initialsRuns(reading).map(({ term, whole }) => ({ word: term, prefix: whole }));
  for (const term of [...reading.terms, ...reading.spelled]) {
    found.push({ word: term, prefix: true });
    const typed = reading.typed.get(term);
    if (typed) {
      found.push({ word: typed, prefix: true }, ...stemsCutFrom(typed).map((word) => ({ word, prefix: false })));
      for (const spelling of regionalSpellings(typed)) for (const word of termsOf(spelling)) found.push({ word, prefix: false });
    }
  }
  return found;
}

/**
 * The sections that hold the query's terms and the names it spells, each with its score summed over
 * the terms; a name spelled in words counts beyond its words (see `beyondWords`).
 */
export function findSections(search: FieldSearch, reading: QueryReading, sectionOf: (id: number) => IndexedSection): Found[] {
  const found = new Map<number, Found>();
  const compounds = [...reading.typed.values()].flatMap((typed) => compoundParts(search, typed));
  const terms = [...new Set([...reading.terms, ...reading.spelled, ...compounds])];
  // Two words written as one that the site lacks and that hold a misspelt word ("balancd pool" for `BalancedPool`) are
  // searched as a misspelt word is.
  const joined = reading.spelled.filter((term) => /^[a-z]+$/.test(term) && !search.search(term, true).length);
  const misspelt = joined.length ? respelled(search, reading) : [];
  const typedAs = (term: string) =>
    reading.typed.get(term) ?? (joined.includes(term) && misspelt.some((word) => term.includes(word)) ? term : undefined);
  const hitsOf = new Map(terms.map((term) => [term, termHits(search, term, typedAs(term), reading.beingTyped.has(term))]));
  for (const [term, hits] of hitsOf) {
    const words = reading.spelled.includes(term) ? wordsOfName(term).filter((word) => word !== term && hitsOf.has(word)) : [];
    for (const [id, hit] of hits) {
      const wordsScore = words.reduce((sum, word) => sum + (hitsOf.get(word)!.get(id)?.score ?? 0), 0);
      const score = words.length ? beyondWords(hit.score, wordsScore) : hit.score;
      const section = found.get(id);
      if (!section) found.set(id, { id, score, queryTerms: [term], termScores: [score], terms: [...hit.words] });
      else {
        section.score += score;
        section.queryTerms.push(term);
        section.termScores.push(score);
        section.terms.push(...hit.words);
      }
    }
  }
  // Sections named by the initials of the query or of a run of its words: those its words do not find, and what the
  // initials add to those they find but for the run's words.
  for (const { id, score, words, run } of namedByInitials(search, reading, sectionOf)) {
    const section = found.get(id);
    if (!section) found.set(id, { id, score, queryTerms: [], termScores: [], terms: [...words] });
    else if (!run.whole && !run.terms.some((term) => section.queryTerms.includes(term))) {
      section.score += score;
      section.terms.push(...words);
    }
  }
  return [...found.values()];
}

/** The terms of the words a name joins with underscores (`out`, `sampl` of `out_of_sample`); none for another name. */
const wordsOfName = (name: string) => (name.startsWith(WHOLE) ? name.slice(WHOLE.length).split('_').flatMap(termsOf) : []);

/**
 * What a name spelled in words ("out of sample" for `out_of_sample`) adds in a section to its words'
 * scores there: what it scores past them, at least `SPELLED_NAME_SHARE` of its score. Its words are
 * counted once: a page on predicting out of sample is not outranked by every `out_of_sample` method
 * because the name says "out" and "sample" again.
 */
const beyondWords = (nameScore: number, wordsScore: number) => Math.max(SPELLED_NAME_SHARE * nameScore, nameScore - wordsScore);

/**
 * Sections that hold a form of a term, with the form's weight; `otherWord` for a stem that a word the reader went past
 * starts with: a word cut short is the last one, so that stem is another word ("prior" of "priorty").
 */
interface Form {
  hits: FieldHit[];
  weight: number;
  otherWord?: boolean;
}

/**
 * The sections that hold a term as written, each list with its weight: the term whole, or, when it
 * may be cut short, the words it starts, those the word as typed starts and the stems it starts with.
 */
function asWritten(search: FieldSearch, term: string, typed: string | undefined, beingTyped: boolean): Form[] {
  // A word the reader went past is whole when the site has it; one the site lacks may have been cut short.
  const whole = beingTyped && isPrefix(term) ? undefined : search.search(term, false);
  if (!isPrefix(term) || whole?.length) return [{ hits: whole!, weight: 1 }, ...asOwnStem(search, term, typed)];
  // The words a stem starts are the word typed cut short only where the word as typed starts a word of the site too: a
  // word the stemmer cut ("enviroments", "enviro…") that starts none is misspelt ("environments"), not "environ…".
  const cutShort = !typed || search.writesWordStarting(typed);
  const found: Form[] = [{ hits: search.search(term, true), weight: 1, otherWord: !cutShort }];
  if (typed && typed !== term) found.push({ hits: search.search(typed, true), weight: PREFIX_WEIGHT });
  // The stems cut from a last word that starts no word of the site are other words too: "signlas" is misspelt, not "sign…".
  for (const stem of typed ? stemsCutFrom(typed) : [])
    if (stem !== term) found.push({ hits: search.search(stem, false), weight: PREFIX_WEIGHT, otherWord: !beingTyped || !cutShort });
  return found;
}

/**
 * The word as typed, where the site has it as the stem of its other forms: Porter's stemmer cuts "embed" to `emb`, and
 * "embedding" and "embedded" to `embed`, which the word would otherwise miss.
 */
const asOwnStem = (search: FieldSearch, term: string, typed: string | undefined): Form[] =>
  typed && typed !== term && /^[a-z]+$/.test(typed) ? [{ hits: search.search(typed, false), weight: 1 }] : [];

/**
 * In how many sections the site has a word as written, not counting other words (see `Form`): a typo whose first
 * letters make a word is still read as the word meant.
 */
const sectionsAsWritten = (forms: Form[]) =>
  new Set(forms.flatMap(({ hits, otherWord }) => (otherWord ? [] : hits.map(({ id }) => id)))).size;

/**
 * The plain words of a query that the search reads as other spellings: words the site has in fewer
 * than `FEW_SECTIONS` sections as written but has near spellings or another region's spelling of,
 * and words written as one that the site writes apart (see `compoundParts`). How the real-docs suite
 * finds its typo and word-form queries.
 */
export function respelled(search: FieldSearch, reading: QueryReading): string[] {
  return [...reading.typed]
    .filter(([term, typed]) => {
      if (compoundParts(search, typed).length) return true;
      if (sectionsAsWritten(asWritten(search, term, typed, reading.beingTyped.has(term))) >= FEW_SECTIONS) return false;
      const regional = regionalSpellings(typed).flatMap(termsOf);
      const edits = typoEdits(typed);
      return (
        regional.some((other) => other !== term && search.sectionsWith(other) > 0) ||
        (edits !== 0 && search.corrections(term, typed, edits).length > 0)
      );
    })
    .map(([, typed]) => typed);
}

/**
 * The sections that hold a term of the query, by its best form in each: the term itself or a word
 * it starts (the reader may still be typing it), the word as typed as the start of a longer one,
 * the stems it starts with (the stem of a word cut short is no stem: "equivalen" is "equival…");
 * the same word as another region spells it; for a word the site hardly has, also its nearest
 * spellings (a typo), those of the word as typed and of its stem. Forms of one word never
 * add up: a section holding several counts the best.
 */
function termHits(
  search: FieldSearch,
  term: string,
  typed: string | undefined,
  beingTyped: boolean,
): Map<number, { score: number; words: string[] }> {
  const hits = new Map<number, { score: number; words: string[] }>();
  // A section scores by the term's best form in it; what it highlights is every form of the term it holds ("embed"
  // and "Embedding", two stems).
  const take = (results: FieldHit[], weight: number) => {
    for (const result of results) {
      const score = result.score * weight;
      const held = hits.get(result.id);
      if (!held) hits.set(result.id, { score, words: [...result.words] });
      else {
        held.score = Math.max(held.score, score);
        held.words.push(...result.words);
      }
    }
  };
  const forms = asWritten(search, term, typed, beingTyped);
  for (const { hits: found, weight } of forms) take(found, weight);
  if (!typed) return hits;
  // Another region's spelling is the same word ("behaviour", "behavior").
  for (const spelling of regionalSpellings(typed)) {
    const [other] = termsOf(spelling);
    if (other && other !== term) take(search.search(other, false), 1);
  }
  const edits = typoEdits(typed);
  const written = sectionsAsWritten(forms);
  if (edits === 0 || written >= FEW_SECTIONS) return hits;
  const typedFound = written > 0;
  for (const { word, distance } of search.corrections(term, typed, edits))
    take(search.search(word, false), typoWeight(word.length, distance, typedFound));
  return hits;
}

/**
 * How the site writes a token of the query that it lacks, where that is sure: the name it has nearest (see
 * `nearestName`); another region's spelling of a word ("generalised" where the site writes "generalized"); for a
 * word it has in no form (see `asWritten`), the one word it writes nearest, where one is nearest ("coroutnes",
 * "autocorelation"; a stem near it is no word: "balanc" of "balancd" is not taken), or the one term near it as typed
 * where a slip readers often make reaches it ("feild" is "field") or the word is written as code ("SkyCorod" is
 * `SkyCoord`). The query is read as the site writes it, by every rule: titles that say its words and words that stand
 * together too. None for a token the site has.
 * `last`: the token is the query's last, which the reader may have cut short.
 */
export function siteSpelling(search: FieldSearch, token: string, last: boolean): string | undefined {
  const joinedName = nameTypedJoined(search, token);
  if (joinedName) return joinedName;
  if (!/^[a-z]+$/i.test(token)) return nearestName(search, token);
  const [term] = termsOf(token);
  if (!term || search.search(term, true).length) return undefined;
  const typed = token.toLowerCase();
  const regional = regionalSpellings(typed).find((spelling) => {
    const [other] = termsOf(spelling);
    return other !== undefined && search.sectionsWith(other) > 0;
  });
  if (regional) return regional;
  const edits = typoEdits(typed);
  if (!edits || sectionsAsWritten(asWritten(search, term, typed, last)) > 0) return undefined;
  const corrections = search.corrections(term, typed, edits);
  if (corrections.length !== 1) return undefined;
  const [{ word, written }] = corrections as [Correction];
  if (written) return written;
  // A term written as its own stem ("field") may be a stem that is no word ("balanc" of "balancd"): taken where the typo
  // is near it as typed and is a slip readers often make of it ("feild"), or a name written as code ("SkyCorod").
  const distance = editDistance(typed, word);
  const sure = typoCost(typed, word, distance) < distance || WRITTEN_AS_CODE.test(token);
  return distance <= edits && sure ? recased(word, token) : undefined;
}

/**
 * The name the site has nearest a name of the query that it lacks whole and as the start of longer ones
 * (`drop_duplicats`, `scipy.optimize.minimze`), the most common among the nearest (see `FieldSearch.corrections`),
 * in the query's case where the two agree: a misspelt name is read as the name it stands for, exact names' tier
 * included. None for a plain word or a name the site has.
 */
function nearestName(search: FieldSearch, token: string): string | undefined {
  const [name] = termsOf(token);
  // A version number is no misspelt name: a release the site lacks is not another release.
  if (!name?.startsWith(WHOLE) || VERSION_NUMBER.test(token) || search.search(name, true).length) return undefined;
  const edits = typoEdits(name);
  const nearest = edits ? search.corrections(name, name, edits).find(({ word }) => word.startsWith(WHOLE)) : undefined;
  return nearest && recased(nearest.word.slice(WHOLE.length), token);
}

/** A name in lower case written in the case of the token it corrects, where their letters agree from either end. */
function recased(name: string, token: string): string {
  const lower = token.toLowerCase();
  let start = 0;
  while (start < Math.min(name.length, lower.length) && name[start] === lower[start]) start++;
  let end = 0;
  while (end < Math.min(name.length, lower.length) - start && name.at(-1 - end) === lower.at(-1 - end)) end++;
  return token.slice(0, start) + name.slice(start, name.length - end) + token.slice(token.length - end);
}
