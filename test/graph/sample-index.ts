/**
 * The real embedded index (SQLite, BM25 only) filled with two small documents in two scopes, behind
 * the real `createRetriever`, wrapped so tests can see which scopes each call used and make a search
 * fail on demand. The wrapper forwards every call unchanged.
 */
import type { Config } from '../../src/config.ts';
import type { ParentChunk, Scope } from '../../src/core/types.ts';
import type { Logger } from '../../src/logger.ts';
import { encodeSparseDocument } from '../../src/retrieval/bm25.ts';
import type { ChunkIndex, IndexedChild, Retriever, SearchOptions } from '../../src/retrieval/chunk-index.ts';
import { createRetriever } from '../../src/retrieval/create-retriever.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';

export interface SampleSection {
  id: string;
  pages: [number, number];
  heading: string;
  /** Headings from the top down (default: just `heading`). */
  sectionPath?: string[];
  text: string;
}

export interface SampleDocument {
  id: string;
  name: string;
  scope: Scope;
  sections: SampleSection[];
}

export function sampleDocuments(): SampleDocument[] {
  return [
    {
      id: 'doc-bash',
      name: 'bash.pdf',
      scope: 'shared',
      sections: [
        {
          id: 'bash-loops',
          pages: [12, 13],
          heading: 'Looping Constructs',
          text: 'The while loop runs commands while a test succeeds.\n\nThe until loop runs commands until a test succeeds.',
        },
        {
          id: 'bash-arrays',
          pages: [40, 40],
          heading: 'Arrays',
          text: 'Bash provides one-dimensional indexed and associative array variables.\n\nDeclare an associative array with declare -A.',
        },
      ],
    },
    {
      id: 'doc-secret',
      name: 'secret-plans.pdf',
      scope: 'slack:T-OTHER',
      sections: [
        {
          id: 'secret-loops',
          pages: [1, 1],
          heading: 'Secret loops',
          text: 'The while loop of the other workspace is confidential.',
        },
      ],
    },
  ];
}

export async function writeSampleDocuments(index: ChunkIndex, documents: SampleDocument[]): Promise<void> {
  for (const document of documents) {
    const parents: ParentChunk[] = [];
    const children: IndexedChild[] = [];
    for (const section of document.sections) {
      const location = {
        documentId: document.id,
        documentName: document.name,
        scope: document.scope,
        pageStart: section.pages[0],
        pageEnd: section.pages[1],
        sectionPath: section.sectionPath ?? [section.heading],
      };
      parents.push({ ...location, id: section.id, text: section.text });
      section.text
        .split(/\n\s*\n/)
        .filter((piece) => piece.trim())
        .forEach((piece, position) => {
          // As ingest indexes a child: its section path on the first line, then its text.
          const text = `${location.sectionPath.join(' › ')}\n${piece.trim()}`;
          children.push({
            ...location,
            id: `${section.id}-c${position}`,
            parentId: section.id,
            text,
            sparse: encodeSparseDocument(text),
          });
        });
    }
    await index.replaceDocument({
      document: {
        id: document.id,
        name: document.name,
        scope: document.scope,
        pages: Math.max(...document.sections.map((section) => section.pages[1])),
        bytes: 1_000,
        parents: parents.length,
        children: children.length,
        uploader: 'test',
        ingestedAt: '2026-01-01T00:00:00.000Z',
        embeddingModel: null,
      },
      parents,
      children,
    });
  }
}

export interface RecordingRetriever extends Retriever {
  searches: Array<{ text: string; options: SearchOptions }>;
  parentReads: Array<{ parentId: string; scopes: readonly Scope[] }>;
  /** Makes the next `count` searches fail. */
  failNext(count?: number): void;
}

export function recordCalls(inner: Retriever): RecordingRetriever {
  let failures = 0;
  const recording: RecordingRetriever = {
    searches: [],
    parentReads: [],
    failNext(count = 1) {
      failures += count;
    },
    async search(text, options) {
      recording.searches.push({ text, options: { scopes: [...options.scopes], k: options.k } });
      if (failures > 0) {
        failures--;
        throw new Error('index unavailable');
      }
      return inner.search(text, options);
    },
    async getParent(parentId, scopes) {
      recording.parentReads.push({ parentId, scopes: [...scopes] });
      return inner.getParent(parentId, scopes);
    },
    getDocuments(documentIds, scopes) {
      return inner.getDocuments(documentIds, scopes);
    },
  };
  return recording;
}

/** Opens the real index of `config` (BM25 only), writes the sample documents, returns a recording retriever. */
export async function openSampleIndex(
  config: Config,
  logger: Logger,
  documents = sampleDocuments(),
): Promise<{ index: ChunkIndex; retriever: RecordingRetriever }> {
  const index = await openChunkIndex(config, logger);
  await writeSampleDocuments(index, documents);
  return { index, retriever: recordCalls(createRetriever({ index, embedder: undefined })) };
}
