/**
 * A file shared in a chat, as an ingest or a question's thread reads it, for every platform: fetched
 * only when it is read, and its link (what an answer's sources open) and address learnt with its
 * bytes — a platform may only know them once it has asked for the file (an upload's details, a
 * command's reply, a web page's address after redirects).
 */
import type { IngestFile } from '../core/chat-platform.ts';

export interface FetchedFile {
  bytes: Uint8Array;
  link?: string | undefined;
  /** A web page's address after redirects: the document is named by it. */
  url?: string | undefined;
}

export function chatFile(name: string, fetch: () => Promise<FetchedFile>): IngestFile {
  let fetched: FetchedFile | undefined;
  return {
    name,
    download: async () => {
      fetched = await fetch();
      return fetched.bytes;
    },
    link: () => fetched?.link,
    url: () => fetched?.url,
  };
}
