import { fileURLToPath } from 'node:url';

/**
 * doclens runs either from its TypeScript sources (a checkout, through tsx or vitest) or from the
 * JavaScript tsc compiles into lib/ (an installed package). lib/ mirrors the source tree one folder
 * down, so a file's place in the package is found from this module's own extension.
 */
const compiled = fileURLToPath(import.meta.url).endsWith('.js');

/** The extension of the package's modules as they run: `.ts` from the sources, `.js` compiled. */
export const moduleExtension = compiled ? '.js' : '.ts';

const packageRoot = new URL(compiled ? '../../' : '../', import.meta.url);

/** The path of a file or folder of the package (`dist/`, `package.json`, `demo/docs/manifest.json`). */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(relative, packageRoot));
}

/** The URL of a module as it runs, from its source URL (`new URL('./index-worker.ts', import.meta.url)`). */
export function runningModule(source: URL): URL {
  return new URL(source.href.replace(/\.ts$/, moduleExtension));
}
