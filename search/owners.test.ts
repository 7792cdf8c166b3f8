import { describe, expect, it } from 'vitest';
import type { IndexedSection } from './fields.ts';
import { membersOfNamedOwners } from './owners.ts';

/** A documented object's section, as the index keeps it. */
const entry = (apiName: string, documented = true) => ({
  section: {
    id: 0,
    path: `${apiName}.html`,
    pageSections: 1,
    pageTitle: apiName,
    pageName: apiName,
    anchor: apiName,
    title: apiName,
    content: '',
    role: 'py:method',
    apiName,
    documented: documented || undefined,
  } as IndexedSection,
});

const named = (query: string, names: string[]) =>
  membersOfNamedOwners(
    names.map((name) => entry(name)),
    query.split(' '),
  ).map(({ section }) => section.apiName);

describe('membersOfNamedOwners', () => {
  it('finds the member of the class a query names beside a word of the member’s name', () => {
    const names = ['kit.FitResults.resid_deviance', 'kit.MixedResults.resid_deviance', 'kit.FitResults', 'kit.FitResults.summary'];
    expect(named('deviance residuals of FitResults', names)).toEqual(['kit.FitResults.resid_deviance']);
  });

  it('reads an owner written as code in any case, or as its words glued', () => {
    const names = ['kit.DataFrame.explode', 'kit.Series.explode', 'kit.FitResults.compare_f_test', 'kit.BaseResults.compare_f_test'];
    expect(named('explode a list column of a dataframe', names)).toEqual(['kit.DataFrame.explode']);
    expect(named('compare_f_test of two fit results', names)).toEqual(['kit.FitResults.compare_f_test']);
  });

  it('reads no owner typed in lower case whose name is a plain word: a module or a concept as often', () => {
    expect(named('session commit', ['kit.orm.Session.commit'])).toEqual([]);
    expect(named('Session commit', ['kit.orm.Session.commit'])).toEqual(['kit.orm.Session.commit']);
    expect(named('spectral equivalencies', ['kit.units.equivalencies.spectral'])).toEqual([]);
  });

  it('reads no member that only the owner’s own word names, nor one that documents nothing', () => {
    expect(named('Task options', ['kit.Task.Task'])).toEqual([]);
    expect(membersOfNamedOwners([entry('kit.FitResults.resid_deviance', false)], ['deviance', 'FitResults'])).toEqual([]);
  });
});
