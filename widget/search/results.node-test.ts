import { describe, expect, it } from 'vitest';
import type { SearchBlock, SearchResult } from '../../contract/index.ts';
import {
  firstChosen,
  isElsewhere,
  matchedForms,
  pageTitle,
  withoutTrailingMark,
  resultGroups,
  resultRows,
  resultUrl,
  rowLabel,
  rowTitle,
  sectionSnippet,
  sectionTitle,
  stepIndex,
  withHighlight,
} from './results.ts';

function block(id: string, fields: Partial<SearchBlock> = {}): SearchBlock {
  return { type: 'section', id, title: `Section ${id}`, content: `Text of ${id}`, highlights: { content: [] }, ...fields };
}

function result(path: string, blocks: SearchBlock[] = [], fields: Partial<SearchResult> = {}): SearchResult {
  return {
    type: 'page',
    project: { slug: 'aurora', alias: null },
    version: { slug: 'latest' },
    title: `Page ${path}`,
    domain: 'https://aurora.docs.example.org',
    path,
    highlights: { title: [] },
    blocks,
    ...fields,
  };
}

describe('result rows', () => {
  it('lists each page, then at most three of its sections, numbered in the order the arrows take', () => {
    const groups = resultGroups([
      result('/en/latest/a.html', [block('one'), block('two'), block('three'), block('four')]),
      result('/en/latest/b.html'),
    ]);
    expect(groups.map((group) => [group.page.id, group.sections.map((section) => section.id)])).toEqual([
      ['option-0', ['option-1', 'option-2', 'option-3']],
      ['option-4', []],
    ]);
    const rows = resultRows([result('/en/latest/a.html', [block('one')]), result('/en/latest/b.html')]);
    expect(rows.map((row) => [row.index, row.url, row.block?.id])).toEqual([
      [0, 'https://aurora.docs.example.org/en/latest/a.html', undefined],
      [1, 'https://aurora.docs.example.org/en/latest/a.html#one', 'one'],
      [2, 'https://aurora.docs.example.org/en/latest/b.html', undefined],
    ]);
  });

  it('encodes section ids in the fragment and survives an answer without blocks', () => {
    const rows = resultRows([
      result('/a.html', [block('module-aurora.retry policy')]),
      { ...result('/b.html'), blocks: undefined } as unknown as SearchResult,
    ]);
    expect(rows.map((row) => row.url)).toEqual([
      'https://aurora.docs.example.org/a.html',
      'https://aurora.docs.example.org/a.html#module-aurora.retry%20policy',
      'https://aurora.docs.example.org/b.html',
    ]);
  });

  it('builds page URLs from a domain with or without a scheme or a trailing slash, and a path with or without its slash', () => {
    expect(resultUrl(result('/en/latest/', [], { domain: 'aurora.docs.example.org' }))).toBe('https://aurora.docs.example.org/en/latest/');
    expect(resultUrl(result('en/latest/', [], { domain: 'http://127.0.0.1:8000/' }))).toBe('http://127.0.0.1:8000/en/latest/');
  });

  it('leaves out a result whose address cannot be built and keeps the others, every row a link with the words added', () => {
    const rows = resultRows([
      result('/en/latest/a.html', [block('one')]),
      result('/en/latest/b.html', [block('two')], { domain: 'https://docs.example.org:99999' }),
      result('/en/latest/c.html', [], { domain: 'javascript:alert(1)//' }),
      result('/en/latest/e.html', [], { domain: '' }),
      result('/en/latest/f.html', [], { domain: 'https://' }),
      result('/en/latest/g.html', [], { domain: 'docs.example.org/en' }),
      result('/en/%ff/d%ff.html'),
    ]);
    expect(rows.map((row) => [row.index, row.url])).toEqual([
      [0, 'https://aurora.docs.example.org/en/latest/a.html'],
      [1, 'https://aurora.docs.example.org/en/latest/a.html#one'],
      [2, 'https://aurora.docs.example.org/en/%ff/d%ff.html'],
    ]);
    for (const row of rows) expect(withHighlight(row.url, 'retry', 'https://aurora.docs.example.org/')).toContain('highlight=retry');
  });

  it("chooses first the entry a typed name finds on a page its title does not name (mpmath's hyp2f1), else the first row", () => {
    const entry = (name: string) => block(`mpmath.${name}`, { type: 'domain', title: undefined, name: `mpmath.${name}` });
    const hypergeometric = result('/en/latest/functions/hypergeometric.html', [entry('hyp1f1'), entry('hyp2f1')], {
      title: 'Hypergeometric functions',
    });
    const rows = resultRows([hypergeometric, result('/en/latest/functions/elliptic.html')]);
    expect(firstChosen(rows, 'hyp2f1 ')).toBe(2);
    expect(firstChosen(rows, 'mpmath.hyp2f1')).toBe(2);
    // A page the name titles, a plain word, words that are no name, a name the page's entries do not hold: the first row.
    expect(firstChosen(resultRows([{ ...hypergeometric, title: 'mpmath.hyp2f1' }]), 'hyp2f1')).toBe(0);
    expect(firstChosen(resultRows([result('/en/latest/glossary.html', [block('term-lease', { title: 'lease' })])]), 'lease')).toBe(0);
    expect(firstChosen(rows, 'hypergeometric')).toBe(0);
    expect(firstChosen(rows, 'hypergeometric series')).toBe(0);
    expect(firstChosen(rows, 'ellipk')).toBe(0);
    expect(firstChosen([], 'hyp2f1')).toBe(-1);
  });

  it("chooses for words the page's first section where its title says more of them than the page's (Jupyter's notebook)", () => {
    const titled = (title: string, section: string) =>
      resultRows([
        result(
          '/en/latest/public_server.html',
          [block('s', { title: section.replace(/<\/?span>/g, ''), highlights: { title: [section], content: [] } })],
          {
            title: title.replace(/<\/?span>/g, ''),
            highlights: { title: [title] },
          },
        ),
      ]);
    const server = titled('Running a <span>notebook</span> server', '<span>Embedding</span> the <span>notebook</span> in another website');
    expect(firstChosen(server, 'how do I embed the notebook in an iframe')).toBe(1);
    // As many of them: the page is about them.
    expect(firstChosen(titled('<span>Comms</span>', '<span>Comm</span> messages'), 'comms')).toBe(0);
    expect(firstChosen(titled('Quickstart', 'Registering Handlers'), 'how do I send errors to syslog')).toBe(0);
    // A version number is one word (django-filter's "Migrating to 2.0" on its migration guide).
    expect(firstChosen(titled('<span>Migration</span> Guide', '<span>Migrating</span> to <span>2.0</span>'), 'migrate to 2.0')).toBe(1);
  });

  it("chooses the entry a name typed in part or with a slip stands for (Logbook's handlers), the name as typed first", () => {
    const entry = (name: string) => block(`logbook.${name}`, { type: 'domain', title: undefined, name: `logbook.${name}` });
    const page = (names: string[]) => result('/en/latest/api/handlers.html', names.map(entry), { title: 'Handlers' });
    const rows = resultRows([page(['FileHandler', 'RotatingFileHandler', 'FingersCrossedHandler'])]);
    expect(firstChosen(rows, 'RotatingFileHand')).toBe(2);
    expect(firstChosen(rows, 'FingersCrosedHandler')).toBe(3);
    expect(firstChosen(rows, 'logbook.FileHandlr')).toBe(1);
    expect(firstChosen(rows, 'ZeroMQSubscriber')).toBe(0);
    // `set_encoder_options` stands first, and `set_encoder` is what was typed.
    const options = resultRows([page(['set_encoder_options', 'set_encoder'])]);
    expect(firstChosen(options, 'set_encoder_opt')).toBe(1);
    expect(firstChosen(options, 'set_encoder')).toBe(2);
  });

  it('names rows by their section, else their page', () => {
    const [page, section, apiObject] = resultRows([
      result('/a.html', [block('s'), block('d', { type: 'domain', title: undefined, name: 'aurora.retry' })]),
    ]);
    expect([page, section, apiObject].map((row) => rowLabel(row!))).toEqual(['Page /a.html', 'Section s', 'aurora.retry']);
  });
});

describe('highlighted texts', () => {
  it('takes the highlighted markup of a page title, a section title, an API name and a snippet, with the plain text beside it', () => {
    expect(pageTitle(result('/a.html', [], { highlights: { title: ['<span>Retry</span> policy'] } }))).toEqual({
      markup: '<span>Retry</span> policy',
      text: 'Page /a.html',
    });
    expect(sectionTitle(block('s', { highlights: { title: ['<span>S</span>'], content: [] } }))).toEqual({
      markup: '<span>S</span>',
      text: 'Section s',
    });
    expect(
      sectionTitle(
        block('d', {
          type: 'domain',
          title: undefined,
          name: 'aurora.retry',
          highlights: { name: ['<span>retry</span>'], title: ['ignored'], content: [] },
        }),
      ),
    ).toEqual({
      markup: '<span>retry</span>',
      text: 'aurora.retry',
    });
    expect(sectionSnippet(block('s', { highlights: { content: ['…<span>retry</span>…'] } })).markup).toBe('…<span>retry</span>…');
  });

  it('marks an excerpt "…" where it starts or stops inside the section\'s text, not at its edges or a sentence\'s end', () => {
    const content = 'By default every exception causes a retry. Often you want to retry only transient errors, such as timeouts & resets';
    const snippet = (excerpt: string) => sectionSnippet(block('s', { content, highlights: { content: [excerpt] } })).markup;
    const middle = 'every exception causes a <span>retry</span>. Often you';
    expect(snippet(middle)).toBe(`…${middle}…`);
    const opening = 'By default every exception causes a <span>retry</span>.';
    expect(snippet(opening)).toBe(opening);
    expect(snippet('only transient errors, such as timeouts &amp; resets')).toBe('…only transient errors, such as timeouts &amp; resets');
    // The answer's own marks stay the only ones.
    expect(snippet('…<span>retry</span>…')).toBe('…<span>retry</span>…');
  });

  it('cuts a plain snippet to 200 characters and tolerates missing fields', () => {
    expect(sectionSnippet(block('s', { content: 'x'.repeat(300) })).text).toHaveLength(200);
    const bare = { type: 'section', id: 'bare' } as unknown as SearchBlock;
    expect(sectionTitle(bare)).toEqual({ markup: undefined, text: '' });
    expect(sectionSnippet(bare)).toEqual({ markup: undefined, text: '' });
  });
});

describe('result links', () => {
  it('adds the searched words as the highlight parameter, keeping the query and fragment', () => {
    expect(withHighlight('https://d.example/en/a.html?x=1#part', 'retry policy', 'https://d.example/')).toBe(
      'https://d.example/en/a.html?x=1&highlight=retry+policy#part',
    );
    expect(withHighlight('/en/a.html', 'retry', 'https://d.example/en/b.html')).toBe('https://d.example/en/a.html?highlight=retry');
  });

  it('leaves the link alone without words', () => {
    expect(withHighlight('https://d.example/en/a.html#part', '', 'https://d.example/')).toBe('https://d.example/en/a.html#part');
  });
});

describe('rows that repeat the one above', () => {
  it(
    "leave out a page's first section titled as the page (its words go on the page's row), " + 'and a section the same as the one before',
    () => {
      const [group] = resultGroups([
        result(
          '/en/latest/web.html',
          [block('tornado-web', { title: 'tornado.web — RequestHandler and Application classes' }), block('a'), block('a')],
          {
            title: 'tornado.web — RequestHandler and Application classes',
          },
        ),
      ]);
      expect(group!.lead?.id).toBe('tornado-web');
      expect(group!.sections.map((row) => row.block!.id)).toEqual(['a']);
      expect(group!.sections[0]!.index).toBe(1);
    },
  );

  it("leave out a heading over nothing but an object's entry that names it (NiBabel's apply_affine, listed twice)", () => {
    const entry = block('nibabel.affines.apply_affine', { type: 'domain', title: undefined, name: 'apply_affine(aff, pts)' });
    const [group] = resultGroups([
      result('/reference/nibabel.affines.html', [block('apply-affine', { title: 'apply_affine', content: '' }), entry], {
        title: 'affines',
      }),
    ]);
    expect(group!.sections.map((row) => row.block!.id)).toEqual(['nibabel.affines.apply_affine']);
    // A heading with text of its own stays.
    const [told] = resultGroups([result('/reference/nibabel.affines.html', [block('apply-affine', { title: 'apply_affine' }), entry])]);
    expect(told!.sections.map((row) => row.block!.id)).toEqual(['apply-affine', 'nibabel.affines.apply_affine']);
  });
});

describe('a section titled as its page', () => {
  it("gives its words to the page's row wherever the search lists it (MkDocs' Customizing Your Theme, second)", () => {
    const [group] = resultGroups([
      result(
        '/en/latest/user-guide/customizing-your-theme.html',
        [block('using-the-theme-custom_dir'), block('top', { title: 'Customizing Your Theme' })],
        {
          title: 'Customizing Your Theme',
        },
      ),
    ]);
    expect(group!.lead?.id).toBe('top');
    expect(group!.sections.map((row) => row.block!.id)).toEqual(['using-the-theme-custom_dir']);
  });
});

describe('rows of a page that share a title', () => {
  it("are told apart by the owner their anchors name (cryptography's verify of two key derivation classes)", () => {
    const verify = (owner: string) =>
      block(`cryptography.hazmat.primitives.kdf.${owner.toLowerCase()}.${owner}.verify`, {
        type: 'domain',
        title: undefined,
        name: 'verify(key_material, expected_key)',
        content: `Parameters: key_material (bytes) – The input key material. Raises InvalidKey if it is not ${owner}'s.`,
      });
    const [group] = resultGroups([result('/en/latest/kdf.html', [verify('PBKDF2HMAC'), verify('Scrypt'), block('derive')])]);
    expect(group!.sections.map((row) => row.owner)).toEqual(['PBKDF2HMAC', 'Scrypt', undefined]);
    expect(group!.sections.map(rowLabel)).toEqual([
      'PBKDF2HMAC.verify(key_material, expected_key)',
      'Scrypt.verify(key_material, expected_key)',
      'Section derive',
    ]);
    // Titles of their own need no owner; nor does an anchor that is no full name.
    const [other] = resultGroups([result('/b.html', [verify('Scrypt'), block('verify', { title: 'verify(key_material, expected_key)' })])]);
    expect(other!.sections.map((row) => row.owner)).toEqual(['Scrypt', undefined]);
  });
});

describe('rows of class members whose titles leave their class out', () => {
  it("name it before the member's own name (Werkzeug's properties, as its docs host answers them)", () => {
    const member = (id: string, name: string, markup: string) =>
      block(id, { type: 'domain', title: undefined, name, highlights: { name: [markup], content: [] } });
    const [group] = resultGroups([
      result('/en/latest/wrappers.html', [
        member('werkzeug.wrappers.Request.args', 'property args: MultiDict[str, str]', 'property <span>args</span>: MultiDict[str, str]'),
        member('werkzeug.wrappers.Request.application', 'classmethod application(f)', 'classmethod application(f)'),
        member('werkzeug.wrappers.Request', 'class werkzeug.wrappers.Request(environ)', 'class werkzeug.wrappers.Request(environ)'),
      ]),
    ]);
    expect(group!.sections.map(rowLabel)).toEqual([
      'property Request.args: MultiDict[str, str]',
      'classmethod Request.application(f)',
      'class werkzeug.wrappers.Request(environ)',
    ]);
    expect(rowTitle(group!.sections[0]!).markup).toBe('property Request.<span>args</span>: MultiDict[str, str]');
  });

  it("name it where the search marked the words of the name apart (ezdxf's bounding_box of two classes)", () => {
    const member = (owner: string) =>
      block(`ezdxf.math.${owner}.bounding_box`, {
        type: 'domain',
        title: undefined,
        name: 'bounding_box',
        highlights: { name: ['<span>bounding</span>_<span>box</span>'], content: [] },
      });
    const [group] = resultGroups([result('/en/latest/math/core.html', [member('ConstructionArc'), member('ConstructionLine')])]);
    expect(group!.sections.map((row) => rowTitle(row).markup)).toEqual([
      'ConstructionArc.<span>bounding</span>_<span>box</span>',
      'ConstructionLine.<span>bounding</span>_<span>box</span>',
    ]);
  });
});

describe('isElsewhere', () => {
  const found = result('/a.html', [], { project: { slug: 'aurora-plugins', alias: 'plugins' }, version: { slug: '2.0' } });
  it('marks results of another project, or of another version when a version is searched', () => {
    expect(isElsewhere(found, 'aurora', undefined)).toBe(true);
    expect(isElsewhere(found, 'aurora-plugins', undefined)).toBe(false);
    expect(isElsewhere(found, 'aurora-plugins', '2.0')).toBe(false);
    expect(isElsewhere(found, 'aurora-plugins', 'latest')).toBe(true);
    expect(isElsewhere(found, undefined, undefined)).toBe(true);
  });
});

describe('stepIndex', () => {
  it('goes round the list, from none Down to the first and Up to the last', () => {
    expect([stepIndex(-1, 1, 4), stepIndex(-1, -1, 4)]).toEqual([0, 3]);
    expect([stepIndex(3, 1, 4), stepIndex(0, -1, 4), stepIndex(1, 1, 4)]).toEqual([0, 3, 2]);
  });
});

describe('the words a result page highlights', () => {
  it("are the reader's and the forms the search matched in the row, once each", () => {
    const [group] = resultGroups([
      result(
        '/en/latest/install.html',
        [
          block('installing', {
            highlights: { title: ['<span>Installing</span> it'], content: ['when <span>installed</span>, <span>install</span>'] },
          }),
        ],
        {
          highlights: { title: ['<span>Install</span>ation'] },
        },
      ),
    ]);
    const row = group!.sections[0]!;
    expect(matchedForms(row)).toEqual(['install', 'installing', 'installed']);
    expect(new URL(withHighlight(row.url, 'install', 'https://d.example/', matchedForms(row))).searchParams.get('highlight')).toBe(
      'install installing installed',
    );
    // A longer form typed marks the shorter ones the search matched too (django-filter's install guide for "installing").
    expect(new URL(withHighlight(row.url, 'installing', 'https://d.example/', matchedForms(row))).searchParams.get('highlight')).toBe(
      'installing install installed',
    );
  });

  it("of a page's row are those the search matched anywhere on the page: a name typed with a slip, as the search read it", () => {
    // jsonpickle's `BaseHandler` found for "BaseHandlr" on a page titled "jsonpickle API"; `set_encoder_options` for its start.
    const [group] = resultGroups([
      result(
        '/api.html',
        [
          block('jsonpickle.handlers.BaseHandler', {
            type: 'domain',
            name: 'jsonpickle.handlers.BaseHandler',
            highlights: { name: ['jsonpickle.handlers.<span>BaseHandler</span>'], content: [] },
          }),
          block('jsonpickle.set_encoder_options', {
            type: 'domain',
            name: 'jsonpickle.set_encoder_options',
            highlights: { name: ['jsonpickle.<span>set_encoder_options</span>'], content: ['<span>encoder</span>'] },
          }),
        ],
        { title: 'jsonpickle API' },
      ),
    ]);
    const highlight = (words: string) =>
      new URL(withHighlight(group!.page.url, words, 'https://d.example/', matchedForms(group!.page))).searchParams.get('highlight');
    expect(highlight('BaseHandlr')).toBe('BaseHandlr basehandler');
    expect(highlight('set_encoder_opt')).toBe('set_encoder_opt set_encoder_options');
  });

  it('take the spelling the search read a misspelt word as, not a word the typo is no near spelling of', () => {
    // Click's `password_option` found for "prompt for a pasword": "password" is one edit from "pasword".
    const [group] = resultGroups([
      result('/api.html', [
        block('click.password_option', {
          type: 'domain',
          name: 'click.password_option',
          highlights: { content: ['Add a --<span>password</span> option which <span>prompts</span> for a <span>passport</span>'] },
        }),
      ]),
    ]);
    const row = group!.sections[0]!;
    expect(
      new URL(withHighlight(row.url, 'prompt for a pasword', 'https://d.example/', matchedForms(row))).searchParams.get('highlight'),
    ).toBe('prompt for a pasword password prompts');
    // A form of the spelling the search read ("intreact" as "interact"): Pexpect's "interactive" marked in the row.
    const [windows] = resultGroups([
      result('/overview.html', [block('pexpect-on-windows', { highlights: { content: ['an <span>interactive</span> shell'] } })]),
    ]);
    const section = windows!.sections[0]!;
    expect(new URL(withHighlight(section.url, 'intreact', 'https://d.example/', matchedForms(section))).searchParams.get('highlight')).toBe(
      'intreact interactive',
    );
  });

  it("leave out the row's other words: a setting's module, not searched for, is no form of the reader's words", () => {
    // A Scrapy setting found for "download delay": its name matched whole, module and all.
    const [group] = resultGroups([
      result('/topics/settings.html', [
        block('std-setting-DOWNLOAD_DELAY', {
          type: 'domain',
          name: 'DOWNLOAD_DELAY',
          highlights: {
            name: ['<span>scrapy.settings.DOWNLOAD_DELAY</span>'],
            content: ['<span>downloading</span> the <span>delays</span>'],
          },
        }),
      ]),
    ]);
    const row = group!.sections[0]!;
    expect(new URL(withHighlight(row.url, 'download delay', 'https://d.example/', matchedForms(row))).searchParams.get('highlight')).toBe(
      'download delay download_delay downloading delays',
    );
  });
});

describe('titles', () => {
  it('drop the link labels and permalinks that end them, in any language, highlighted or not', () => {
    expect(withoutTrailingMark('pkg.strategies.composite(f)[source]')).toBe('pkg.strategies.composite(f)');
    expect(withoutTrailingMark('exception pkg.Invalid[source]')).toBe('exception pkg.Invalid');
    expect(withoutTrailingMark('pkg.load(path) [Quellcode]')).toBe('pkg.load(path)');
    expect(withoutTrailingMark('pkg.load(path)[ソース]')).toBe('pkg.load(path)');
    expect(withoutTrailingMark('Installation¶')).toBe('Installation');
    expect(withoutTrailingMark('<span>composite</span>(f)[<span>source</span>]')).toBe('<span>composite</span>(f)');
    const row = resultRows([result('/_modules/pkg.html', [block('pkg.f', { title: 'pkg.f(x)[docs]' })])])[1]!;
    expect(rowLabel(row)).toBe('pkg.f(x)');
    expect(sectionTitle(row.block!).text).toBe('pkg.f(x)');
  });

  it("keep a type's parameters", () => {
    for (const title of ['class pkg.Box[T]', 'pkg.Rows = list[int]', 'pkg.Map[str, Any]', 'Queue[bytes]', 'a[0]', 'C#'])
      expect(withoutTrailingMark(title)).toBe(title);
  });
});
