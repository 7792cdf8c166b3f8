// Component tests in headless Chromium, against a real proxy and local docs host started here.
import { existsSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { register } from 'tsx/esm/api';

const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  throw new Error(
    `No Chromium at ${executablePath}: install it (apt-get install chromium) or set CHROME_PATH to a Chrome or Chromium binary.`,
  );
}

register();
const { startWidgetFixtures } = await import('./test/fixtures/widget-servers.ts');
const fixtures = await startWidgetFixtures();
process.once('exit', () => void fixtures.close());

export default {
  files: ['widget/**/*.test.ts'],
  nodeResolve: { exportConditions: ['development'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.base.json' })],
  browsers: [
    playwrightLauncher({
      launchOptions: {
        executablePath,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      },
    }),
  ],
  testFramework: { config: { timeout: 15000 } },
  testRunnerHtml: (testFramework) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>
    <script type="application/json" id="doclens-fixtures">${JSON.stringify(fixtures.info)}</script>
    <script type="module" src="${testFramework}"></script></body></html>`,
};
