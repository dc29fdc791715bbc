/**
 * Web pages as documents. A page is fetched (fetch-url.ts: bounded, and guarded against private
 * addresses when a chat asks), its main content turned into Markdown (web-page.ts), and ingested as
 * one document named by its address and linked to it — so a citation names the page and links to it,
 * and ingesting the address again replaces the stored page only when its content changed. A crawl
 * ingests each page of a site the same way; a refetch reads a stored page's address again.
 */
import type {
  CrawlPageOutcome,
  DocumentRecord,
  Ingestion,
  IngestProgressListener,
  IngestReport,
  UrlIngestRequest,
  WebIngestion,
} from '../../core/types.ts';
import { isRagentError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { FetchedResource, Fetcher } from './fetch-url.ts';
import type { WebPage } from './web-page.ts';

// The HTML and robots.txt libraries load with the first page, not with every start of ragent.
async function webPageOf(resource: FetchedResource): Promise<WebPage> {
  return (await import('./web-page.ts')).webPageOf(resource);
}

export interface WebIngestionDependencies {
  ingestion: Ingestion;
  fetch: Fetcher;
  logger: Logger;
  /** Pages a crawl fetches at the same time (RAGENT_CRAWL_CONCURRENCY). */
  crawlConcurrency: number;
}

export function createWebIngestion({
  ingestion,
  fetch,
  logger,
  crawlConcurrency,
}: WebIngestionDependencies): WebIngestion {
  const ingestPage = (
    page: WebPage,
    request: Omit<UrlIngestRequest, 'url' | 'origin'>,
    name: string,
    onProgress?: IngestProgressListener,
  ): Promise<IngestReport> =>
    ingestion.ingest(
      {
        name,
        url: page.url,
        link: page.url,
        bytes: page.bytes,
        scope: request.scope,
        uploader: request.uploader,
        ...(request.force ? { force: true } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
      onProgress,
    );

  return {
    ingestUrl: async (request, onProgress) => {
      onProgress?.({ stage: 'reading', done: 0, total: 1, unit: 'pages' });
      const resource = await fetch({
        url: request.url,
        origin: request.origin,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const page = await webPageOf(resource);
      return ingestPage(page, request, page.url, onProgress);
    },
    fetchPage: async ({ url, origin, signal }) => {
      const page = await webPageOf(await fetch({ url, origin, ...(signal ? { signal } : {}) }));
      return { url: page.url, bytes: page.bytes };
    },
    crawl: async (request, onPage) => {
      const { crawlSite } = await import('./crawl-site.ts');
      const summary = await crawlSite(request.url, {
        fetch,
        origin: request.origin,
        maxPages: request.maxPages,
        concurrency: crawlConcurrency,
        ...(request.signal ? { signal: request.signal } : {}),
        onPage: async (page) => {
          let outcome: CrawlPageOutcome;
          try {
            outcome = { url: page.url, report: await ingestPage(page, request, page.url) };
          } catch (error) {
            if (!isRagentError(error) || error.code === 'INGEST_CANCELLED') throw error;
            outcome = { url: page.url, code: error.code, message: error.message };
          }
          onPage?.(outcome);
        },
        onFailure: (url, error) => onPage?.({ url, code: error.code, message: error.message }),
      });
      logger.info({ url: request.url, scope: request.scope, ...summary }, 'site crawled');
      return summary;
    },
    refetch: async (document: DocumentRecord, signal?: AbortSignal) => {
      const url = document.link ?? document.name;
      // A page a chat added is fetched again under the chat's guard: its host may resolve elsewhere now
      // (a private address), and what it returns goes into that chat's documents.
      const origin = document.uploader.startsWith('cli:') ? 'cli' : 'chat';
      const resource = await fetch({ url, origin, ...(signal ? { signal } : {}) });
      const page = await webPageOf(resource);
      // The document keeps its name (the address it was ingested under), even after a new redirect.
      return ingestPage(
        page,
        { scope: document.scope, uploader: document.uploader, ...(signal ? { signal } : {}) },
        document.name,
      );
    },
  };
}
