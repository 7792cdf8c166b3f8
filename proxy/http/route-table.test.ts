import { describe, expect, it } from 'vitest';
import { decodedParams, RouteTable, type Route } from './route-table.ts';

const handle = () => undefined;
const route = (path: string): Route => ({ path, rateLimited: false, handle });

const table = new RouteTable([
  route('/api/v3/search/'),
  route('/api/v3/projects/:slug/versions/'),
  { path: /^\/(?<file>doclens(?:\.iife|-[\w-]+)?\.js)$/, name: '/<widget file>', rateLimited: false, handle },
]);

describe('RouteTable', () => {
  it('matches paths exactly: letter case, trailing slash and every character', () => {
    expect(table.match('/api/v3/search/')?.route.name).toBe('/api/v3/search/');
    for (const path of [
      '/API/v3/search/',
      '/api/v3/search',
      '/api/v3/search//',
      '/api/v3/search/x',
      '/x/api/v3/search/',
      '/api/v3/searchX/',
      '/api/v3/search/?q=a',
    ]) {
      expect(table.match(path), path).toBeUndefined();
    }
  });

  it('reads a path parameter from one segment only', () => {
    expect(table.match('/api/v3/projects/aurora/versions/')?.raw).toEqual({ slug: 'aurora' });
    for (const path of ['/api/v3/projects//versions/', '/api/v3/projects/a/b/versions/', '/api/v3/projects/aurora/Versions/']) {
      expect(table.match(path), path).toBeUndefined();
    }
  });

  it('takes the special characters of a template as written', () => {
    const dotted = new RouteTable([route('/doclens.js')]);
    expect(dotted.match('/doclens.js')).toBeDefined();
    expect(dotted.match('/doclensXjs')).toBeUndefined();
  });

  it('names paths by their route, and every other path `unknown`, so that no input reaches the logs', () => {
    expect(table.nameOf('/api/v3/projects/aurora/versions/')).toBe('/api/v3/projects/:slug/versions/');
    expect(table.nameOf('/doclens-search-3f2a1c.js')).toBe('/<widget file>');
    expect(table.nameOf('/doclens.iife.js')).toBe('/<widget file>');
    expect(table.nameOf('/etc/passwd')).toBe('unknown');
    expect(table.nameOf('/doclens.js.map')).toBe('unknown');
  });

  it('decodes path parameters, and refuses undecodable ones with a 400', () => {
    expect(decodedParams(table.match('/api/v3/projects/my%2Dproject/versions/')!)).toEqual({ slug: 'my-project' });
    expect(decodedParams(table.match('/doclens.js')!)).toEqual({ file: 'doclens.js' });
    expect(() => decodedParams(table.match('/api/v3/projects/%E0%A4%A/versions/')!)).toThrow(
      expect.objectContaining({ status: 400, code: 'bad_request' }),
    );
  });
});
