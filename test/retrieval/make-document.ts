import type { FileKind } from '../../src/core/file-kind.ts';
import { encodeSparseDocument, sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import type { IndexedChild, ReplaceDocumentInput } from '../../src/retrieval/chunk-index.ts';

/**
 * A small document for index tests: one child per text and, by default, one parent per child
 * (`parentOf` maps a child's index to its parent's index to give parents several children).
 */
export function makeDocument(options: {
  id: string;
  name?: string;
  scope: string;
  texts: string[];
  dense?: (text: string, index: number) => Float32Array;
  model?: string | null;
  replaces?: string[];
  parentOf?: (index: number) => number;
  /** What the document is (default pdf: positions are pages). */
  kind?: FileKind;
}): ReplaceDocumentInput {
  const parentOf = options.parentOf ?? ((index: number) => index);
  const name = options.name ?? `${options.id}.pdf`;
  const location = (index: number) => ({
    documentId: options.id,
    documentName: name,
    scope: options.scope,
    pageStart: index + 1,
    pageEnd: index + 1,
    sectionPath: [name, `Section ${index + 1}`],
  });
  const parentIndexes = [...new Set(options.texts.map((_text, index) => parentOf(index)))];
  const parents = parentIndexes.map((parent) => ({
    id: `${options.id}:p${parent}`,
    text: `Parent of: ${options.texts.filter((_text, index) => parentOf(index) === parent).join(' ')}`,
    ...location(parent),
  }));
  const children: IndexedChild[] = options.texts.map((text, index) => ({
    id: `${options.id}:c${index}`,
    parentId: `${options.id}:p${parentOf(index)}`,
    text,
    sparse: encodeSparseDocument(text),
    ...(options.dense ? { dense: options.dense(text, index) } : {}),
    ...location(index),
  }));
  return {
    document: {
      id: options.id,
      name,
      scope: options.scope,
      pages: options.texts.length,
      bytes: 1000,
      parents: parents.length,
      children: children.length,
      uploader: 'test',
      ingestedAt: '2026-01-01T00:00:00.000Z',
      embeddingModel: options.dense ? (options.model ?? 'test-embed') : null,
      sparseWeightsVersion,
      kind: options.kind ?? 'pdf',
    },
    parents,
    children,
    ...(options.replaces ? { replaces: options.replaces } : {}),
  };
}

/** A unit vector along one axis (plus a little of another), so dense rankings are predictable. */
export function axis(dimension: number, at: number, leak = 0, leakAt = (at + 1) % dimension): Float32Array {
  const vector = new Float32Array(dimension);
  vector[at] = 1;
  vector[leakAt] = leak;
  return vector;
}

/** Parent 0 holds four children that match "kiwi" best; parents 1 and 2 one weaker child each. */
export const crowdedTexts = [
  'kiwi kiwi kiwi orchard',
  'kiwi kiwi kiwi harvest',
  'kiwi kiwi kiwi packing',
  'kiwi kiwi kiwi export',
  'kiwi grows on vines in a warm and sunny climate near the coast',
  'a kiwi is also a flightless bird that lives in the forests of the country',
];
export const crowdedParent = (index: number) => (index < 4 ? 0 : index - 3);

/** `count` child texts on `word`, numbered, spread over 17 topics (enough children for several segments). */
export const numberedParagraphs = (word: string, count: number) =>
  Array.from({ length: count }, (_unused, at) => `${word} paragraph ${at} about topic${at % 17}`);
