/**
 * The reader's own switches, remembered per site: localStorage belongs to the page's origin, so one key
 * holds them for every page, project and version of the site. No dependency: the first-load loader
 * reads it to decide what to load.
 */
export interface ReaderSettings {
  /** Hover, focus and first-tap previews of links. */
  readonly previews: boolean;
  /** The floating version switcher stays folded into its badge. */
  readonly switcherCollapsed: boolean;
  /** `project/version` of each version whose old- or development-version notice the reader dismissed. */
  readonly dismissedNotices: readonly string[];
}

export const SETTINGS_KEY = 'doclens:settings';
/** Dispatched on `window` with the new settings as `detail`, whenever they change in this tab or another. */
export const SETTINGS_CHANGE_EVENT = 'doclens-settings-change';

const DEFAULTS: ReaderSettings = { previews: true, switcherCollapsed: false, dismissedNotices: [] };
/** The oldest dismissals are forgotten beyond this many versions. */
const NOTICE_LIMIT = 100;
/** Keys of earlier releases, one per choice: folded into SETTINGS_KEY on first read. */
const LEGACY_NOTICE = /^doclens:notice:(.+):([^:]+)$/;
const LEGACY_SWITCHER = /^doclens:switcher:/;

/** Where storage is unavailable or throws (private mode, sandboxed frames, a full quota): this page's memory. */
let memory: ReaderSettings = DEFAULTS;
let storageUsable = true;

/** Settings from anything: what is not a known setting of the right type is the default. */
function normalize(value: unknown): ReaderSettings {
  const given = (value && typeof value === 'object' ? value : {}) as Partial<Record<keyof ReaderSettings, unknown>>;
  const notices = Array.isArray(given.dismissedNotices)
    ? given.dismissedNotices.filter((item): item is string => typeof item === 'string')
    : [];
  return {
    previews: typeof given.previews === 'boolean' ? given.previews : DEFAULTS.previews,
    switcherCollapsed: typeof given.switcherCollapsed === 'boolean' ? given.switcherCollapsed : DEFAULTS.switcherCollapsed,
    dismissedNotices: notices.slice(-NOTICE_LIMIT),
  };
}

function parse(text: string): ReaderSettings {
  try {
    return normalize(JSON.parse(text));
  } catch {
    return DEFAULTS;
  }
}

/** The fold and notice choices stored under their own keys by earlier releases, moved under SETTINGS_KEY. */
function migrate(storage: Storage): ReaderSettings {
  const legacy = Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? '').filter(
    (key) => LEGACY_NOTICE.test(key) || LEGACY_SWITCHER.test(key),
  );
  if (!legacy.length) return DEFAULTS;
  const notices = legacy.flatMap((key) => {
    const match = LEGACY_NOTICE.exec(key);
    return match && storage.getItem(key) === 'dismissed' ? [`${match[1]}/${match[2]}`] : [];
  });
  const collapsed = legacy.some((key) => LEGACY_SWITCHER.test(key) && storage.getItem(key) === 'collapsed');
  const settings = normalize({ ...DEFAULTS, switcherCollapsed: collapsed, dismissedNotices: notices });
  storage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  for (const key of legacy) storage.removeItem(key);
  return settings;
}

/** The reader's settings for this site. */
export function readerSettings(): ReaderSettings {
  if (!storageUsable) return memory;
  try {
    const stored = localStorage.getItem(SETTINGS_KEY);
    memory = stored === null ? migrate(localStorage) : parse(stored);
  } catch {
    storageUsable = false;
  }
  return memory;
}

/** Changes some settings, remembers them for the site, and tells every doclens element on the page. */
export function changeReaderSettings(change: Partial<ReaderSettings>): void {
  const settings = normalize({ ...readerSettings(), ...change });
  memory = settings;
  if (storageUsable) {
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    } catch {
      // Kept in memory for this page from now on: a stale stored copy must not win over it.
      storageUsable = false;
    }
  }
  window.dispatchEvent(new CustomEvent<ReaderSettings>(SETTINGS_CHANGE_EVENT, { detail: settings }));
}

const noticeId = (project: string, version: string) => `${project}/${version}`;

export function isNoticeDismissed(settings: ReaderSettings, project: string, version: string): boolean {
  return settings.dismissedNotices.includes(noticeId(project, version));
}

/** Dismisses the notice of one version (or shows it again), for that version only. */
export function setNoticeDismissed(project: string, version: string, dismissed: boolean): void {
  const id = noticeId(project, version);
  const others = readerSettings().dismissedNotices.filter((item) => item !== id);
  changeReaderSettings({ dismissedNotices: dismissed ? [...others, id] : others });
}

/** Calls `listener` with the settings whenever they change, here or in another tab; returns the function that stops it. */
export function onReaderSettingsChange(listener: (settings: ReaderSettings) => void): () => void {
  const onChange = (event: Event) => listener(normalize((event as CustomEvent<unknown>).detail));
  window.addEventListener(SETTINGS_CHANGE_EVENT, onChange);
  return () => window.removeEventListener(SETTINGS_CHANGE_EVENT, onChange);
}

// Another copy of this module on the page (a second bundle) changed them: its copy is this one's too.
window.addEventListener(SETTINGS_CHANGE_EVENT, (event) => {
  memory = normalize((event as CustomEvent<unknown>).detail);
});

// Another tab changed them (or cleared the site's storage): this page follows.
window.addEventListener('storage', (event) => {
  if (event.key !== SETTINGS_KEY && event.key !== null) return;
  window.dispatchEvent(new CustomEvent<ReaderSettings>(SETTINGS_CHANGE_EVENT, { detail: readerSettings() }));
});
