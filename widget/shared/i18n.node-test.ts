import { describe, expect, it } from 'vitest';
import { format, languageName, registerStrings, stringsFor } from './i18n.ts';

describe('stringsFor', () => {
  it('falls back from a regional tag to its language, in any letter case or separator', () => {
    expect(stringsFor('en-GB')).toEqual(stringsFor('en'));
    expect(stringsFor('es-MX')).toEqual(stringsFor('es'));
    expect(stringsFor('ES_ar')).toEqual(stringsFor('es'));
    expect(stringsFor('es').searchButton).not.toBe(stringsFor('en').searchButton);
  });

  it('gives English for unknown, empty and missing languages', () => {
    const english = stringsFor('en');
    expect(english.searchButton).toBe('Search');
    for (const language of ['zz', 'x-klingon', '', null, undefined]) expect(stringsFor(language)).toEqual(english);
  });

  it('fills every string of a registered language that it leaves out with English, and merges later registrations', () => {
    registerStrings('fr', { searchButton: 'Rechercher' });
    registerStrings('FR', { close: 'Fermer' });
    const french = stringsFor('fr-CA');
    expect(french.searchButton).toBe('Rechercher');
    expect(french.close).toBe('Fermer');
    expect(french.noRecent).toBe(stringsFor('en').noRecent);
  });

  it('rewords a built-in language in part, and English rewordings reach the languages that fall back to it', () => {
    const spanishClose = stringsFor('es').close;
    registerStrings('es', { searchButton: 'Busca' });
    expect(stringsFor('es').searchButton).toBe('Busca');
    expect(stringsFor('es').close).toBe(spanishClose);
    registerStrings('en', { noRecent: 'Nothing searched yet' });
    expect(stringsFor('en-US').noRecent).toBe('Nothing searched yet');
    expect(stringsFor('zz').noRecent).toBe('Nothing searched yet');
    expect(stringsFor('fr').noRecent).toBe('Nothing searched yet');
  });
});

describe('format', () => {
  it('fills named placeholders with strings and numbers, each occurrence', () => {
    expect(format('{current} of {total}', { current: 3, total: 12 })).toBe('3 of 12');
    expect(format('{q} and {q}', { q: 'retry' })).toBe('retry and retry');
  });

  it('leaves placeholders without a value as they are, and values are not read as placeholders again', () => {
    expect(format('Searching {project} {version}', { project: 'Aurora' })).toBe('Searching Aurora {version}');
    expect(format('No results for "{query}"', { query: '{version}', version: '2.0' })).toBe('No results for "{version}"');
  });
});

describe('languageName', () => {
  it("names a language in the reader's language", () => {
    expect(languageName('es', 'en', 'Spanish (host)')).toBe('Spanish');
    expect(languageName('es', 'es', 'Spanish (host)')).toBe('español');
    expect(languageName('de', 'fr-FR', 'German (host)')).toBe('allemand');
  });

  it('gives the host’s name for a code Intl refuses', () => {
    expect(languageName('not a code', 'en', 'Custom')).toBe('Custom');
  });
});
