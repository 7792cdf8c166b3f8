import type { ContextTranslation, ContextVersion, Language, PageContext } from '../../contract/index.ts';
import { format, type Strings } from '../shared/i18n.ts';

/** A version or a translation: the same page there. */
export type Target = ContextVersion | ContextTranslation;
/** Which versions get a notice: `old` ones, `dev` (development) ones, `all`, or `none`. */
export type NoticeSetting = 'old' | 'dev' | 'all' | 'none';

const DOWNLOAD_LABELS: Record<string, string> = { pdf: 'PDF', htmlzip: 'HTML (zip)', epub: 'EPUB' };

/** The language of the page: its translation's, else the project's. */
export function currentLanguage(context: PageContext): Language {
  return context.translations.find((translation) => translation.current)?.language ?? context.project.language;
}

/** The current version's downloads, labelled; web addresses only, as they are rendered as links. */
/** Whether the reader has something to choose: another version or another language. */
export function hasChoice(context: PageContext): boolean {
  return context.versions.length > 1 || context.translations.length > 1;
}

export function downloadLinks(context: PageContext): { label: string; url: string }[] {
  const downloads = Object.entries(context.versions.find((version) => version.current)?.downloads ?? {});
  return downloads.flatMap(([kind, url]) => (url && /^https?:\/\//i.test(url) ? [{ label: DOWNLOAD_LABELS[kind] ?? kind, url }] : []));
}

/** What a menu entry says beside a version: what `stable` points to, `tag` or `branch`. */
export function versionKind(version: ContextVersion, context: PageContext): string {
  if (version.slug === 'stable' && context.stable?.slug === 'stable' && context.stable.release !== 'stable')
    return `→ ${context.stable.release}`;
  if (version.slug === 'latest') return '';
  return version.type === 'tag' ? 'tag' : 'branch';
}

/** Where an entry links: the same page, or the start page where the page is known to be missing. */
export function entryUrl(target: Target): string {
  return target.exists === false ? target.root_url : target.url;
}

/** Which notice this version gets, dismissed or not. */
export function noticeKind(context: PageContext, notice: NoticeSetting): 'old' | 'dev' | undefined {
  const status = context.version.status;
  if (!status || !context.stable) return undefined;
  if (notice === 'none' || (notice !== 'all' && notice !== status)) return undefined;
  return status;
}

/** The notice's text: the arrival on a start page, else the old or development version's unless dismissed. */
export function noticeMessage(
  context: PageContext,
  s: Strings,
  shown: { notice: NoticeSetting; dismissed: boolean; landedOnStart: boolean },
): string | undefined {
  if (shown.landedOnStart) return format(s.landedOnStart, { version: context.version.verbose_name });
  const kind = noticeKind(context, shown.notice);
  if (!kind || shown.dismissed) return undefined;
  return format(kind === 'old' ? s.oldVersionNotice : s.devVersionNotice, { version: context.version.verbose_name });
}

/** The entry a typed character goes to: the next one after `from` whose label starts with it, going round; -1 for none. */
export function typeaheadIndex(labels: readonly string[], from: number, key: string): number {
  const start = from + 1;
  const order = [...labels.keys()].map((offset) => (start + offset) % labels.length);
  return order.find((index) => labels[index]!.trim().toLowerCase().startsWith(key.toLowerCase())) ?? -1;
}
