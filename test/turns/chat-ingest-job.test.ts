/**
 * The one chat ingest job: which set the files go to, from what the person picked or said (a DM,
 * having no channel set, always the workspace's), and web pages as files named by their address
 * after redirects.
 */
import { describe, expect, it } from 'vitest';
import type { IngestFile, ReplySurface, Status } from '../../src/core/chat-platform.ts';
import type { WebIngestion } from '../../src/core/types.ts';
import {
  type ChatIngestRequest,
  chatIngestJob,
  showingFirstStatus,
} from '../../src/turns/chat-ingest-job.ts';

const file: IngestFile = { name: 'a.pdf', download: async () => new Uint8Array([1]) };
const fetched: string[] = [];
const web = {
  fetchPage: async ({ url }: { url: string }) => {
    fetched.push(url);
    return { url: `${url}/after-redirect`, bytes: new TextEncoder().encode('# Page') };
  },
} as unknown as WebIngestion;

const request = (more: Partial<ChatIngestRequest>): ChatIngestRequest => ({
  key: 'k',
  reference: 'ref',
  uploader: 'U1',
  sets: { channel: 'channel-set', place: 'workspace-set' },
  asked: { text: 'ingest' },
  defaultSet: 'channel',
  open: async () => {
    throw new Error('not shown in this test');
  },
  ...more,
});

describe('an ingest job from a chat', () => {
  it('adds to the set the person picked or said, else the default', () => {
    expect(chatIngestJob(request({})).scope).toBe('channel-set');
    expect(chatIngestJob(request({ defaultSet: 'workspace' })).scope).toBe('workspace-set');
    expect(chatIngestJob(request({ asked: { text: 'ingest for everyone' } })).scope).toBe('workspace-set');
    expect(chatIngestJob(request({ asked: { picked: 'server' } })).scope).toBe('workspace-set');
    expect(chatIngestJob(request({ asked: { picked: null }, defaultSet: 'workspace' })).scope).toBe(
      'workspace-set',
    );
    expect(
      chatIngestJob(request({ asked: { text: 'ingest for this channel' }, defaultSet: 'workspace' })).scope,
    ).toBe('channel-set');
  });

  it('adds to the workspace’s set where there is no channel set (a DM), whatever was asked', () => {
    const dm = request({ sets: { place: 'workspace-set' }, asked: { picked: 'channel' } });
    expect(chatIngestJob(dm).scope).toBe('workspace-set');
  });

  it('keeps the files in order, then the web pages, each named by its address after redirects', async () => {
    const job = chatIngestJob(request({ files: [file], pages: { web, urls: ['https://docs.example'] } }));
    expect(job.files.map((each) => each.name)).toEqual(['a.pdf', 'https://docs.example']);
    const page = job.files[1]!;
    expect(page.url?.()).toBeUndefined();
    await page.download();
    expect(fetched).toEqual(['https://docs.example']);
    expect(page.url?.()).toBe('https://docs.example/after-redirect');
    expect(page.link?.()).toBe('https://docs.example/after-redirect');
  });

  it('shows the first status on a surface the platform opened without one', async () => {
    const shown: Status[] = [];
    const surface = {
      location: {},
      showStatus: async (status: Status) => void shown.push(status),
    } as unknown as ReplySurface;
    const first: Status = { kind: 'ingest', files: [{ name: 'a.pdf', state: 'waiting' }] };
    expect(await showingFirstStatus(async () => surface)(first)).toBe(surface);
    expect(shown).toEqual([first]);
  });
});
