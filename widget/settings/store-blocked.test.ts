import { expect, fixture, html } from '@open-wc/testing';
import type { DoclensPreview } from '../preview/doclens-preview.ts';
import '../preview/doclens-preview.ts';
import { servers, until } from '../test-support.ts';
import type { DoclensVersions } from '../versions/doclens-versions.ts';
import '../versions/doclens-versions.ts';
import type { DoclensSettings } from './doclens-settings.ts';
import './doclens-settings.ts';

// A page of its own: here the site's storage throws on every use, as in a sandboxed frame or a
// browser that blocks it, for the page's whole life.
const part = (root: Element, name: string) => root.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const switchNamed = (settings: DoclensSettings, label: string) =>
  [...settings.shadowRoot!.querySelectorAll<HTMLElement>('[role="menuitemcheckbox"]')].find((item) => item.textContent!.includes(label))!;

describe('reader settings without storage', () => {
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent | PromiseRejectionEvent) => errors.push('reason' in event ? event.reason : event.error);

  before(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError');
      },
    });
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);
  });

  after(() => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onError);
  });

  it('still work for the page: every element follows, and a re-created one keeps the choice', async () => {
    const link = `${servers.docs}/en/latest/glossary.html#term-job`;
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main"><p>A <a id="term" href=${link}>job</a> runs.</p></div>
      <doclens-settings></doclens-settings>
      <doclens-preview proxy=${servers.proxy} domains=${new URL(servers.docs).host}></doclens-preview>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const term = container.querySelector<HTMLAnchorElement>('#term')!;
    const settings = container.querySelector<DoclensSettings>('doclens-settings')!;
    const versions = container.querySelector<DoclensVersions>('doclens-versions')!;
    await until(() => !!part(versions, 'notice'), 'the switcher and its notice');
    expect(container.querySelector<DoclensPreview>('doclens-preview')!.previewUrl(term)).to.equal(link);

    part(settings, 'settings')!.click();
    await until(() => !!switchNamed(settings, 'Show link previews'), 'the menu');
    switchNamed(settings, 'Show link previews').click();
    switchNamed(settings, 'Keep the version switcher collapsed').click();
    switchNamed(settings, 'old-version notice for 1.0').click();
    await until(() => !!part(versions, 'badge') && !part(versions, 'notice'), 'folded, without the notice');
    expect(container.querySelector<DoclensPreview>('doclens-preview')!.previewUrl(term)).to.equal(undefined);

    const preview = await fixture<DoclensPreview>(
      html`<doclens-preview proxy=${servers.proxy} domains=${new URL(servers.docs).host}></doclens-preview>`,
    );
    expect(preview.previewUrl(term)).to.equal(undefined);
    const again = await fixture<DoclensVersions>(
      html`<doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>`,
    );
    await until(() => !!part(again, 'badge'), 'folded');
    expect(part(again, 'notice')).to.equal(null);
    expect(errors).to.deep.equal([]);
  });
});
