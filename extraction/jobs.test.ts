import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractSection } from './find-section.ts';
import { parseHtml } from './html/parse.ts';
import { runEmbedJob } from './jobs.ts';

const pageUrl = 'https://docs.example.org/en/latest/api.html';
const content =
  '<dl class="py method"><dt class="sig" id="aurora.Job.run"><span class="sig-name">run</span><a class="headerlink" ' +
  'href="#aurora.Job.run">¶</a></dt><dd><p>Runs the job; see <a href="guide.html#runs">runs</a>.</p></dd></dl>';

describe('the upstreamSection job', () => {
  it('answers a section with its links absolute', () => {
    const { content: absolute } = runEmbedJob('upstreamSection', { content, pageUrl, fragment: 'aurora.Job.run', preview: false }) as {
      content: string;
    };
    expect(absolute).toContain('href="https://docs.example.org/en/latest/guide.html#runs"');
    expect(absolute).toContain('class="headerlink"');
  });

  it('answers a preview with the preview alone, links absolute, and what the proxy reads of it', () => {
    const output = runEmbedJob('upstreamSection', { content, pageUrl, fragment: 'aurora.Job.run', preview: true });
    expect(output).not.toHaveProperty('content');
    expect(output).toMatchObject({ previewHasText: true, readAround: false, preview: { title: 'Job.run' } });
    const { preview } = output as { preview: { content: string } };
    expect(preview.content).toContain('href="https://docs.example.org/en/latest/guide.html#runs"');
    expect(preview.content).not.toContain('headerlink');
  });
});

describe('a table of contents entry as the Embed API answers it (aiohttp FAQ, docutils "contents")', () => {
  const faq = readFileSync(new URL('./structure/fixtures/alabaster-contents.html', import.meta.url), 'utf8');
  const faqUrl = 'https://docs.example.org/en/latest/faq.html';

  it('is a preview without text, which the proxy reads again around it in the page: the section it leads to', () => {
    const entry = extractSection(parseHtml(faq), faqUrl, { fragment: 'id1', doctool: 'sphinx' })!;
    expect(entry).toMatch(/^<a [^>]*id="id1"/);
    const output = runEmbedJob('upstreamSection', { content: entry, pageUrl: faqUrl, fragment: 'id1', preview: true });
    expect(output).toMatchObject({
      previewHasText: false,
      preview: { title: 'Are there plans for an @app.route decorator like in Flask?' },
    });
    // The page as the Embed API answers it: its main content, links absolute.
    const page = extractSection(parseHtml(faq), faqUrl, {})!;
    const around = runEmbedJob('targetPreview', { page: Buffer.from(page), pageUrl: faqUrl, fragment: 'id1' })!;
    expect(around.title).toBe('Are there plans for an @app.route decorator like in Flask?');
    expect(around.content).toContain('As of aiohttp 2.3');
  });
});

describe('an empty label in the middle of a section, as the Embed API answers it (Python 3.11, sys.html#auditing)', () => {
  const sys = readFileSync(new URL('./structure/fixtures/python-docs-label.html', import.meta.url), 'utf8');
  const sysUrl = 'https://docs.example.org/en/latest/library/sys.html';

  it('is read again around the label, which labels sys.audit, not the module opening the section', () => {
    const section = extractSection(parseHtml(sys), sysUrl, { fragment: 'auditing', doctool: 'sphinx' })!;
    expect(section).toMatch(/^<section id="module-sys">/);
    const output = runEmbedJob('upstreamSection', { content: section, pageUrl: sysUrl, fragment: 'auditing', preview: true });
    expect(output).toMatchObject({ readAround: true, preview: { content: expect.stringContaining('This module provides access') } });
    const page = extractSection(parseHtml(sys), sysUrl, {})!;
    const around = runEmbedJob('targetPreview', { page: Buffer.from(page), pageUrl: sysUrl, fragment: 'auditing' })!;
    expect(around.title).toBe('sys.audit');
    expect(around.content).toContain('Raise an auditing event');
    // A label that opens its section is the section's.
    const opening = extractSection(parseHtml(sys), sysUrl, {
      fragment: 'sys-system-specific-parameters-and-functions',
      doctool: 'sphinx',
    })!;
    const leading = runEmbedJob('upstreamSection', {
      content: opening,
      pageUrl: sysUrl,
      fragment: 'sys-system-specific-parameters-and-functions',
      preview: true,
    });
    expect(leading).toMatchObject({ readAround: false });
  });
});
