import { proxySource, type DataSource } from './api.ts';
import { StaticSource } from './static-source.ts';

/** One source per base, which the page's elements share (the static files are then read once). */
const sources = new Map<string, DataSource>();

/** Where an element's answers come from: the files of `doclens build` when it names their folder, else the proxy. */
export function dataSource(proxy: string, staticFiles: string): DataSource {
  const key = staticFiles ? `static ${staticFiles}` : `proxy ${proxy}`;
  let source = sources.get(key);
  if (!source) {
    source = staticFiles ? new StaticSource(new URL(staticFiles, document.baseURI).href) : proxySource(proxy);
    sources.set(key, source);
  }
  return source;
}
