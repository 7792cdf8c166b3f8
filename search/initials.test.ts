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

  it('finds it in static mode as the host does', () => {
    const parts = new Map([...kit.savedParts({ terms: 64, sections: 256, texts: 64 })].map((part) => [part.name, part.json]));
    const fetched = new SearchIndex();
    fetched.addPart(parts.get('head')!);
    for (let needed = fetched.partsFor('data definition language'); needed.length; needed = fetched.partsFor('data definition language'))
      for (const name of needed) fetched.addPart(parts.get(name)!);
    expect(paths(fetched, 'data definition language')).toEqual(paths(kit, 'data definition language'));
  });
});
