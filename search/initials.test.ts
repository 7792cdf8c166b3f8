import { describe, expect, it } from 'vitest';
import { splitSections } from '../extraction/sections.ts';
import { SearchIndex } from './index.ts';

/** A Sphinx page: a title, prose, and documented objects (`id` their full name, a signature their own name). */
function page(title: string, prose: string, objects: { name: string; text: string }[] = []): string {
  const entries = objects.map(
    ({ name, text }) =>
      `<dl class="py class"><dt class="sig sig-object py" id="${name}">${name.split('.').at(-1)}()</dt><dd>${text}</dd></dl>`,
  );
  const main = `<div role="main"><section id="top"><h1>${title}</h1><p>${prose}</p>${entries.join('')}</section></div>`;
  return `<html><head><title>${title} — Kit docs</title></head><body>${main}</body></html>`;
}

function site(pages: Record<string, string>): SearchIndex {
  const index = new SearchIndex();
  for (const [path, html] of Object.entries(pages)) index.addPage(path, splitSections(html, path));
  index.finish();
  return index;
}

const paths = (index: SearchIndex, query: string) => index.search(query).map((hit) => hit.path);

describe('a query named by its initials', () => {
  const kit = site({
    'core/ddl.html': page('Customizing DDL', 'Emit CREATE and DROP statements for tables, with events before and after each.'),
    'core/types.html': page('Column types', 'Each column definition gives the data type its database language stores.'),
    'core/engine.html': page('Engines', 'An engine speaks the language of its database and sends data.', [
      { name: 'kit.engine.ddl_compiler', text: 'Compiles statements that create tables.' },
    ]),
  });

  it('finds a page titled by the initials of the words when its text never spells them out', () => {
    expect(paths(kit, 'data definition language')[0]).toBe('core/ddl.html');
  });

  it('finds a title that holds the initials with a version after them', () => {
    const mail = site({
      'library/imaplib.html': page('imaplib — IMAP4 client', 'Connect to a server, log in and fetch mail.'),
      'library/email.html': page('email', 'Read a message from the internet; access its parts.'),
    });
    expect(paths(mail, 'internet message access protocol')[0]).toBe('library/imaplib.html');
  });

  it('reads the initials only of a query that is nothing but the words, and only as a word of a title', () => {
    // Another word beside them asks for something else.
    expect(paths(kit, 'store data definition language')).not.toContain('core/ddl.html');
    // A name that holds the initials among other words (`ddl_compiler`) is not named by them.
    const engines = site({
      'core/engine.html': page('Engines', 'Engines run statements.', [{ name: 'kit.engine.ddl_compiler', text: 'Compiles.' }]),
    });
    expect(paths(engines, 'data definition language')).toEqual([]);
  });

  const stats = site({
    'stats/bds.html': page('Time series tests', 'Tests of a series.', [
      { name: 'kit.stats.bds', text: 'BDS test statistic for independence of a time series.' },
    ]),
    'stats/tests.html': page('Hypothesis tests', 'Which test to run on your data.', [
      { name: 'kit.stats.t_test', text: 'Run a t test of the mean.' },
      { name: 'kit.stats.wald_test', text: 'Run a Wald test of the coefficients.' },
    ]),
    'release/0.8.html': page('Release 0.8', 'The Brock Dechert Scheinkman (BDS) test for nonlinear dependence is now available.'),
  });

  it('reads the initials of a run of the words beside another word where the site spells them out', () => {
    expect(paths(stats, 'brock dechert scheinkman test')[0]).toBe('stats/bds.html');
  });

  it('does not read the initials of words the site writes in many sections: they find their pages themselves', () => {
    const solvers = site({
      'integrate/ode.html': page('Integrators', 'Integrators of all kinds.', [
        { name: 'kit.integrate.ode', text: 'A generic interface to numeric integrators; solve with its methods.' },
      ]),
      'tutorial/ode.html': page('Ordinary differential equations', 'Solve an ordinary differential equation (ODE) in one call.'),
      'tutorial/stiff.html': page('Stiff problems', 'An ordinary differential equation (ODE) may be stiff; solve it so.'),
      'tutorial/events.html': page('Events', 'Stop solving an ordinary differential equation (ODE) at an event.'),
    });
    expect(paths(solvers, 'solve an ordinary differential equation').slice(0, 3)).not.toContain('integrate/ode.html');
  });

  it('finds it in static mode as the host does', () => {
    const parts = new Map([...kit.savedParts({ terms: 64, sections: 256, texts: 64 })].map((part) => [part.name, part.json]));
    const fetched = new SearchIndex();
    fetched.addPart(parts.get('head')!);
    for (let needed = fetched.partsFor('data definition language'); needed.length; needed = fetched.partsFor('data definition language'))
      for (const name of needed) fetched.addPart(parts.get(name)!);
    expect(paths(fetched, 'data definition language')).toEqual(paths(kit, 'data definition language'));
    const statsParts = new Map([...stats.savedParts({ terms: 64, sections: 256, texts: 64 })].map((part) => [part.name, part.json]));
    const statsFetched = new SearchIndex();
    statsFetched.addPart(statsParts.get('head')!);
    const query = 'brock dechert scheinkman test';
    for (let needed = statsFetched.partsFor(query); needed.length; needed = statsFetched.partsFor(query))
      for (const name of needed) statsFetched.addPart(statsParts.get(name)!);
    expect(paths(statsFetched, query)).toEqual(paths(stats, query));
  });
});
