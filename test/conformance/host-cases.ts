import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startHost } from '../../host/app.ts';
import { parseManifest } from '../../host/manifest.ts';
import { compareContent, type EmbedCase } from './embed-v3.ts';
import type { CaseResult } from './types.ts';

const TOKEN = 'conformance-token';

/**
 * Cases that do not apply to a docs host, and why. Everything else in `embed-v3/v3` that a host can
 * answer (its own pages, and the argument errors) runs against a live host.
 */
export const NOT_FOR_THE_HOST: Record<string, string> = {
  'access-public-anonymous': 'API v3 of the host requires a token for every endpoint, embed included (401 without)',
  'access-private-anonymous': 'API v3 of the host requires a token for every endpoint, embed included (401 without)',
  'access-allowed-external-default-allowlist':
    'external pages are fetched by the proxy, not the host (the extraction runs in embed-v3/extraction)',
  'derived-fragment-not-found': 'external page: fetched by the proxy (the extraction runs in embed-v3/extraction)',
  'err-rate-limit': 'per-domain rate limits of external fetches belong to the proxy',
  'err-infinite-redirect': 'redirects of external fetches belong to the proxy',
};

interface Exchange {
  status: number;
  body: Record<string, unknown>;
}

async function embedOn(apiUrl: string, params: Record<string, string | null | undefined>, token: boolean): Promise<Exchange> {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const response = await fetch(`${apiUrl}/api/v3/embed/?${query}`, { headers: token ? { authorization: `Token ${TOKEN}` } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function compareExchange(testCase: EmbedCase, got: Exchange, toCaseOrigin: (text: string) => string): string | undefined {
  const { expected } = testCase;
  if (got.status !== expected.status) return `status ${got.status} != ${expected.status} (${JSON.stringify(got.body).slice(0, 200)})`;
  for (const [key, want] of Object.entries(expected.body)) {
    if (key === 'content' || want === '<ANY>') continue;
    const have = typeof got.body[key] === 'string' ? toCaseOrigin(got.body[key] as string) : got.body[key];
    if (JSON.stringify(have) !== JSON.stringify(want)) return `${key}: ${JSON.stringify(have)} != ${JSON.stringify(want)}`;
  }
  return expected.status === 200 ? compareContent(testCase, toCaseOrigin(String(got.body.content))) : undefined;
}

/** A case whose page the hosting service reads from its storage: served by a host of its own. */
async function runStorageCase(testCase: EmbedCase): Promise<string | undefined> {
  const { request } = testCase;
  const [, projectSlug, versionSlug, ...file] = request.storage!.path.split('/');
  const folder = mkdtempSync(join(tmpdir(), 'doclens-conformance-'));
  try {
    const target = join(folder, ...file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, testCase.page!);
    const manifest = parseManifest(
      {
        projects: [
          {
            slug: projectSlug,
            name: projectSlug,
            defaultVersion: versionSlug,
            versions: [{ slug: versionSlug, path: folder, privacyLevel: request.version_privacy ?? 'public' }],
          },
        ],
      },
      folder,
    );
    const host = await startHost({ manifest, token: TOKEN, port: 0 });
    try {
      const caseUrl = new URL(request.url!);
      const hostUrl = request.url!.replace(caseUrl.origin, host.apiUrl);
      const got = await embedOn(host.apiUrl, { url: hostUrl, doctool: request.doctool, maincontent: request.maincontent }, true);
      return compareExchange(testCase, got, (text) => text.replaceAll(host.apiUrl, caseUrl.origin));
    } finally {
      await host.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every embed-v3 case a docs host answers, against a live local host. */
export async function runHostCases(cases: EmbedCase[], errorHostDocs: string): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const errorHost = await startHost({
    manifest: parseManifest(
      { projects: [{ slug: 'demo', name: 'demo', versions: [{ slug: 'latest', path: errorHostDocs }] }] },
      errorHostDocs,
    ),
    token: TOKEN,
    port: 0,
  });
  try {
    for (const testCase of cases) {
      if (NOT_FOR_THE_HOST[testCase.name]) continue;
      const { request, expected } = testCase;
      const id = `embed-v3/host/${testCase.name}`;
      if (request.storage) {
        results.push({ id, failure: await runStorageCase(testCase) });
      } else if (expected.status >= 400 && !request.served_at) {
        const got = await embedOn(errorHost.apiUrl, { url: request.url, doctool: request.doctool, maincontent: request.maincontent }, true);
        results.push({ id, failure: compareExchange(testCase, got, (text) => text) });
      }
    }
  } finally {
    await errorHost.close();
  }
  return results;
}
