import { expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { define, DoclensElement } from './base-element.ts';

/** A doclens element that shows one string and dispatches the matches bar's events. */
class ProbeElement extends DoclensElement {
  get shown(): string {
    return this.strings.searchButton;
  }

  step(): boolean {
    return this.emit('doclens-matches-step', { index: 0, total: 1, mark: this }, { cancelable: true });
  }

  clear(): boolean {
    return this.emit('doclens-matches-clear', null);
  }

  override render(): TemplateResult {
    return html`<span>${this.strings.searchButton}</span>`;
  }
}

class OtherProbe extends DoclensElement {}

define('doclens-probe', ProbeElement);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-probe': ProbeElement;
  }
}

describe('DoclensElement', () => {
  it('defines an element once: a second definition of the name (doclens loaded twice) is ignored', () => {
    expect(() => define('doclens-probe', OtherProbe)).not.to.throw();
    expect(customElements.get('doclens-probe')).to.equal(ProbeElement);
  });

  it('takes its strings from the nearest language around it, each time it is connected', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <section lang="es-MX"><doclens-probe></doclens-probe></section>
      <section lang="en-GB" id="english"></section>
    </div>`);
    const probe = container.querySelector<ProbeElement>('doclens-probe')!;
    expect(probe.shown).to.equal('Buscar');
    await probe.updateComplete;
    expect(probe.shadowRoot!.textContent).to.contain('Buscar');
    container.querySelector('#english')!.append(probe);
    expect(probe.shown).to.equal('Search');
  });

  it('dispatches its events out of the shadow root, to the document, and reports a cancelled one', async () => {
    const container = await fixture<HTMLDivElement>(html`<div><doclens-probe></doclens-probe></div>`);
    const probe = container.querySelector<ProbeElement>('doclens-probe')!;
    const seen: string[] = [];
    document.addEventListener(
      'doclens-matches-step',
      (event) => seen.push(`step ${event.detail.index}/${event.detail.total} ${event.composed}`),
      { once: true },
    );
    container.addEventListener('doclens-matches-clear', (event) => seen.push(`clear ${event.detail} ${event.bubbles}`), { once: true });
    expect(probe.step()).to.equal(true);
    expect(probe.clear()).to.equal(true);
    expect(seen).to.deep.equal(['step 0/1 true', 'clear null true']);
    container.addEventListener('doclens-matches-step', (event) => event.preventDefault(), { once: true });
    expect(probe.step()).to.equal(false);
  });
});
