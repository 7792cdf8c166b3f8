// The tables of docs/reference.md, made from the code's own tables: the proxy's SETTINGS, the ErrorCode
// union, the DoclensEventMap, and each element's JSDoc header (@event, @csspart, @slot, @cssproperty),
// decorated properties and public methods. `npm run docs:reference` writes them between the markers
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; test/docs checks that the page is up to date.
// Reading a custom-elements manifest instead would change only `componentApi`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS, settingDefault, TOKEN_ENV } from '../proxy/config.ts';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The elements, in the order the reference lists them. */
export const COMPONENTS = [
  'widget/search/doclens-search.ts',
  'widget/preview/doclens-preview.ts',
  'widget/versions/doclens-versions.ts',
  'widget/matches/doclens-matches.ts',
  'widget/settings/doclens-settings.ts',
] as const;

export interface Member {
  name: string;
  description: string;
}

export interface ComponentApi {
  tag: string;
  summary: string;
  attributes: (Member & { default: string })[];
  methods: Member[];
  events: Member[];
  parts: Member[];
  slots: Member[];
  cssProperties: Member[];
}

/** The text of a `/** … *\/` comment, its lines joined. */
function commentText(comment: string): string {
  return comment
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim())
    .join(' ')
    .trim();
}

/** `@tag name - description` entries of a JSDoc header (a description may go on over several lines). */
function tagEntries(header: string, tag: string): Member[] {
  const pattern = new RegExp(`@${tag} (\\S+) - ([\\s\\S]*?)(?=\\n \\*\\s*(?:@|\\n|$)|\\n \\*/|$)`, 'g');
  return [...header.matchAll(pattern)].map(([, name, description]) => ({
    name: name!,
    description: description!.replace(/\n \* ?/g, ' ').trim(),
  }));
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** What an element offers authors, read from its source. */
export function componentApi(path: string): ComponentApi {
  const source = read(path);
  const classAt = source.search(/^export class \w+ extends /m);
  const headerStart = source.lastIndexOf('/**', classAt);
  const header = source.slice(headerStart, classAt);
  const tag = /@tag (\S+)/.exec(header)?.[1];
  if (!tag) throw new Error(`${path}: the class's JSDoc header has no @tag`);
  const body = source.slice(classAt);
  const attributes = [
    ...body.matchAll(/(?:\/\*\*((?:[^*]|\*(?!\/))*)\*\/\s*)?@property\(([^)]*)\)\s+(\w+)[?!]?(?::[^=;\n]+)?(?:\s*=\s*([^;\n]+))?;/g),
  ]
    .filter(([, , options]) => !/attribute: false/.test(options!))
    .map(([, comment, options, name, fallback]) => {
      const attribute = /attribute: '([^']+)'/.exec(options!)?.[1] ?? name!.toLowerCase();
      if (comment === undefined) throw new Error(`${path}: the property ${name} has no comment to document it with`);
      return { name: attribute, description: commentText(`/**${comment}*/`), default: fallback?.trim() ?? '' };
    });
  // Public methods: indented once, no modifier; the constructor is no method of the API.
  const methods = [...body.matchAll(/(?:\/\*\*((?:[^*]|\*(?!\/))*)\*\/)?\n {2}(?:async )?([a-z]\w*)\(([^)]*)\)[^{\n]*\{/g)]
    .filter(([, , name]) => name !== 'constructor')
    .map(([, comment, name, parameters]) => {
      if (comment === undefined) throw new Error(`${path}: the method ${name} has no comment to document it with`);
      return { name: `${name}(${parameters!.replace(/\s+/g, ' ')})`, description: commentText(`/**${comment}*/`) };
    });
  return {
    tag,
    summary: commentText(header.slice(0, header.search(/\n \*\s*\n \* @tag/))),
    attributes,
    methods,
    events: tagEntries(header, 'event'),
    parts: tagEntries(header, 'csspart'),
    slots: tagEntries(header, 'slot'),
    cssProperties: tagEntries(header, 'cssproperty'),
  };
}

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}

function settingsTable(): string {
  const rows = SETTINGS.map((setting) => [
    `\`${setting.flag}\``,
    `\`${setting.env}\``,
    `\`${setting.key}\``,
    settingDefault(setting),
    setting.description,
  ]);
  rows.push(['(environment only)', `\`${TOKEN_ENV}\``, '—', '—', 'the upstream token in token mode']);
  return table(['Flag', 'Environment', 'Config key', 'Default', 'Meaning'], rows);
}

/** The ErrorCode union with the status its comment gives each group. */
export function errorCodes(): { code: string; status: string }[] {
  const source = read('contract/errors.ts');
  const union = source.slice(source.indexOf('export type ErrorCode'));
  const codes: { code: string; status: string }[] = [];
  let status = '';
  for (const line of union.split('\n')) {
    const comment = /^\s*\/\/ (.*)$/.exec(line);
    if (comment) status = comment[1]!;
    const code = /\| '([a-z_]+)'/.exec(line);
    if (code) codes.push({ code: code[1]!, status });
  }
  return codes;
}

function errorTable(): string {
  return table(
    ['Code', 'Status'],
    errorCodes().map(({ code, status }) => [`\`${code}\``, status]),
  );
}

/** The events of DoclensEventMap and DoclensWindowEventMap, with their comments and detail types. */
export function events(): { name: string; on: string; detail: string; description: string }[] {
  const source = read('widget/shared/events.ts');
  const found: { name: string; on: string; detail: string; description: string }[] = [];
  for (const [map, on] of [
    ['DoclensEventMap', 'the element (bubbles out of its shadow root)'],
    ['DoclensWindowEventMap', '`window`'],
  ] as const) {
    const start = source.indexOf(`export interface ${map} {`);
    const block = source.slice(start, source.indexOf('\n}', start));
    for (const [, comment, name, detail] of block.matchAll(/\/\*\* (.*?) \*\/\n\s+'([a-z-]+)': CustomEvent<(.*)>;/g)) {
      found.push({ name: name!, on, detail: detail!, description: comment! });
    }
  }
  return found;
}

function eventsTable(): string {
  return table(
    ['Event', 'Dispatched on', '`detail`', 'When'],
    events().map((event) => [`\`${event.name}\``, event.on, `\`${event.detail}\``, event.description]),
  );
}

/** The `--doclens-*` properties the shared theme reads, with their light-scheme defaults. */
export function themeProperties(): { name: string; fallback: string }[] {
  const source = read('widget/shared/theme.ts');
  const seen = new Map<string, string>();
  for (const [, name, fallback] of source.matchAll(/var\((--doclens-[a-z-]+), ([^;]+)\);/g)) {
    if (!seen.has(name!)) seen.set(name!, fallback!);
  }
  return [...seen].map(([name, fallback]) => ({ name, fallback }));
}

function themeTable(): string {
  return table(
    ['Property', 'Default (light scheme)'],
    themeProperties().map(({ name, fallback }) => [`\`${name}\``, `\`${fallback}\``]),
  );
}

function componentSection(path: string): string {
  const api = componentApi(path);
  const sections = [`### \`<${api.tag}>\``, '', `${api.summary} Source: \`${path}\`.`];
  const code = (text: string) => `\`${text}\``;
  const lists: [title: string, head: string[], rows: string[][]][] = [
    [
      'Attributes',
      ['Attribute', 'Default', 'Meaning'],
      api.attributes.map((item) => [code(item.name), item.default && code(item.default), item.description]),
    ],
    ['Methods', ['Method', 'What it does'], api.methods.map((item) => [code(item.name), item.description])],
    ['Events', ['Event', 'When'], api.events.map((item) => [code(item.name), item.description])],
    ['Parts (`::part()`)', ['Part', 'What'], api.parts.map((item) => [code(item.name), item.description])],
    ['Slots', ['Slot', 'What'], api.slots.map((item) => [code(item.name), item.description])],
    ['CSS custom properties it reads most', ['Property', 'What'], api.cssProperties.map((item) => [code(item.name), item.description])],
  ];
  for (const [title, head, rows] of lists) if (rows.length > 0) sections.push('', `**${title}**`, '', table(head, rows));
  return sections.join('\n');
}

/** Every generated block of docs/reference.md by its marker name. */
export function generatedBlocks(): Record<string, string> {
  return {
    settings: settingsTable(),
    errors: errorTable(),
    events: eventsTable(),
    theme: themeTable(),
    elements: COMPONENTS.map(componentSection).join('\n\n'),
  };
}

/** The page with every generated block replaced by its current text. */
export function withGeneratedBlocks(page: string): string {
  let result = page;
  for (const [name, text] of Object.entries(generatedBlocks())) {
    const start = `<!-- generated:${name} -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = result.indexOf(start);
    const to = result.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/reference.md has no ${start} … ${end} block`);
    result = `${result.slice(0, from + start.length)}\n${text}\n${result.slice(to)}`;
  }
  return result;
}

export const REFERENCE = 'docs/reference.md';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL(REFERENCE, root), withGeneratedBlocks(read(REFERENCE)));
  console.log(`${REFERENCE}: generated tables written`);
}
