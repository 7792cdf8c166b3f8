/**
 * Every weight and tier of the ranking, in one place. A section's score is BM25 per field (`field-search.ts`),
 * its fields joined as a disjunction-max query, summed over the query's terms (each by its best form:
 * the word, a longer word it starts, a spelling near it); then the rules of `ranking.ts` weigh it and
 * lift exact names and titles into tiers above the rest; pages are ranked by their sections (`pages.ts`).
 * Change one only with the real-docs suite's held-out half measured before and after (docs/real-docs.md).
 */

/**
 * What a word in each field weighs: a name or heading that holds a word says more than a paragraph that does.
 * An object's dotted name weighs less than its text (0.75, not 1; found by coordinate ascent on the tuning
 * halves): its module's and class's words are in every entry's name, so they tell its namesakes apart less
 * than its text does. Requests' and Dask's tuning MRR rise (0.967 → 1.000, 0.917 → 0.952), no held-out half
 * falls; 0.6 lowers Django's and Astropy's held-out MRR, 1.5 four held-out halves (docs/real-docs.md,
 * "Weights tuned jointly").
 */
export const FIELD_BOOST = { title: 3, apiName: 0.75, pageName: 2, lead: 2, content: 1 } as const;

/**
 * BM25+'s parameters. Sections differ in length by kind (a one-line API entry, a long section of a
 * guide), not by how much they are about a word: length weighs less than in BM25's usual form
 * (b = 0.75), a repeated word more (k = 2, not 1.2–1.5: a section that says a word often is about it;
 * from 1.5, SymPy's tuning half rose from 85.7% to 92.9% in the top 3, no site's held-out half fell,
 * MkDocs' held-out MRR rose 0.885 → 0.923; 2.5 lowered Kombu's and Node.js' held-out MRR); d is the
 * floor BM25+ gives any match. Length weighs per field (BM25F's b per field): a section's text is long
 * because it documents much (a function's whole docstring, a tutorial's chapter), which makes it no
 * less about the words it says often; a title is long because it names more than its subject. At 0.15
 * for text, SymPy's `lambdify` (a docstring of 17,000 characters) answers "turn an expression into a
 * numpy function" first, not third, and SymPy's and Kombu's held-out MRR rise (0.929 → 0.964, 0.853 →
 * 0.891); from 0.1 to 0.25 no site's held-out half falls, at 0.05 MkDocs' does.
 */
export const BM25 = { k: 2, b: { title: 0.3, apiName: 0.3, pageName: 0.3, lead: 0.3, content: 0.15 }, d: 0.5 } as const;

/** What a term's other fields than its best add, as a share of their scores (the tie breaker of Lucene's disjunction max). */
export const TIE_BREAKER = 0.3;

/**
 * What a longer word that a prefix starts weighs against the word itself, before its length is
 * counted (see `prefixWeight`): the reader may still be typing, or meant another word. From 0.4 to
 * 0.3 Astropy's "compound models" finds its guide second, not third (tuning MRR 0.844 → 0.856), and
 * no other figure moves (docs/real-docs.md, "Weights tuned jointly").
 */
export const PREFIX_WEIGHT = 0.3;

/** What a spelling one edit from the word typed weighs against the word itself, before the edits are counted. */
export const TYPO_WEIGHT = 0.3;

/**
 * The weight of a longer word `extra` letters past a prefix of `length` letters: closer completions
 * weigh more ("schedule" for "sched" more than "scheduling").
 */
export const prefixWeight = (length: number, extra: number) => (PREFIX_WEIGHT * (length + extra)) / (length + extra + 0.3 * extra);

/**
 * What the spelling the reader meant weighs when the site lacks the word typed: as much as the word
 * itself ("autocorelation function" is about autocorrelation, not about functions).
 */
export const MISSPELT_WEIGHT = 1;

/**
 * The weight of a spelling `distance` edits from the word typed, `length` letters long: `TYPO_WEIGHT`
 * when the site has the word typed too (in a few sections: it may be what the reader meant), else
 * `MISSPELT_WEIGHT`.
 */
export const typoWeight = (length: number, distance: number, typedFound: boolean) =>
  ((typedFound ? TYPO_WEIGHT : MISSPELT_WEIGHT) * length) / (length + distance);

/**
 * How many times more sections a spelling one edit further from the word typed must be in to be
 * preferred: "standardization" (two edits from "standardisation", hundreds of sections) before a
 * word one edit away on one page.
 */
export const CORRECTION_FREQUENCY = 10;

/**
 * What an edit counts, against one, when spellings as many edits from a typo are weighed by how common they are, where
 * the slips readers make most reach the spelling (`typoCost` in `edit-distance.ts`): a doubled letter typed once or a
 * letter typed twice, two neighbours swapped, a vowel for another. "pivot tabel" reads "table" (a swap), not "label" (in
 * more sections); "intersphinx maping" finds its page first, not second (extra tuning MRR 0.896 → 0.897; the 71 typo
 * queries of the eighth session 0.958 → 0.965); no figure of the 22 sites moves. 0.25 and 0 move the same ranks; at 0 a
 * spelling so reached outweighs any as near however rare ("expantion" also reads "expint"). Counted per edit, a likely
 * one beside another, spellings two edits away outweighed nearer ones ("unique constrants" read as "constructs").
 */
export const LIKELY_EDIT = 0.5;

/**
 * Typos tolerated in a word as typed, or in a name (kept behind its mark, `=drop_duplicates`): one from four
 * characters on, two from eight.
 */
export const typoEdits = (word: string): 0 | 1 | 2 => {
  const typed = word.startsWith('=') ? word.slice(1) : /^[a-z]+$/.test(word) ? word : '';
  return typed.length >= 8 ? 2 : typed.length >= 4 ? 1 : 0;
};

/**
 * The least share of its score that a name spelled in words (`out_of_sample` for "out of sample")
 * adds to its words' in a section (see `beyondWords` in `matching.ts`): a name is more than its
 * words, but does not count them twice. A half (a third before): SQLAlchemy's "isolation level"
 * finds its guide first, not second (tuning MRR 0.906 → 0.938), and no other figure moves; a quarter
 * lowered pandas' held-out MRR; from three quarters a guide on predicting out of sample falls below
 * the methods named `out_of_sample` (test "counts a name spelled in words beyond its words").
 */
export const SPELLED_NAME_SHARE = 0.5;

/**
 * What an object's sections weigh more when a query of several words names the object as code is written
 * (capitals past a word's first letter, an underscore or a dot: "ARIMA", `DataFrame`, `read_csv`): "forecast
 * with an ARIMA model" asks for the class `ARIMA`, not for the guides that mention it most. From 1.25 to 3
 * statsmodels' tuning half rises 78.6% → 85.7% in the top 3 (that query 5th → 1st) and no other figure moves;
 * a word in any case that is an object's own name (`model`, `table`) lowered five sites' held-out halves. A section
 * headed by the name alone (a setting: Celery's `task_acks_late`) weighs so too: the extra tuning queries' "task_acks_late
 * setting" finds its setting first, not third, and no other figure moves on the 22 sites.
 */
export const NAMED_AS_CODE_WEIGHT = 1.5;

/**
 * What a documented object's sections weigh more when the query names it in words (`named-in-words.ts`): by their
 * initials (`WLS` for "weighted least squares", `kstest`, `read_hdf`) or glued in CamelCase (`UnobservedComponents`),
 * those that say the most of its words; a section whose title holds such initials ("How to deploy with WSGI"), and a
 * section whose title or page's title is such a CamelCase name alone, as Markdown sites title them ("Class:
 * MockCallHistory" for "call history of mocked requests": undici's extra tuning queries 94.3% → 96.2% in the top 3, MRR
 * 0.827 → 0.856, no figure of the 22 sites moves). A
 * weight, not a tier: a guide titled by the words answers as well and stays first ("generalized least squares" finds
 * its notebook, then `GLS`, not 10th). On the extra tuning queries (304, 51 of them written for it) top-3 93.8% →
 * 96.7%, MRR 0.851 → 0.881, statsmodels' held-out MRR 0.791 → 0.803, no other figure moves; 2 gains less (objects only:
 * 94.7%, 0.866 against 96.1%, 0.873 at 3); 4 lowers SQLAlchemy's held-out MRR (0.933 → 0.900); as a tier (0.25 to 2)
 * tuning or held-out halves fall on one to seven sites (docs/real-docs.md, "seventh session"). Sections that only the
 * query's initials find (`initials.ts`: "Customizing DDL") weigh so beside those, never instead; so do names glued from
 * words cut short (`BayesGaussMI`): extra tuning queries 94.9% → 95.6% on 564, no figure of the 22 sites moves
 * (docs/real-docs.md, "eighth session"); so do names that abbreviate the words in an order of their own, half a word less
 * (`abbreviated-names.ts`: `ffill`, `ks_2samp`, `FTestAnovaPower`): extra 91.9% → 92.7% on 962, SciPy's held-out MRR
 * 0.910 → 0.949, no other figure of the 22 sites moves (docs/real-docs.md, "ninth session").
 */
export const NAMED_IN_WORDS_WEIGHT = 3;

/**
 * How many words less a name says of the words it abbreviates in an order of its own (`abbreviated-names.ts`) than one
 * read in the query's order: 0, 0.5 and 1 leave the 22 sites' figures the same; at 0.5 the extra tuning queries are
 * 92.7% in the top 3 (at 0, one query more, with every abbreviation level with names read in order; docs/real-docs.md,
 * "ninth session").
 */
export const ABBREVIATED_LESS = 0.5;

/**
 * What a documented member's sections weigh more when the query names its owner beside a word of its own name (`owners.ts`):
 * "deviance residuals of GLMResults" asks for `GLMResults.resid_deviance`, not for the class's page that lists it nor for
 * the namesakes on other results classes. On the extra tuning queries (586, 83 of them written for it) MRR 0.881 → 0.890,
 * no figure of the 22 sites moves; 1.5 gains less (0.889), 2.5 the same (0.890), 3 lowers Dask's and statsmodels' tuning
 * halves (0.952 → 0.917, 85.7% → 78.6% in the top 3: a member found beside its class's name by a word of its own, above
 * the class asked for). An owner typed as a word in lower case ("session", "task", "units") named modules and concepts too:
 * SQLAlchemy's, Astropy's and Celery's tuning halves and Astropy's, Celery's and Python's held-out halves fell
 * (docs/real-docs.md, eighth session).
 */
export const OWNER_NAMED_WEIGHT = 2;

/**
 * What a documented object's sections weigh when their text documents nothing (fewer words than
 * `MIN_ENTRY_WORDS` of `ranking.ts`: an empty entry, "alias of _chord"): its name, which the query may
 * hold in part, is all it answers. Kombu's "connection url" finds the guide's section "URLs" second, not
 * fourth behind empty entries named `get_queue_url` and `url` in modules named `connection`; from 0.1 to
 * 0.75 no other figure moves (0.9: third).
 */
export const UNDOCUMENTED_WEIGHT = 0.5;

/** Release notes mention everything once; their sections weigh this much unless the query asks for a release. */
export const CHANGELOG_WEIGHT = 0.25;

/** An overview's share of entries (lines that link to other pages) from which its sections weigh less. */
export const MIN_OVERVIEW_SHARE = 0.3;

/**
 * How much less a page made only of entries weighs (less in proportion on pages with fewer): the pages it sums up answer.
 * Not a class's entry, whose table lists its own members: statsmodels' extra tuning queries find `Probit` and
 * `NegativeBinomial` second, not third (MRR 0.797 → 0.804), and no figure of the 22 sites moves.
 */
export const OVERVIEW_DISCOUNT = 0.5;

/** The sections best by BM25 whose words' proximity is measured. */
export const PROXIMITY_CANDIDATES = 30;

/** Text of a section read for proximity: where a section's subject is said. */
export const PROXIMITY_CHARS = 2000;

/** Words this many places apart or less stand together; a section's score grows by up to its share of such pairs. */
export const NEAR = 3;

/**
 * Tiers (rule 1 of `ranking.ts`), which nothing but a tier lifts a section past: scores within a
 * tier are relative to the best (at most 1.5 with proximity), tiers `TIER_GAP` apart.
 */
export const TIER_GAP = 2;

/** Tier of a section whose title says exactly the query's words. */
export const TITLE_TIER = 1;

/**
 * Tier of a section of a page whose title says exactly the query's words: the page is about them, a
 * section so titled is part of a page about something else ("Generalized Linear Models", the page,
 * before the section "Generalized Linear Model" of "Internal Classes"). A quarter above `TITLE_TIER`:
 * statsmodels' tuning MRR 0.729 → 0.764, no other site's figures move (half: the same).
 */
export const PAGE_TITLE_TIER = 1.25;

/**
 * What a title that says the query's words as typed (plurals aside) adds to its tier (a section's or
 * a page's), above titles that say other words of the same stems: the stemmer makes one word of
 * "differential" and "differentiation". From 0.1 to 0.6 Kombu's held-out half rises 84.6% → 92.3%
 * in the top 3 (MRR 0.795 → 0.853 from 0.25) and no other figure moves; 0.25 leaves SymPy's
 * `Differential` before the heading "Differentiation"; at 0.75 statsmodels' held-out MRR falls. A lone word typed in the
 * plural is compared as typed (`saysAsTyped` in `titles.ts`): the extra tuning queries' "generators" (Python) 3rd → 1st, "websockets"
 * (undici) 2nd → 1st, no figure of the 22 sites moves.
 */
export const WRITTEN_TIER = 0.4;

/** A heading asking a question with every word of a query put as one (an FAQ's: PyMongo's cursor timeout 6th → 1st; no
 * suite figure moves). For every query, not only questions, Python's held-out MRR fell 0.922 → 0.889. */
export const QUESTION_TIER = 1;

/** Tier of an exact name (2 to 3: more for the object the site mentions most) and of a glossary entry asked for by "what is". */
export const NAME_TIER = 2;

/**
 * What a class adds to its exact name's tier: a class is what its name means, above the methods and attributes named
 * after it, however much the site mentions their owners (Celery's `Celery.AsyncResult` and `Task.AsyncResult` make a
 * `celery.result.AsyncResult`). Against no lift, any value from 1 (a whole tier) to 1.5 raises Kombu's held-out MRR
 * 0.891 → 0.942, the extra tuning queries' "AsyncResult" finds its class first, not third, and no other figure moves;
 * 0.75 moves nothing but that query (to 1st), 0.5 leaves it 2nd. Lifting
 * every object outside a class instead (functions too) lowered Dask's tuning MRR 0.952 → 0.905 (`DataFrame.map_partitions`
 * below the functions `map_partitions`).
 */
export const CLASS_NAME_LIFT = 1;

/**
 * What a class's or exception's exact name adds to its tier where its entry names it in full: where it is defined, above
 * the namesakes other classes hold (`nameLift` in `definitions.ts`). The extra tuning queries' "MessageStateError" (Kombu)
 * finds `kombu.exceptions` first, not 4th behind three `Message.MessageStateError`, "MaxRetriesExceededError" (Celery)
 * `celery.exceptions` first, not 2nd behind `Task.MaxRetriesExceededError`; no figure of the 22 sites moves. 0.5 lifts
 * neither past namesakes whose owner the site mentions most (up to a whole tier: see `NAME_TIER`); 2 moves the same two.
 */
export const DEFINITION_LIFT = 1;

/** Tier of a name that belongs to nothing (a built-in: `enumerate`), above every namesake's on modules, classes' too. */
export const GLOBAL_NAME_TIER = 4.5;

/**
 * What a copy of one docstring on a namesake weighs within its tier after the first (see `copiesAfterFirst` in `pages.ts`):
 * statsmodels' "plot the autocorrelation function" finds `plot_acf` second, not third behind a second `plot_sample_acorr`,
 * Dask's held-out MRR rises 0.827 → 0.828 and no other figure of the 22 sites moves; from 0.6 to 0.95 the same (such copies
 * tie).
 */
export const COPY_WEIGHT = 0.9;

/** How much of a page's score depends on the share of its sections that match (a long reference page that mentions a word once). */
export const FOCUS_WEIGHT = 0.5;

/**
 * Words besides stop words from which a query of plain words, none written as code, is a question of how to do something
 * (`howToWeights` in `questions.ts`): "publish a message with a routing key", "read a file line by line". From three, Django's
 * and Celery's held-out MRR fall (queries of three words name a concept as often as a task); from five nothing moves.
 */
export const HOW_TO_WORDS = 4;

/**
 * What a reference entry weighs for such a question (on a page that is no one object's): a guide says how, an entry whose
 * name or signature holds the question's words names a tool for it. At 0.5 and 0.6 Python's held-out half rises 93.3 % →
 * 100 % in the top 3 (MRR 0.900 → 0.922), no other figure of the 22 sites moves, and extra tuning queries rise: Kombu's
 * "publish a message with a routing key" 5th → 2nd, "retry publishing when the connection is lost" 6th → 2nd, "limit the
 * number of connections in the pool" 3rd → 1st, Python's "read a file line by line" 10th → 3rd (one falls, 1st → 2nd: "how
 * long to wait when connecting to the broker", the failover guide above the `Connection` entry). At 0.7 and 0.8 Python's held-out
 * MRR rises less (0.913, 0.907), not its top 3. Without sparing pages titled by one of their entries, SymPy's tuning query
 * "turn an expression into a numpy function" falls from 1st (to 4th at 0.6, its `lambdify` page below a guide). An object's own
 * page weighs so too where its entry holds half of the question's terms or fewer (`masked_inside` for "launch new tasks from
 * inside a running task"): on the extra tuning queries Dask's "profile memory and cpu usage" 6th → 2nd (below `memory_usage`
 * pages before), Celery's "change the rate limit of a task while the worker runs" 2nd → 1st, top-3 93.9 % → 94.1 %, MRR 0.864 → 0.866
 * on 576, and no figure of the 22 sites moves; fewer than half (at 0.6, 0.3 or 0.15): the same but that Dask query; every
 * object's page: SciPy's held-out MRR falls 0.910 → 0.897 and eight extra queries on pandas', Dask's, statsmodels' pages.
 */
export const REFERENCE_FOR_HOW_TO = 0.6;

/**
 * How much the query's words, each by its best section on a page, may add up to for a question of how to do something, as a
 * multiple of the page's best section (`groupByPage` in `pages.ts`): a task is answered in one place, and a long tutorial or
 * reference page that says each of the question's words in another section ("pass data from one callback to the next": the
 * tutorial's "Next steps", "Following links"…) ranks below the page whose section says how (Scrapy's "Passing additional data
 * to callback functions"). On the extra tuning queries top-3 94.1 % → 94.3 %, MRR 0.866 → 0.869 on 576 (the 73 task questions
 * of the eighth session 0.710 → 0.734), no figure of the 22 sites moves; 1.75 and 2.5 gain less (0.868); 1.5 moves as many
 * queries down as up (0.866). For every query, 2 lowers SQLAlchemy's held-out MRR (0.933 → 0.900) and 3 raises two extra queries.
 */
export const HOW_TO_COVERAGE = 2;

/**
 * Where the central namesake stands among methods of several classes that the query names in words: half again past the
 * best of them (`centralNamesakesFirst` in `owners.ts`). On the extra tuning queries (1,047) top-3 93.0% → 93.2%, MRR
 * 0.863 → 0.866 ("forward fill missing values" finds `DataFrame.ffill`, not `GroupBy.ffill`, and "backward fill"
 * `DataFrame.bfill`); no figure of the 22 sites moves, held-out halves included; 3 the same; 1.01 leaves `DataFrame.bfill`
 * 4th (a page's score is more than its best section's). Namesakes of any kind (a module's function beside a method)
 * moved a statsmodels query out of the top 10 (`CompareMeans.ttest_ind` before `NormalIndPower`); a query naming one
 * of their classes ("groupby forward fill") is left to `membersOfNamedOwners` and the words.
 */
export const CENTRAL_NAMESAKE_LEAD = 1.5;
