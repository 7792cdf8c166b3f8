import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, searchByKeyboard, startDemo } from '../e2e/browser.ts';

/**
 * The README's install before a release, `npm install github:doclens/doclens`, done the same way from a
 * local clone of this checkout's last commit (`git+file://`): npm clones it, installs its development
 * dependencies and runs its `prepare` (the build), then keeps what `files` lists. Then the demo runs
 * from that install, searched in Chromium.
 */
const checkout = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version: string };
let work: string;
let app: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'doclens-git-url-'));
  const clone = join(work, 'clone');
  execFileSync('git', ['clone', '--quiet', `file://${checkout}`, clone]);
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-doclens', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], { cwd: app, stdio: 'pipe' });
}, 600_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm install git+file://<clone>', () => {
  it('installs the built package: the command, its version, the compiled code and the widget', () => {
    const answer = spawnSync('npx', ['--no-install', 'doclens', '--version'], { cwd: app, encoding: 'utf8' });
    expect(answer.stdout.trim()).toBe(version);
    const installed = join(app, 'node_modules/doclens');
    for (const file of ['lib/cli/main.js', 'dist/doclens.js', 'dist/doclens.js.br', 'LICENSE', 'CHANGELOG.md'])
      expect(readFileSync(join(installed, file)).length, file).toBeGreaterThan(0);
  });

  it('serves the demo with the widget: `npx doclens demo`, searched in Chromium', async () => {
    const demo = await startDemo([], join(app, 'node_modules/.bin/doclens'));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(new URL('quickstart.html', demo.url).href);
      const results = await searchByKeyboard(page, 'lease');
      expect(results.some((href) => href.includes('highlight=lease'))).toBe(true);
    } finally {
      await browser.close();
      expect(await demo.stop()).toBe(0);
    }
  });
});
