/**
 * Words that carry no subject in a reader's question or phrase ("how do I…", "which … are …"): the
 * search index neither keeps nor looks for them (unless a query has nothing else), and the page a
 * result opens does not mark them.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our should so than that the their them then there these they this those to was we were what whats ' +
    'when where which who whom why will with would you your s t'
  ).split(' '),
);

export const isStopWord = (word: string): boolean => STOP_WORDS.has(word.toLowerCase().replace(/['’]/g, ''));
