import { describe, expect, it } from 'vitest';
import { contextLabel, isPage, previewTarget } from './preview-url.ts';

const here = 'https://docs.example.org/en/latest/guide/retries.html?highlight=x#top';
const target = (href: string, domains: string[] = []) => previewTarget(href, here, here, domains);

describe('previewTarget', () => {
  it('previews documentation pages of this site, relative or absolute, without their query', () => {
    expect(target('pools.html')).toBe('https://docs.example.org/en/latest/guide/pools.html');
    expect(target('/en/2.0/index.html?page=2#install')).toBe('https://docs.example.org/en/2.0/index.html#install');
    expect(target('../api/')).toBe('https://docs.example.org/en/latest/api/');
  });

  it('previews a section of this very page, not the page itself', () => {
    expect(target('#backoff')).toBe('https://docs.example.org/en/latest/guide/retries.html#backoff');
    expect(target('retries.html')).toBe(undefined);
    expect(target('?q=other')).toBe(undefined);
  });

  it('previews other hosts only when listed, by host or host and port', () => {
    expect(target('https://plugins.example.org/en/latest/')).toBe(undefined);
    expect(target('https://plugins.example.org/en/latest/', ['plugins.example.org'])).toBe('https://plugins.example.org/en/latest/');
    expect(target('http://127.0.0.1:8001/en/latest/', ['127.0.0.1:8001'])).toBe('http://127.0.0.1:8001/en/latest/');
    expect(target('http://127.0.0.1:8002/en/latest/', ['127.0.0.1:8001'])).toBe(undefined);
  });

  it('leaves files, other schemes and unparsable addresses alone', () => {
    for (const href of [
      '/en/latest/_sources/guide.rst.txt',
      '/en/latest/_static/logo.png',
      '/en/latest/_downloads/aurora.pdf',
      'archive.zip',
      '/en/latest/_images/x.html',
    ]) {
      expect(target(href), href).toBe(undefined);
    }
    for (const href of ['mailto:team@example.org', 'javascript:alert(1)', 'ftp://docs.example.org/a.html', 'https://[broken'])
      expect(target(href), href).toBe(undefined);
    expect(target('page.htm')).toBe('https://docs.example.org/en/latest/guide/page.htm');
  });
});

describe('contextLabel', () => {
  it('says nothing for the same project and version', () => {
    expect(contextLabel('https://docs.example.org/en/latest/api.html', here)).toBe(undefined);
  });

  it('names the version of another version of the same project', () => {
    expect(contextLabel('https://docs.example.org/en/2.0/api.html', here)).toBe('2.0');
  });

  it("says nothing for a site served at its root, in folders named in two or three letters (django-filter's `ref/`)", () => {
    expect(contextLabel('https://docs.example.org/ref/filters.html', 'https://docs.example.org/dev/tests.html')).toBe(undefined);
    expect(contextLabel('https://docs.example.org/api/v2/client.html', 'https://docs.example.org/index.html')).toBe(undefined);
    expect(contextLabel('https://docs.example.org/zh_CN/2.0/', 'https://docs.example.org/en/latest/')).toBe('2.0');
  });

  it('names the subproject and version, or the host, of another project', () => {
    expect(contextLabel('https://docs.example.org/projects/plugins/en/latest/', here)).toBe('plugins · latest');
    expect(contextLabel('https://other.example.net/en/stable/', here)).toBe('other.example.net · stable');
  });
});

describe('isPage', () => {
  it('tells a link to another part of this page (a missing section there leaves the reader where they are)', () => {
    const here = 'https://docs.example.org/en/latest/api.html?highlight=x#top';
    expect(isPage('https://docs.example.org/en/latest/api.html#step-global-variables', here)).toBe(true);
    expect(isPage('https://docs.example.org/en/latest/install.html#step', here)).toBe(false);
    expect(isPage('https://other.example.org/en/latest/api.html#step', here)).toBe(false);
  });
});
