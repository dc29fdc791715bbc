/**
 * `reindex --refetch` keeps each page under the guard of whoever added it: a page a chat added is
 * fetched again as a chat fetch (its host may point at a private address by now, and what comes back
 * goes into that chat's documents), a page the operator added as the CLI. Real services on one data
 * dir, opened twice: first with 127.0.0.1 in RAGENT_FETCH_ALLOW, then without.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWebDocument } from '../../src/core/types.ts';
import { type FakeWebsite, sitePage, startFakeWebsite } from '../fakes/fake-website.ts';
import { closedPort } from '../support/free-port.ts';
import { createTestServices } from '../support/test-services.ts';

let site: FakeWebsite;
let dataDir: string;
let ollamaUrl: string;
beforeAll(async () => {
  site = await startFakeWebsite();
  dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-refetch-guard-'));
  ollamaUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('refetching web pages', () => {
  it('fetches a chat-added page again under the chat guard, an operator-added one freely', async () => {
    site.page(
      '/chat-page',
      sitePage({ title: 'Chat page', sections: [{ heading: 'A', text: 'Added from a channel.' }] }),
    );
    site.page(
      '/cli-page',
      sitePage({ title: 'CLI page', sections: [{ heading: 'B', text: 'Added by the operator.' }] }),
    );
    const allowed = await createTestServices({
      ollamaUrl,
      dataDir,
      environment: { RAGENT_EMBEDDINGS: 'none', RAGENT_FETCH_ALLOW: '127.0.0.1' },
    });
    try {
      const scope = 'slack:T1:C1';
      await allowed.web.ingestUrl({
        url: `${site.url}/chat-page`,
        scope,
        uploader: 'slack:U1',
        origin: 'chat',
      });
      await allowed.web.ingestUrl({
        url: `${site.url}/cli-page`,
        scope,
        uploader: 'cli:operator',
        origin: 'cli',
      });
    } finally {
      await allowed.dispose({ keepDataDir: true });
    }

    const guarded = await createTestServices({
      ollamaUrl,
      dataDir,
      environment: { RAGENT_EMBEDDINGS: 'none' },
    });
    try {
      const pages = (await guarded.ingestion.listDocuments(['slack:T1:C1'])).filter(isWebDocument);
      expect(pages.map((page) => page.name).sort()).toEqual([
        `${site.url}/chat-page`,
        `${site.url}/cli-page`,
      ]);
      const chatPage = pages.find((page) => page.uploader === 'slack:U1');
      const cliPage = pages.find((page) => page.uploader === 'cli:operator');
      if (!chatPage || !cliPage) throw new Error('both pages are stored');
      const before = site.requests.length;
      await expect(guarded.web.refetch(chatPage)).rejects.toMatchObject({ code: 'FETCH_ADDRESS_REFUSED' });
      expect(site.requests.length).toBe(before);
      expect((await guarded.web.refetch(cliPage)).status).toBe('unchanged');
    } finally {
      await guarded.dispose({ keepDataDir: true });
    }
  });
});
