import { describe, expect, it } from 'vitest';
import { demoPage } from '../../test/fixtures/demo.ts';
import { extractSection } from './embed.ts';
import { parseHtml } from './parse.ts';
import { isLoneHeading, previewOf, sectionUnderHeading } from './preview.ts';

const base = 'https://docs.example.org/en/latest/';

function section(path: string, fragment: string): string {
  return extractSection(parseHtml(demoPage(`aurora/en/latest/${path}`)), `${base}${path}`, { fragment, doctool: 'sphinx' })!;
}

describe('previewOf', () => {
  it('titles a glossary term by the term and shows its definition', () => {
    const preview = previewOf(section('glossary.html', 'term-lease'));
    expect(preview.title).toBe('lease');
    expect(preview.content).toContain('A time-limited claim of a worker on a run.');
    expect(preview.content).not.toContain('<dt');
    expect(preview.content).not.toContain('headerlink');
  });

  it('titles an API entry by its name and keeps the signature first', () => {
    const preview = previewOf(section('api/scheduler.html', 'aurora.Scheduler.add_job'));
    expect(preview.title).toBe('add_job');
    expect(preview.content).toMatch(/^<dt class="sig sig-object py"/);
  });

  it('takes the heading as title and the first blocks of a long section, flagged as truncated', () => {
    const html = extractSection(parseHtml(demoPage('aurora/en/latest/architecture.html')), `${base}architecture.html`, {})!;
    const preview = previewOf(html, { maxBlocks: 2, maxChars: 4000 });
    expect(preview.title).toBe('Architecture');
    expect(preview.truncated).toBe(true);
    expect(preview.content).toMatch(/^<p>This page explains how the parts of Aurora fit together/);
    expect(preview.content).not.toContain('The scheduler loop');
  });

  it('bounds the size even when the first block alone is too large', () => {
    const code = `<section id="x"><h2>Listing</h2><pre>${'line of code\n'.repeat(2000)}</pre></section>`;
    const preview = previewOf(code, { maxBlocks: 3, maxChars: 1000 });
    expect(preview.title).toBe('Listing');
    expect(preview.content.length).toBeLessThanOrEqual(1000);
    expect(preview.content).toMatch(/^<pre>line of code/);
    expect(preview.truncated).toBe(true);
  });
});

describe('sectionUnderHeading', () => {
  it('gives a MkDocs heading the blocks under it, up to the next heading of its rank', () => {
    const html = demoPage('skyline/en/latest/faq/index.html');
    const page = parseHtml(html);
    const heading = [...html.matchAll(/<h([23]) id="([^"]+)"/g)];
    const [, rank, id] = heading[0]!;
    const section = sectionUnderHeading(page, id!, 'https://docs.example.org/en/latest/faq/')!;
    expect(section).toMatch(new RegExp(`^<h${rank} id="${id}"`));
    expect(isLoneHeading(section)).toBe(false);
    const next = heading.find(([, otherRank], index) => index > 0 && Number(otherRank) <= Number(rank));
    if (next) expect(section).not.toContain(`id="${next[2]}"`);
    const preview = previewOf(section);
    expect(preview.content.length).toBeGreaterThan(0);
    expect(sectionUnderHeading(page, 'no-such-id', 'https://docs.example.org/')).toBeNull();
  });
});
