import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';

/**
 * Design tokens every component reads. Authors override the `--doclens-*` custom properties; the
 * `--_` properties are internal and switch with the colour scheme.
 */
export const themeStyles = css`
  :host {
    /* Inherited page styles (a theme's text-align, text-transform, letter-spacing, line-height,
       white-space, font-style, cursor…) stay out; "all" leaves direction alone, so right-to-left pages
       stay so. Whether the page hides or disables where it was put still holds (a closed drawer). */
    all: initial;
    visibility: inherit;
    pointer-events: inherit;
    --_text: var(--doclens-color-text, #1f2328);
    --_muted: var(--doclens-color-muted, #59636e);
    --_background: var(--doclens-color-background, #ffffff);
    --_surface: var(--doclens-color-surface, #f6f8fa);
    --_border: var(--doclens-color-border, #d1d9e0);
    --_accent: var(--doclens-color-accent, #0b62d6);
    --_accent-text: var(--doclens-color-accent-text, #ffffff);
    --_mark: var(--doclens-color-highlight, #fff2a8);
    --_mark-text: var(--doclens-color-highlight-text, inherit);
    --_danger: var(--doclens-color-danger, #b42318);
    --_shadow: var(--doclens-shadow, 0 12px 32px rgb(0 0 0 / 0.18), 0 2px 6px rgb(0 0 0 / 0.12));
    --_radius: var(--doclens-radius, 8px);
    --_space: var(--doclens-spacing, 8px);
    --_z: var(--doclens-z-index, 1000);
    --_font: var(--doclens-font-family, inherit);
    --_mono: var(--doclens-font-family-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    font-family: var(--_font);
    /* Themes shrink the root or body font (mkdocs-material: 10px body); the widget keeps a readable size. */
    font-size: var(--doclens-font-size, 16px);
    line-height: 1.5;
    color: var(--_text);
  }
  :host([scheme='dark']) {
    --_text: var(--doclens-color-text, #e6edf3);
    --_muted: var(--doclens-color-muted, #9198a1);
    --_background: var(--doclens-color-background, #151b23);
    --_surface: var(--doclens-color-surface, #212830);
    --_border: var(--doclens-color-border, #3d444d);
    --_accent: var(--doclens-color-accent, #4493f8);
    --_accent-text: var(--doclens-color-accent-text, #0d1117);
    --_mark: var(--doclens-color-highlight, #6b5a00);
    --_danger: var(--doclens-color-danger, #ff7b72);
    --_shadow: var(--doclens-shadow, 0 12px 32px rgb(0 0 0 / 0.5), 0 2px 6px rgb(0 0 0 / 0.4));
  }
  [hidden] {
    display: none !important;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
`;

/**
 * Every popup and menu that `anchor` places over the page (fixed, or in the top layer, moved by its
 * left and top): one look for all of them.
 */
export const anchoredPopup = css`
  position: fixed;
  inset: auto;
  top: 0;
  left: 0;
  margin: 0;
  box-sizing: border-box;
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  background: var(--_background);
  color: var(--_text);
  box-shadow: var(--_shadow);
  z-index: var(--_z);
`;

/** The dark-mode switches of common documentation themes, on `<html>` or `<body>`. */
function themeSwitch(): 'dark' | 'light' | undefined {
  for (const element of [document.documentElement, document.body]) {
    if (!element) continue;
    const value = element.dataset.theme ?? element.dataset.mdColorScheme ?? element.dataset.colorScheme ?? element.dataset.bsTheme;
    if (value === 'dark' || value === 'slate') return 'dark';
    if (value === 'light' || value === 'default') return 'light';
  }
  return undefined;
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/**
 * Sets `scheme="dark|light"` on its host from the page theme's own switch (furo, pydata-sphinx-theme,
 * mkdocs-material, Bootstrap, Read the Docs) and otherwise from `prefers-color-scheme`. An author's
 * own `scheme` attribute wins.
 */
export class ColorSchemeController implements ReactiveController {
  private observer?: MutationObserver;
  private readonly update = () => {
    if (this.host.hasAttribute('data-scheme-fixed')) return;
    this.host.setAttribute('scheme', themeSwitch() ?? (darkQuery().matches ? 'dark' : 'light'));
  };

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    if (this.host.hasAttribute('scheme')) this.host.setAttribute('data-scheme-fixed', '');
    this.update();
    this.observer = new MutationObserver(this.update);
    const options = { attributes: true, attributeFilter: ['data-theme', 'data-md-color-scheme', 'data-color-scheme', 'data-bs-theme'] };
    this.observer.observe(document.documentElement, options);
    if (document.body) this.observer.observe(document.body, options);
    darkQuery().addEventListener('change', this.update);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    darkQuery().removeEventListener('change', this.update);
  }
}
