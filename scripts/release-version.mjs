// npm's `version` step (`npm version <new version>`, between the bump and its commit and tag): the
// Python package takes the same version, and CHANGELOG.md's "Unreleased" section becomes that
// release's, under a new empty "Unreleased". Both files are staged for the commit npm makes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const version = process.env.npm_package_version;
if (!version) throw new Error('run through `npm version <version>`');

const python = 'python/sphinx_doclens/__init__.py';
writeFileSync(python, readFileSync(python, 'utf8').replace(/^__version__ = ".*"$/m, `__version__ = "${version}"`));

const changelog = 'CHANGELOG.md';
const today = new Date().toISOString().slice(0, 10);
const text = readFileSync(changelog, 'utf8');
if (!text.includes('\n## Unreleased\n')) throw new Error(`${changelog} has no "## Unreleased" section to release`);
writeFileSync(changelog, text.replace('\n## Unreleased\n', `\n## Unreleased\n\n## ${version} (${today})\n`));

execFileSync('git', ['add', python, changelog], { stdio: 'inherit' });
