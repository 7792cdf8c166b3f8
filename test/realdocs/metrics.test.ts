import { describe, expect, it } from 'vitest';
import { headingOnly } from './metrics.ts';

// The real-docs suite's verdict on a preview: does it carry text beyond its heading?
describe('headingOnly', () => {
  it('passes a preview with a sentence, however short', () => {
    expect(headingOnly('Sessions', '<p>Sessions keep state between requests.</p>')).toBeUndefined();
    expect(headingOnly('bolometric_flux', '<p>Bolometric flux.</p>')).toBeUndefined();
    expect(headingOnly('', '<h1>Syndication</h1><p>Django comes with a feed framework.</p>')).toBeUndefined();
  });

  it('fails a preview that repeats its heading or shows a signature alone', () => {
    expect(headingOnly('Request Sessions', '<h2>Request Sessions</h2>')).toBe('heading "Request Sessions" and nothing else');
    expect(headingOnly('HttpResponse', '<dt class="sig"><em>class</em> <code>HttpResponse</code><a href="#">[source]</a></dt>')).toBe('heading "HttpResponse" and nothing else');
    expect(headingOnly('', '<h1>SQL Datatype Objects</h1>')).toBe('no title and nothing else');
    expect(headingOnly('Examples', '<p>Example:</p>')).toBe('heading "Examples" then only "Example:"');
  });
});
