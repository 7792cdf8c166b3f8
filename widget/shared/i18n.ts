/** Every string the widget shows. `{name}` placeholders are filled by `format`. */
export interface Strings {
  searchButton: string;
  searchPlaceholder: string;
  searchLabel: string;
  close: string;
  recentSearches: string;
  removeRecent: string;
  clearRecent: string;
  noRecent: string;
  copyLink: string;
  linkCopied: string;
  /** Shown beside the link, selected, when the clipboard cannot be written. */
  copyLinkByHand: string;
  loading: string;
  resultCount: string;
  resultCountOne: string;
  noResults: string;
  noResultsHint: string;
  searchFailed: string;
  /** Shown while the documentation host is still indexing: the results so far are not all there will be. */
  stillIndexing: string;
  retry: string;
  offline: string;
  moreResults: string;
  includeSubprojects: string;
  searchingIn: string;
  allProjects: string;
  keyboardHelp: string;
  previewLoading: string;
  previewUnavailable: string;
  /** Over a preview of a page whose section the link names is not there (the reader lands at its top). */
  previewWholePage: string;
  /** Over it where the link is to this very page (the reader stays where they are). */
  previewMissingHere: string;
  /** Under the title of a section that has no text of its own. */
  previewNoText: string;
  readMore: string;
  versionsLabel: string;
  versions: string;
  languages: string;
  downloads: string;
  oldVersionNotice: string;
  devVersionNotice: string;
  goToStable: string;
  dismiss: string;
  hideSwitcher: string;
  showSwitcher: string;
  matchesLabel: string;
  matchCount: string;
  matchCountOne: string;
  matchPosition: string;
  previousMatch: string;
  nextMatch: string;
  hideMatches: string;
  openPreviewed: string;
  /** Beside a version or language the current page does not exist in. */
  pageNotInVersion: string;
  pageNotInLanguage: string;
  /** On the start page the switcher led to because the page was missing there. */
  landedOnStart: string;
  /** The reader's settings menu and its switches (remembered for the site). */
  readerSettings: string;
  showPreviews: string;
  keepSwitcherCollapsed: string;
  showOldNotice: string;
  showDevNotice: string;
}

const en: Strings = {
  searchButton: 'Search',
  searchPlaceholder: 'Search the docs',
  searchLabel: 'Search documentation',
  close: 'Close',
  recentSearches: 'Recent searches',
  removeRecent: 'Remove "{query}" from recent searches',
  clearRecent: 'Clear',
  noRecent: 'Type to search. Results appear as you type.',
  copyLink: 'Copy link to this search',
  linkCopied: 'Link copied',
  copyLinkByHand: 'Press Ctrl+C to copy the link',
  loading: 'Searching…',
  resultCount: '{count} results',
  resultCountOne: '1 result',
  noResults: 'No results for "{query}"',
  noResultsHint: 'Check the spelling, or try fewer or more general words.',
  searchFailed: 'Search is unavailable right now.',
  stillIndexing: 'Still indexing… more results may follow.',
  retry: 'Try again',
  offline: 'You are offline. Search needs a connection.',
  moreResults: 'More results',
  includeSubprojects: 'Include subprojects',
  searchingIn: 'Searching {project} {version}',
  allProjects: 'all projects',
  keyboardHelp: '↑↓ to move, Enter to open, Ctrl+Enter for a new tab, Esc to close',
  previewLoading: 'Loading preview…',
  previewUnavailable: 'Preview unavailable',
  previewWholePage: 'Section not found: the page opens at its top',
  previewMissingHere: 'Section not found on this page',
  previewNoText: 'This section has no text',
  readMore: 'Read more',
  versionsLabel: 'Version {version}, language {language}',
  versions: 'Versions',
  languages: 'Languages',
  downloads: 'Downloads',
  oldVersionNotice: 'You are reading the documentation of an old version ({version}).',
  devVersionNotice: 'You are reading the documentation of a development version ({version}).',
  goToStable: 'Go to the stable version ({version})',
  dismiss: 'Dismiss',
  hideSwitcher: 'Hide the version switcher',
  showSwitcher: '{version}, {language}: show the version switcher',
  matchesLabel: 'Searched words on this page',
  matchCount: '{total} matches',
  matchCountOne: '1 match',
  matchPosition: '{current} of {total}',
  previousMatch: 'Previous match (Shift+Enter)',
  nextMatch: 'Next match (Enter)',
  hideMatches: 'Hide highlights',
  openPreviewed: 'Open',
  pageNotInVersion: 'page not in this version',
  pageNotInLanguage: 'page not in this language',
  landedOnStart: 'The page you were reading does not exist in {version}: this is its start page.',
  readerSettings: 'Reader settings for this site',
  showPreviews: 'Show link previews',
  keepSwitcherCollapsed: 'Keep the version switcher collapsed',
  showOldNotice: 'Show the old-version notice for {version}',
  showDevNotice: 'Show the development-version notice for {version}',
};

const es: Strings = {
  searchButton: 'Buscar',
  searchPlaceholder: 'Buscar en la documentación',
  searchLabel: 'Buscar en la documentación',
  close: 'Cerrar',
  recentSearches: 'Búsquedas recientes',
  removeRecent: 'Quitar «{query}» de las búsquedas recientes',
  clearRecent: 'Borrar',
  noRecent: 'Escriba para buscar. Los resultados aparecen mientras escribe.',
  copyLink: 'Copiar el enlace a esta búsqueda',
  linkCopied: 'Enlace copiado',
  copyLinkByHand: 'Pulse Ctrl+C para copiar el enlace',
  loading: 'Buscando…',
  resultCount: '{count} resultados',
  resultCountOne: '1 resultado',
  noResults: 'No hay resultados para «{query}»',
  noResultsHint: 'Revise la ortografía o pruebe con menos palabras o más generales.',
  searchFailed: 'La búsqueda no está disponible en este momento.',
  stillIndexing: 'Todavía indexando… puede haber más resultados.',
  retry: 'Reintentar',
  offline: 'No hay conexión. La búsqueda necesita conexión.',
  moreResults: 'Más resultados',
  includeSubprojects: 'Incluir subproyectos',
  searchingIn: 'Buscando en {project} {version}',
  allProjects: 'todos los proyectos',
  keyboardHelp: '↑↓ para moverse, Intro para abrir, Ctrl+Intro en otra pestaña, Esc para cerrar',
  previewLoading: 'Cargando vista previa…',
  previewUnavailable: 'Vista previa no disponible',
  previewWholePage: 'Sección no encontrada: la página se abre al principio',
  previewMissingHere: 'Sección no encontrada en esta página',
  previewNoText: 'Esta sección no tiene texto',
  readMore: 'Leer más',
  versionsLabel: 'Versión {version}, idioma {language}',
  versions: 'Versiones',
  languages: 'Idiomas',
  downloads: 'Descargas',
  oldVersionNotice: 'Está leyendo la documentación de una versión antigua ({version}).',
  devVersionNotice: 'Está leyendo la documentación de una versión en desarrollo ({version}).',
  goToStable: 'Ir a la versión estable ({version})',
  dismiss: 'Descartar',
  hideSwitcher: 'Ocultar el selector de versiones',
  showSwitcher: '{version}, {language}: mostrar el selector de versiones',
  matchesLabel: 'Palabras buscadas en esta página',
  matchCount: '{total} coincidencias',
  matchCountOne: '1 coincidencia',
  matchPosition: '{current} de {total}',
  previousMatch: 'Coincidencia anterior (Mayús+Intro)',
  nextMatch: 'Coincidencia siguiente (Intro)',
  hideMatches: 'Ocultar resaltado',
  openPreviewed: 'Abrir',
  pageNotInVersion: 'página ausente en esta versión',
  pageNotInLanguage: 'página ausente en este idioma',
  landedOnStart: 'La página que leía no existe en {version}: esta es su página de inicio.',
  readerSettings: 'Preferencias de lectura en este sitio',
  showPreviews: 'Mostrar vistas previas de los enlaces',
  keepSwitcherCollapsed: 'Mantener plegado el selector de versiones',
  showOldNotice: 'Mostrar el aviso de versión antigua en {version}',
  showDevNotice: 'Mostrar el aviso de versión en desarrollo en {version}',
};

const tables = new Map<string, Partial<Strings>>([
  ['en', en],
  ['es', es],
]);

/** Adds or overrides strings for a language (`'fr'`, or `'en'` to reword the defaults). */
export function registerStrings(language: string, strings: Partial<Strings>): void {
  const key = language.toLowerCase();
  tables.set(key, { ...tables.get(key), ...strings });
}

/** The strings for a language tag (`es-MX` falls back to `es`, anything unknown to English). */
export function stringsFor(language: string | null | undefined): Strings {
  const tag = (language ?? '').toLowerCase();
  const table = tables.get(tag) ?? tables.get(tag.split(/[-_]/)[0] ?? '') ?? {};
  return { ...en, ...tables.get('en'), ...table };
}

/** The page's language: the element's nearest `lang`, else the document's. */
export function languageOf(element: Element): string {
  return element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en';
}

/** A language's name in the reader's language (`es` → "Spanish" for an English page, "español" for a Spanish one). */
export function languageName(code: string, readerLanguage: string, fallback: string): string {
  try {
    return new Intl.DisplayNames([readerLanguage, 'en'], { type: 'language' }).of(code) ?? fallback;
  } catch {
    // A code Intl does not accept: the name the documentation host gave.
    return fallback;
  }
}

export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
