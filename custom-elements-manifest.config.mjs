// `npm run build` writes custom-elements.json (`cem analyze`) from the JSDoc headers of the elements
// (@tag, @event, @csspart, @slot, @cssproperty) and their Lit properties, for editors and catalogue
// tools; package.json's "customElements" points to it.

/** A source module's path as the package ships it: `widget/search/doclens-search.ts` → `lib/widget/search/doclens-search.js`. */
const shipped = (path) => path.replace(/^\/?(widget\/.+)\.ts$/, 'lib/$1.js');

/**
 * Modules named by the JavaScript an installed package has (lib/, compiled by tsc), and each element's
 * tag listed as a definition of its module: the elements register through `define()` (a page may have
 * defined them already), which the analyzer does not read as `customElements.define`.
 */
const shippedModules = {
  name: 'doclens-shipped-modules',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      module.path = shipped(module.path);
      for (const declaration of module.declarations ?? []) {
        if (declaration.superclass?.module) declaration.superclass.module = shipped(declaration.superclass.module);
        if (declaration.customElement && declaration.tagName) {
          module.exports.push({
            kind: 'custom-element-definition',
            name: declaration.tagName,
            declaration: { name: declaration.name, module: module.path },
          });
        }
      }
      for (const entry of module.exports ?? []) entry.declaration.module = shipped(entry.declaration.module);
    }
  },
};

export default {
  globs: ['widget/*/doclens-*.ts'],
  exclude: ['**/*.test.ts'],
  litelement: true,
  packagejson: false,
  outdir: '.',
  plugins: [shippedModules],
};
