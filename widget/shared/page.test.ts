import { expect, fixture, html } from '@open-wc/testing';
import { highlightSearchedTerms } from './page.ts';

describe('highlighting searched terms on the destination page', () => {
  const original = window.location.href;
  afterEach(() => history.replaceState(null, '', original));

  it('marks the words in the main content as text and removes the parameter from the address', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <nav><p>Retry policy in the nav</p></nav>
      <div role="main"><p id="target">A retry policy decides <code>when</code> to retry.</p><script type="text/plain">retry</script></div>
    </div>`);
    history.replaceState(null, '', `${location.pathname}?highlight=retry%20%3Cimg%20src%3Dx%3E#target`);
    const marked = highlightSearchedTerms(container);
    expect(marked).to.equal(2);
    expect([...container.querySelectorAll('mark.doclens-highlight')].map((mark) => mark.textContent)).to.deep.equal(['retry', 'retry']);
    expect(container.querySelector('nav mark')).to.equal(null);
    expect(container.querySelector('img')).to.equal(null);
    expect(location.search).to.equal('');
    expect(location.hash).to.equal('#target');
  });

  it('does nothing without the parameter', async () => {
    const container = await fixture<HTMLDivElement>(html`<div role="main"><p>retry</p></div>`);
    expect(highlightSearchedTerms(container)).to.equal(0);
    expect(container.querySelector('mark')).to.equal(null);
  });
});
