/**
 * `/ragent ingest <url>` in any chat: the addresses in the command's text, and each one as a file of
 * an ingest job — fetched under the chat's address guard (no private, loopback or link-local address
 * unless RAGENT_FETCH_ALLOW lists it; see ingest/web/address-guard.ts) and ingested like an upload,
 * named and linked by its address. A platform only finds the addresses and hands the files to its job.
 */
import type { IngestFile } from '../core/chat-platform.ts';
import type { WebIngestion } from '../core/types.ts';
import { chatFile } from '../ingestion/chat-file.ts';

/** The http(s) addresses of a command's text: bare, or in Slack's `<url>` / `<url|label>` form. */
export function webAddressesIn(text: string): string[] {
  const found = [...text.matchAll(/<?(https?:\/\/[^\s<>|]+)(?:\|[^>]*)?>?/gi)].map((match) => match[1] ?? '');
  return [...new Set(found.filter(Boolean))];
}

export function webPageFile(web: WebIngestion, url: string): IngestFile {
  return chatFile(url, async () => {
    const page = await web.fetchPage({ url, origin: 'chat' });
    return { bytes: page.bytes, link: page.url, url: page.url };
  });
}
