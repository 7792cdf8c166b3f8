import { html, nothing, type TemplateResult } from 'lit';
import type { PageContext } from '../../contract/index.ts';
import { format, type Strings } from '../shared/i18n.ts';
import type { SwitcherSwitches } from '../settings/doclens-settings.ts';
import { currentLanguage, downloadLinks, entryUrl, versionKind, type Target } from './version-menu.ts';

/** What the switcher shows, and what its controls do. */
export interface SwitcherView {
  strings: Strings;
  context: PageContext;
  /** There is something to choose (or the author wants the switcher anyway): without, only a notice shows. */
  choice: boolean;
  open: boolean;
  floating: boolean;
  /** Folded into a badge (by the reader, or for want of room). */
  badge: boolean;
  /** The notice's text, when there is one. */
  notice: string | undefined;
  /** The notice is folded into a badge beside the switcher (no edge was free). */
  noticeFolded: boolean;
  /** The notice is the arrival on a start page (announced: the reader did not expect this page). */
  landedOnStart: boolean;
  /** The switcher the settings menu offers switches for. */
  switcher: SwitcherSwitches;
  languageName(language: { code: string; name: string }): string;
  toggle(): void;
  onToggleKeydown(event: KeyboardEvent): void;
  onMenuKeydown(event: KeyboardEvent): void;
  /** Closes the menu without taking focus back (the settings menu opens). */
  close(): void;
  choose(event: MouseEvent, kind: 'version' | 'language', target: Target): void;
  setCollapsed(collapsed: boolean): void;
  dismissNotice(): void;
  unfoldNotice(): void;
}

export function renderSwitcher(view: SwitcherView): TemplateResult {
  const { context } = view;
  const current = currentLanguage(context);
  const language = { code: current.code, name: view.languageName(current) };
  const downloads = downloadLinks(context);
  return html`
    ${view.floating ? html`<div class="viewport" aria-hidden="true"></div>` : nothing}
    ${view.noticeFolded && view.choice ? nothing : renderNotice(view)}
    ${view.choice ? renderChoices(view, language, downloads) : nothing}
  `;
}

function renderChoices(
  view: SwitcherView,
  language: { code: string; name: string },
  downloads: ReturnType<typeof downloadLinks>,
): TemplateResult {
  const { strings: s, context } = view;
  return html`
    <div class="switcher" part="switcher">
      ${view.noticeFolded ? renderNoticeBadge(view) : nothing}
      ${
        view.badge
          ? html`<button class="badge" part="badge" type="button"
            aria-label=${format(s.showSwitcher, { version: context.version.verbose_name, language: language.name })}
            @click=${() => view.setCollapsed(false)}>
            ${context.version.verbose_name}
          </button>`
          : renderToggle(view, format(s.versionsLabel, { version: context.version.verbose_name, language: language.name }), language.code)
      }
      <div role="menu" id="menu" part="menu" aria-label=${s.versions} ?hidden=${!view.open || view.badge}
        @keydown=${(event: KeyboardEvent) => view.onMenuKeydown(event)}>
        <div role="group" aria-labelledby="versions-label">
          <div class="group-label" id="versions-label">${s.versions}</div>
          ${context.versions.map((version) => renderItem(view, 'version', version, version.verbose_name, versionKind(version, context)))}
        </div>
        ${
          context.translations.length > 1
            ? html`<div role="group" aria-labelledby="languages-label">
              <div class="group-label" id="languages-label">${s.languages}</div>
              ${context.translations.map((translation) =>
                renderItem(view, 'language', translation, view.languageName(translation.language), translation.language.code),
              )}
            </div>`
            : nothing
        }
        ${
          downloads.length
            ? html`<div role="group" aria-labelledby="downloads-label">
              <div class="group-label" id="downloads-label">${s.downloads}</div>
              ${downloads.map(({ label, url }) => html`<a role="menuitem" part="item" tabindex="-1" href=${url}>${label}</a>`)}
            </div>`
            : nothing
        }
      </div>
    </div>
  `;
}

function renderToggle(view: SwitcherView, label: string, languageCode: string): TemplateResult {
  const { strings: s, context } = view;
  return html`<button
      class="toggle"
      part="toggle"
      type="button"
      aria-haspopup="menu"
      aria-expanded=${view.open ? 'true' : 'false'}
      aria-controls="menu"
      @click=${() => view.toggle()}
      @keydown=${(event: KeyboardEvent) => view.onToggleKeydown(event)}
    >
      <span aria-hidden="true">${context.version.verbose_name}</span><span class="kind"
        aria-hidden="true">${languageCode}</span><span class="chevron" aria-hidden="true">▾</span>
      <span class="visually-hidden">${label}</span>
    </button>
    <doclens-settings exportparts="settings, settings-menu, setting" .switcher=${view.switcher}
      @pointerdown=${() => view.close()}></doclens-settings>
    ${
      view.floating
        ? html`<button class="collapse" part="collapse" type="button" aria-label=${s.hideSwitcher}
          title=${s.hideSwitcher} @click=${() => view.setCollapsed(true)}>
          <span aria-hidden="true">–</span>
        </button>`
        : nothing
    }`;
}

function renderItem(view: SwitcherView, kind: 'version' | 'language', target: Target, label: string, detail: string): TemplateResult {
  return html`<a
    role="menuitemradio"
    part="item"
    tabindex="-1"
    aria-checked=${target.current ? 'true' : 'false'}
    href=${entryUrl(target)}
    @click=${(event: MouseEvent) => view.choose(event, kind, target)}
    ><span>${label}</span><span class="kind" part="detail">${detail}</span>${
      target.exists === false
        ? html`<span class="missing"
          part="missing">${kind === 'version' ? view.strings.pageNotInVersion : view.strings.pageNotInLanguage}</span>`
        : nothing
    }</a
  >`;
}

function renderNotice(view: SwitcherView): TemplateResult | typeof nothing {
  const { strings: s, context, notice } = view;
  if (!notice) return nothing;
  return html`<div class="notice" part="notice" role=${view.landedOnStart ? 'status' : 'note'}>
    <span>${notice}</span>
    ${
      !view.landedOnStart && context.stable
        ? html`<a
      href=${context.stable.url}>${format(s.goToStable, { version: context.stable.verbose_name })}</a>`
        : nothing
    }
    <button class="dismiss" part="dismiss" type="button" aria-label=${s.dismiss} @click=${() => view.dismissNotice()}>✕</button>
  </div>`;
}

function renderNoticeBadge(view: SwitcherView): TemplateResult | typeof nothing {
  const { notice } = view;
  if (!notice) return nothing;
  return html`<button class="notice-badge" part="notice-badge" type="button" aria-label=${notice} title=${notice}
    @click=${() => view.unfoldNotice()}>
    <span aria-hidden="true">!</span>
  </button>`;
}
