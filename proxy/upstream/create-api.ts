import type { UpstreamApi } from './api.ts';
import { UpstreamClient } from './client.ts';
import type { Fetcher } from './fetch.ts';
import { UpstreamApiV2 } from './v2.ts';
import { UpstreamApiV3 } from './v3.ts';

/** The API of the upstream at `origin`, in the version it speaks. */
export function createUpstreamApi(fetcher: Fetcher, origin: string, version: 'v3' | 'v2'): UpstreamApi {
  // API v2's endpoints are public: no credential goes to them.
  return version === 'v3'
    ? new UpstreamApiV3(new UpstreamClient(fetcher, origin, true))
    : new UpstreamApiV2(new UpstreamClient(fetcher, origin, false));
}
