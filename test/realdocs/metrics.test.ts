import { describe, expect, it } from 'vitest';
import { headingOnly, notFromContent } from './metrics.ts';

// The real-docs suite's verdicts on a preview: does it carry text beyond its heading, and is that
// text the target page's?
describe('headingOnly', () => {
  it('passes a preview with a sentence, however short', () => {
    expect(headingOnly('Sessions', '<p>Sessions keep state between requests.</p>')).toBeUndefined();
    expect(headingOnly('bolometric_flux', '<p>Bolometric flux.</p>')).toBeUndefined();
    expect(headingOnly('', '<h1>Syndication</h1><p>Django comes with a feed framework.</p>')).toBeUndefined();
  });

  it('fails a preview that repeats its heading or shows a signature alone', () => {
    expect(headingOnly('Request Sessions', '<h2>Request Sessions</h2>')).toBe('heading "Request Sessions" and nothing else');
    expect(headingOnly('Request Sessions', '<p>Request Sessions</p>')).toBe('heading "Request Sessions" and nothing else');
    expect(headingOnly('HttpResponse', '<dt class="sig"><em>class</em> <code>HttpResponse</code><a href="#">[source]</a></dt>')).toBe('heading "HttpResponse" and nothing else');
    expect(headingOnly('', '<h1>SQL Datatype Objects</h1>')).toBe('no title and nothing else');
    expect(headingOnly('Examples', '<p>Example:</p>')).toBe('heading "Examples" then only "Example:"');
  });
});

describe('notFromContent', () => {
  const mainContent = 'class agent agent extends dispatcher agent allows dispatching requests against multiple different origins requests are not guaranteed to be dispatched in order';

  it('passes text that stands in the main content, block by block', () => {
    expect(notFromContent('Agent', '<p>Agent allows dispatching requests against multiple different origins.</p>', mainContent)).toBeUndefined();
    // A heading flattened into the first paragraph, and a signature before its description.
    expect(notFromContent('', '<p>class Agent Agent extends Dispatcher</p>', mainContent)).toBeUndefined();
  });

  it('fails text from elsewhere, such as the navigation', () => {
    expect(notFromContent('Agent', '<p>Agent BalancedPool CacheStorage Client Connector</p>', mainContent)).toBe(
      'text not from the page\'s main content: "Agent BalancedPool CacheStorage Client Connector"',
    );
  });
});
