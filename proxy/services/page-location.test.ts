import { describe, expect, it } from 'vitest';
import { recordedScope } from '../upstream/fixtures/recorded.ts';
import { locatePage, mainProject } from './page-location.ts';

const scope = recordedScope();
const DOCS = 'http://127.0.0.1:7300';
const located = (url: string, project?: string, version?: string) => {
  const location = locatePage(new URL(url), scope, project, version);
  return location && { project: location.project.slug, version: location.versionSlug, path: location.path };
};

describe('locating a page', () => {
  it('finds the project, version and path of a page from its URL', () => {
    expect(located(`${DOCS}/en/2.0/guides/deploy.html?x=1#top`)).toEqual({ project: 'aurora', version: '2.0', path: 'guides/deploy.html' });
    expect(located(`${DOCS}/en/latest/`)).toEqual({ project: 'aurora', version: 'latest', path: '' });
  });

  it('tells translations by their language and subprojects by their longer root', () => {
    expect(located(`${DOCS}/es/latest/index.html`)).toMatchObject({ project: 'aurora-es', version: 'latest' });
    expect(located(`${DOCS}/projects/plugins/en/latest/api.html`)).toEqual({
      project: 'aurora-plugins',
      version: 'latest',
      path: 'api.html',
    });
  });

  it('decodes the version segment, and keeps one it cannot decode as written', () => {
    expect(located(`${DOCS}/en/feature%2Dx/a.html`)?.version).toBe('feature-x');
    expect(located(`${DOCS}/en/%E0%A4%A/a.html`)?.version).toBe('%E0%A4%A');
  });

  it('takes the project and version given when the URL does not tell, and finds nothing elsewhere', () => {
    expect(located('https://elsewhere.example/en/latest/a.html')).toBeUndefined();
    expect(located(`${DOCS}/fr/latest/a.html`)).toBeUndefined();
    expect(located('https://elsewhere.example/a.html', 'aurora', '1.0')).toEqual({ project: 'aurora', version: '1.0', path: '' });
    expect(located(`${DOCS}/en/latest/a.html`, 'aurora', '1.0')).toEqual({ project: 'aurora', version: '1.0', path: 'a.html' });
    expect(located('https://elsewhere.example/a.html', 'aurora')).toBeUndefined();
  });

  it('offers the languages of the original project for a translation', () => {
    expect(mainProject(scope.get('aurora-es')!.project, scope).slug).toBe('aurora');
    expect(mainProject(scope.get('aurora-plugins')!.project, scope).slug).toBe('aurora-plugins');
  });
});
