import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { mainContent } from './page.ts';

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
    /* Themes shrink the root or body font (mkdocs-material: 10px body, Bootstrap 3: 10px root); the widget
       keeps the reader's own text size (the browser's setting, medium). Every size inside is in em of it. */
    font-size: var(--doclens-font-size, medium);
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

/** A CSS colour as red, green, blue (0–255) and alpha (0–1), whatever its syntax (a 1×1 canvas reads it). */
let pixel: CanvasRenderingContext2D | null | undefined;
function rgba(color: string): [number, number, number, number] | undefined {
  pixel ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!pixel) return undefined;
  pixel.clearRect(0, 0, 1, 1);
  pixel.fillStyle = color;
  pixel.fillRect(0, 0, 1, 1);
  const [red, green, blue, alpha] = pixel.getImageData(0, 0, 1, 1).data;
  return [red!, green!, blue!, alpha! / 255];
}

/** Relative luminance (WCAG) of an sRGB colour. */
function luminance([red, green, blue]: [number, number, number, number]): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/**
 * The colour scheme the page shows the reader, read from what it paints rather than from a theme's
 * switch names: the background behind its main text (the first ancestor that paints one), or, where
 * nothing paints, the canvas, dark only where the page allows a dark scheme (`color-scheme`) and
 * the system asks for it. A light-only theme is light whatever the system says; a theme with a dark
 * mode of its own (a switch attribute, a `prefers-color-scheme` stylesheet) is read as it shows.
 */
export function pageScheme(content: Element | null = document.body && mainContent(document.body)): 'dark' | 'light' {
  // From a paragraph of the text: the box painted behind it may be inside the main content's region (Django's white page on green).
  const text = [...(content?.querySelectorAll('p') ?? [])].find((paragraph) => paragraph.textContent?.trim()) ?? content;
  for (let element = text; element; element = element.parentElement) {
    const color = rgba(getComputedStyle(element).backgroundColor);
    if (color && color[3] >= 0.5) return luminance(color) < 0.2 ? 'dark' : 'light';
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]')?.content ?? '';
  const declared = `${scheme} ${meta}`;
  if (/\bonly\s+light\b/.test(declared) || !/\bdark\b/.test(declared)) return 'light';
  return /\blight\b/.test(declared) && !darkQuery().matches ? 'light' : 'dark';
}

/** Hosts following the page's scheme, and what tells them it may have changed. */
const followers = new Set<() => void>();
let watching: { observer: MutationObserver; media: MediaQueryList } | undefined;
let scheduled = 0;

/**
 * Everything that may change what the page paints: attributes of the root and body, its stylesheets, the system's scheme,
 * transitions ending.
 */
function schemeMayHaveChanged(): void {
  if (scheduled) return;
  scheduled = requestAnimationFrame(() => {
    scheduled = 0;
    for (const follower of followers) follower();
  });
}

function watchPage(): void {
  if (watching) return;
  const observer = new MutationObserver(schemeMayHaveChanged);
  observer.observe(document.documentElement, { attributes: true });
  if (document.body) observer.observe(document.body, { attributes: true });
  if (document.head) observer.observe(document.head, { childList: true, subtree: true, attributes: true });
  const media = darkQuery();
  media.addEventListener('change', schemeMayHaveChanged);
  // Themes fade their background between schemes: read it again once the fade ends.
  document.addEventListener('transitionend', schemeMayHaveChanged, true);
  watching = { observer, media };
}

function unwatchPage(): void {
  if (!watching || followers.size) return;
  watching.observer.disconnect();
  watching.media.removeEventListener('change', schemeMayHaveChanged);
  document.removeEventListener('transitionend', schemeMayHaveChanged, true);
  watching = undefined;
}

/**
 * Sets `scheme="dark|light"` on its host from the scheme the page shows ({@link pageScheme}), live:
 * a theme's own switch, the system's scheme for a theme that follows it. An author's own `scheme`
 * attribute wins.
 */
export class ColorSchemeController implements ReactiveController {
  /** The scheme this controller set last (a different one on the host is the author's). */
  private applied?: string;
  private readonly update = () => {
    if (this.host.hasAttribute('data-scheme-fixed')) return;
    this.applied = pageScheme();
    if (this.host.getAttribute('scheme') !== this.applied) this.host.setAttribute('scheme', this.applied);
  };

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    const own = this.host.getAttribute('scheme');
    if (own !== null && own !== this.applied) this.host.setAttribute('data-scheme-fixed', '');
    this.update();
    followers.add(this.update);
    watchPage();
  }

  hostDisconnected(): void {
    followers.delete(this.update);
    unwatchPage();
  }
}
