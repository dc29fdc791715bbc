/**
 * The behaviour every `ChunkIndex` backend promises, written once and run against each of them
 * (sqlite-chunk-index.test.ts, qdrant-chunk-index.test.ts), as LangGraph's checkpoint-validation runs one
 * spec against every saver. Backend-specific behaviour stays in the backend's own test file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { encodeSparseQuery, sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import type { ChunkIndex } from '../../src/retrieval/chunk-index.ts';
import { axis, crowdedParent, crowdedTexts, makeDocument } from './make-document.ts';

export interface ChunkIndexUnderTest {
  index: ChunkIndex;
  /** Closes the index (the one `faults.recover` opened, too) and whatever the backend needed. */
  dispose(): Promise<void>;
  /** Failures injected into the backend's own steps (statements or requests), never into our modules. */
  faults: {
    /** What a failed step may still have changed: nothing, or everything (a request that failed late). */
    applyModes: ReadonlyArray<'none' | 'all'>;
    /**
     * The `step`-th step (0-based) of the next write fails; with `crash`, every later one fails too
     * and changes nothing — the process died there.
     */
    failAt(step: number, options: { apply: 'none' | 'all'; crash: boolean }): void;
    /** Whether the armed failure fired (false: the write has fewer steps). */
    fired(): boolean;
    /** Ends the failures and opens the index again as a new process (which sweeps leftovers). */
    recover(): Promise<ChunkIndex>;
    /** Documents, parents and children stored, leftovers included. */
    stored(): Promise<{ documents: number; parents: number; children: number }>;
  };
}

const query = (text: string, dense?: Float32Array) => ({ text, sparse: encodeSparseQuery(text), dense });

const bashTexts = [
  'A while loop runs its commands as long as the test command succeeds.',
  'Parameter expansion replaces $name with the value of the variable.',
  'Here documents feed lines of the script to a command as standard input.',
];

export function describeChunkIndexContract(backend: string, open: () => Promise<ChunkIndexUnderTest>): void {
  describe(`ChunkIndex contract: ${backend}`, () => {
    let underTest: ChunkIndexUnderTest;
    let index: ChunkIndex;
    beforeEach(async () => {
      underTest = await open();
      index = underTest.index;
    });
    afterEach(async () => {
      await underTest.dispose();
    });

    it('finds children by BM25 and returns their location', async () => {
      await index.replaceDocument(makeDocument({ id: 'bash', scope: 'shared', texts: bashTexts }));
      const hits = await index.search(query('how does parameter expansion work'), {
        scopes: ['shared'],
        k: 3,
      });
      expect(hits[0]?.child).toMatchObject({
        id: 'bash:c1',
        parentId: 'bash:p1',
        documentName: 'bash.pdf',
        pageStart: 2,
        sectionPath: ['bash.pdf', 'Section 2'],
        scope: 'shared',
      });
      expect(hits[0]?.score).toBeGreaterThan(0);
      expect(hits.every((hit) => hit.child.id !== 'bash:c2')).toBe(true);
    });

    it('returns at most two children of one parent, filling the top k from further down', async () => {
      await index.replaceDocument(
        makeDocument({ id: 'fruit', scope: 'shared', texts: crowdedTexts, parentOf: crowdedParent }),
      );
      const hits = await index.search(query('kiwi'), { scopes: ['shared'], k: 4 });
      expect(hits.map((hit) => hit.child.parentId).sort()).toEqual([
        'fruit:p0',
        'fruit:p0',
        'fruit:p1',
        'fruit:p2',
      ]);
      expect(hits.slice(0, 2).map((hit) => hit.child.parentId)).toEqual(['fruit:p0', 'fruit:p0']);
      expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
      // With no other parent left, the rest of parent 0 still fills the places.
      expect(await index.search(query('kiwi'), { scopes: ['shared'], k: 6 })).toHaveLength(6);
    });

    it('never returns another scope’s chunks, even for the same document bytes', async () => {
      await index.replaceDocument(
        makeDocument({ id: 'same', scope: 'slack:T1', texts: ['secret alpha plans'] }),
      );
      await index.replaceDocument(
        makeDocument({ id: 'same', scope: 'slack:T2', texts: ['secret alpha plans'] }),
      );
      await index.replaceDocument(
        makeDocument({ id: 'other', scope: 'slack:T2', texts: ['alpha beta gamma'] }),
      );
      const hits = await index.search(query('alpha'), { scopes: ['slack:T1'], k: 10 });
      expect(hits).toHaveLength(1);
      expect(hits[0]?.child.scope).toBe('slack:T1');
      expect(await index.search(query('alpha'), { scopes: [], k: 10 })).toEqual([]);
      expect(await index.search(query('alpha'), { scopes: ['discord:G'], k: 10 })).toEqual([]);
      expect((await index.listDocuments(['slack:T1'])).map((doc) => doc.scope)).toEqual(['slack:T1']);
      expect(await index.getDocument('other', 'slack:T1')).toBeUndefined();
      expect(await index.getDocument('other', 'slack:T2')).toMatchObject({ id: 'other', scope: 'slack:T2' });
    });

    it('keeps the upload link of a document, and none for a document without one', async () => {
      const link = 'https://example.slack.com/files/U1/F1/linked.pdf';
      const linked = makeDocument({ id: 'linked', scope: 'slack:T1', texts: ['mango'] });
      await index.replaceDocument({ ...linked, document: { ...linked.document, link } });
      await index.replaceDocument(makeDocument({ id: 'plain', scope: 'slack:T1', texts: ['papaya'] }));
      expect((await index.getDocument('linked', 'slack:T1'))?.link).toBe(link);
      const listed = await index.listDocuments(['slack:T1']);
      expect(listed.map((document) => [document.id, document.link])).toEqual([
        ['linked', link],
        ['plain', undefined],
      ]);
      expect(await index.getDocument('plain', 'slack:T1')).not.toHaveProperty('link');
    });

    it('keeps the BM25 weights’ version of each document (through a move), and none when written without', async () => {
      await index.replaceDocument(makeDocument({ id: 'current', scope: 'slack:T1:C1', texts: ['apricot'] }));
      const older = makeDocument({ id: 'older', scope: 'slack:T1', texts: ['damson'] });
      const { sparseWeightsVersion: _version, ...unversioned } = older.document;
      await index.replaceDocument({ ...older, document: unversioned });
      expect((await index.getDocument('current', 'slack:T1:C1'))?.sparseWeightsVersion).toBe(
        sparseWeightsVersion,
      );
      expect(await index.getDocument('older', 'slack:T1')).not.toHaveProperty('sparseWeightsVersion');
      const moved = await index.moveDocument('current', 'slack:T1:C1', 'slack:T1');
      expect(moved.document.sparseWeightsVersion).toBe(sparseWeightsVersion);
      const listed = await index.listDocuments(['slack:T1']);
      expect(listed.map((document) => [document.id, document.sparseWeightsVersion])).toEqual([
        ['current', sparseWeightsVersion],
        ['older', undefined],
      ]);
    });

    it("keeps each document's kind; one stored without a kind (before kinds) reads as pdf, markdown or text by its name", async () => {
      await index.replaceDocument(
        makeDocument({ id: 'x', name: 'costs.xlsx', kind: 'xlsx', scope: 'shared', texts: ['kiwi'] }),
      );
      for (const [id, name] of [
        ['m', 'notes.md'],
        ['t', 'notes.txt'],
        ['p', 'old.pdf'],
      ]) {
        const old = makeDocument({ id: id as string, name, scope: 'shared', texts: ['lime'] });
        delete old.document.kind;
        await index.replaceDocument(old);
      }
      const kinds = (await index.listDocuments(['shared'])).map((document) => [document.name, document.kind]);
      expect(kinds.sort()).toEqual([
        ['costs.xlsx', 'xlsx'],
        ['notes.md', 'markdown'],
        ['notes.txt', 'text'],
        ['old.pdf', 'pdf'],
      ]);
      expect((await index.getDocument('x', 'shared'))?.kind).toBe('xlsx');
    });

    it('lists the documents of every scope, by scope then name (`ragent docs list --all`)', async () => {
      await index.replaceDocument(makeDocument({ id: 'b', scope: 'slack:T1:C1', texts: ['kiwi'] }));
      await index.replaceDocument(makeDocument({ id: 'a', scope: 'slack:T1:C1', texts: ['lime'] }));
      await index.replaceDocument(makeDocument({ id: 'c', scope: 'shared', texts: ['fig'] }));
      expect(index.listAllDocuments).toBeDefined();
      const all = (await index.listAllDocuments?.()) ?? [];
      expect(all.map((document) => [document.scope, document.name])).toEqual([
        ['shared', 'c.pdf'],
        ['slack:T1:C1', 'a.pdf'],
        ['slack:T1:C1', 'b.pdf'],
      ]);
    });

    it('reads a document back whole: parents and children in the order written, as written (`ragent reindex`)', async () => {
      const texts = Array.from({ length: 23 }, (_unused, at) => `chunk ${at} on pump topic ${at % 5}`);
      const written = makeDocument({
        id: 'manual',
        scope: 'slack:T1',
        texts,
        parentOf: (at) => Math.floor(at / 3),
        dense: (_text, at) => axis(4, at % 4, 0.5),
      });
      // Written in an order their ids do not sort into: the order written is what comes back.
      const input = {
        ...written,
        parents: [...written.parents].reverse(),
        children: [...written.children].reverse(),
      };
      await index.replaceDocument(input);
      await index.replaceDocument(makeDocument({ id: 'other', scope: 'slack:T1', texts: ['valve'] }));
      expect(index.readDocument).toBeDefined();
      const stored = await index.readDocument!('manual', 'slack:T1');
      expect(stored).toEqual({
        document: written.document,
        parents: input.parents,
        children: input.children.map(({ sparse: _sparse, dense: _dense, ...child }) => child),
      });
      expect(await index.readDocument!('manual', 'slack:T2')).toBeUndefined();
      expect(await index.readDocument!('absent', 'slack:T1')).toBeUndefined();
      // Replaced by a new version of the same file: the old id reads as gone, the new one whole.
      await index.replaceDocument(
        makeDocument({
          id: 'manual-2',
          name: 'manual.pdf',
          scope: 'slack:T1',
          texts: ['new'],
          replaces: ['manual'],
        }),
      );
      expect(await index.readDocument!('manual', 'slack:T1')).toBeUndefined();
      expect(
        (await index.readDocument!('manual-2', 'slack:T1'))?.children.map((child) => child.text),
      ).toEqual(['new']);
    });

    it('writes a re-index (`onlyIfCurrent`) only over the document it read, never over a newer file or a removal', async () => {
      const first = makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] });
      await index.replaceDocument(first);
      // The document read is still current: the conditional write goes through.
      await index.replaceDocument({ ...first, onlyIfCurrent: true });
      expect((await index.listDocuments(['shared'])).map((document) => document.id)).toEqual(['v1']);

      // A newer file of that name since: refused, the newer one stays the one searched.
      const second = makeDocument({
        id: 'v2',
        name: 'guide.pdf',
        scope: 'shared',
        texts: ['new yak'],
        replaces: ['v1'],
      });
      await index.replaceDocument(second);
      await expect(index.replaceDocument({ ...first, onlyIfCurrent: true })).rejects.toMatchObject({
        code: 'DOCUMENT_CHANGED',
      });
      expect((await index.listDocuments(['shared'])).map((document) => document.id)).toEqual(['v2']);
      expect(await index.search(query('zebra'), { scopes: ['shared'], k: 5 })).toEqual([]);
      expect(await index.search(query('yak'), { scopes: ['shared'], k: 5 })).toHaveLength(1);

      // The same bytes ingested again later (another ingest time): refused too.
      const later = { ...second.document, ingestedAt: '2026-02-01T00:00:00.000Z' };
      await expect(
        index.replaceDocument({ ...second, document: later, onlyIfCurrent: true }),
      ).rejects.toMatchObject({ code: 'DOCUMENT_CHANGED' });
      expect((await index.getDocument('v2', 'shared'))?.ingestedAt).toBe(second.document.ingestedAt);

      // Removed since: refused, and it does not come back.
      expect(await index.removeDocument('v2', 'shared')).toBe(true);
      await expect(index.replaceDocument({ ...second, onlyIfCurrent: true })).rejects.toMatchObject({
        code: 'DOCUMENT_CHANGED',
      });
      expect(await index.listDocuments(['shared'])).toEqual([]);
      expect(await index.search(query('yak'), { scopes: ['shared'], k: 5 })).toEqual([]);
    });

    it('removes documents only within their scope', async () => {
      await index.replaceDocument(makeDocument({ id: 'd', scope: 'slack:T1', texts: ['kiwi'] }));
      expect(await index.removeDocument('d', 'slack:T2')).toBe(false);
      expect(await index.getDocument('d', 'slack:T1')).toMatchObject({ id: 'd', scope: 'slack:T1' });
      expect(await index.search(query('kiwi'), { scopes: ['slack:T1'], k: 5 })).toHaveLength(1);
      expect(await index.removeDocument('d', 'slack:T1')).toBe(true);
      expect(await index.getDocument('d', 'slack:T1')).toBeUndefined();
      expect(await index.search(query('kiwi'), { scopes: ['slack:T1'], k: 5 })).toEqual([]);
    });

    it('looks parents up only within the caller’s scopes', async () => {
      await index.replaceDocument(
        makeDocument({ id: 'doc', scope: 'slack:T1', texts: ['only for team one'] }),
      );
      expect(await index.getParent('doc:p0', ['slack:T2'])).toBeUndefined();
      expect(await index.getParent('doc:p0', [])).toBeUndefined();
      expect(await index.getParent('doc:p0', ['slack:T2', 'slack:T1'])).toMatchObject({
        id: 'doc:p0',
        text: 'Parent of: only for team one',
        scope: 'slack:T1',
      });
    });

    it('replaces older versions: the old one is gone from search, listing and parents', async () => {
      await index.replaceDocument(
        makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] }),
      );
      await index.replaceDocument(
        makeDocument({ id: 'v2', name: 'guide.pdf', scope: 'shared', texts: ['new yak'], replaces: ['v1'] }),
      );
      expect(await index.search(query('zebra'), { scopes: ['shared'], k: 5 })).toEqual([]);
      expect((await index.search(query('yak'), { scopes: ['shared'], k: 5 }))[0]?.child.id).toBe('v2:c0');
      expect((await index.listDocuments(['shared'])).map((doc) => doc.id)).toEqual(['v2']);
      expect(await index.getParent('v2:p0', ['shared'])).toMatchObject({ text: 'Parent of: new yak' });
      expect(await index.getParent('v1:p0', ['shared'])).toBeUndefined();
    });

    it('ranks by dense similarity and fuses with BM25 by reciprocal rank', async () => {
      const texts = ['apple orchard harvest', 'banana plantation', 'cherry blossom apple'];
      await index.replaceDocument(
        makeDocument({ id: 'fruit', scope: 'shared', texts, dense: (_text, at) => axis(8, at, 0.1) }),
      );
      const denseOnly = await index.search(
        { text: '', sparse: { indices: [], values: [] }, dense: axis(8, 1) },
        { scopes: ['shared'], k: 3 },
      );
      expect(denseOnly[0]?.child.id).toBe('fruit:c1');
      expect(denseOnly[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 2);
      // BM25 ranks c0 and c2 (both contain "apple"); dense ranks c2 first: fused, c2 leads.
      const hybrid = await index.search(query('apple', axis(8, 2)), { scopes: ['shared'], k: 3 });
      expect(hybrid[0]?.child.id).toBe('fruit:c2');
      expect(hybrid.map((hit) => hit.child.id)).toContain('fruit:c0');
      expect(hybrid[0]!.score).toBeGreaterThan(hybrid[1]!.score);
    });

    it('answers a BM25-only index with or without a dense query', async () => {
      await index.replaceDocument(makeDocument({ id: 'plain', scope: 'shared', texts: bashTexts }));
      const withDense = await index.search(query('here documents', axis(4, 0)), { scopes: ['shared'], k: 2 });
      expect(withDense[0]?.child.id).toBe('plain:c2');
      const without = await index.search(query('here documents'), { scopes: ['shared'], k: 2 });
      expect(without[0]?.child.id).toBe('plain:c2');
    });

    describe('moving a document to another scope', () => {
      const channel = 'slack:T1:C1';
      const workspace = 'slack:T1';
      const link = 'https://example.slack.com/files/U1/F1/handbook.pdf';
      const handbook = () => {
        const input = makeDocument({
          id: 'handbook',
          scope: channel,
          texts: ['vacation days accrue monthly', 'parental leave lasts sixteen weeks'],
        });
        return { ...input, document: { ...input.document, uploader: 'slack:U1', link } };
      };
      /** The scopes whose search finds the handbook: each alone, and both together. */
      async function whereFound(at: ChunkIndex = index): Promise<{ scopes: string[]; together: string[] }> {
        const scopes: string[] = [];
        for (const scope of [channel, workspace]) {
          const hits = await at.search(query('vacation days'), { scopes: [scope], k: 5 });
          if (hits.length > 0) scopes.push(scope);
        }
        const together = await at.search(query('vacation days'), { scopes: [channel, workspace], k: 5 });
        return { scopes, together: together.map((hit) => hit.child.scope) };
      }

      it('moves it whole: searched, listed and read only in the new scope, with its uploader and link', async () => {
        await index.replaceDocument(handbook());
        const outcome = await index.moveDocument('handbook', channel, workspace);
        expect(outcome).toMatchObject({ cleanUpPending: false });
        expect(outcome.document).toMatchObject({
          id: 'handbook',
          scope: workspace,
          uploader: 'slack:U1',
          link,
        });
        expect(await whereFound()).toEqual({ scopes: [workspace], together: [workspace] });
        expect(await index.listAllDocuments?.()).toEqual([outcome.document]);
        const original = handbook();
        expect(await index.readDocument?.('handbook', channel)).toBeUndefined();
        expect(await index.readDocument?.('handbook', workspace)).toEqual({
          document: outcome.document,
          parents: original.parents.map((parent) => ({ ...parent, scope: workspace })),
          children: original.children.map(({ sparse: _sparse, dense: _dense, ...child }) => ({
            ...child,
            scope: workspace,
          })),
        });
        expect(await index.listDocuments([channel])).toEqual([]);
        expect(await index.listDocuments([workspace])).toEqual([outcome.document]);
        expect(await index.getDocument('handbook', channel)).toBeUndefined();
        expect(await index.getDocument('handbook', workspace)).toEqual(outcome.document);
        expect(await index.getParent('handbook:p1', [channel])).toBeUndefined();
        expect(await index.getParent('handbook:p1', [workspace])).toMatchObject({
          text: 'Parent of: parental leave lasts sixteen weeks',
          scope: workspace,
        });
        // Back again, then removed from there: nothing is left anywhere.
        await index.moveDocument('handbook', workspace, channel);
        expect(await whereFound()).toEqual({ scopes: [channel], together: [channel] });
        expect(await index.removeDocument('handbook', channel)).toBe(true);
        expect(await whereFound()).toEqual({ scopes: [], together: [] });
        expect(await index.listAllDocuments?.()).toEqual([]);
      });

      it('refuses a name (or the same bytes) already in the target, and an absent source, changing nothing', async () => {
        await index.replaceDocument(handbook());
        await index.replaceDocument(
          makeDocument({ id: 'other', name: 'handbook.pdf', scope: workspace, texts: ['remote work rules'] }),
        );
        await expect(index.moveDocument('handbook', channel, workspace)).rejects.toMatchObject({
          code: 'DOCUMENT_NAME_TAKEN',
          message: expect.stringContaining('slack:T1 already has a document named handbook.pdf'),
        });
        await index.removeDocument('other', workspace);
        await index.replaceDocument(
          makeDocument({ id: 'handbook', name: 'copy.pdf', scope: workspace, texts: ['copy'] }),
        );
        await expect(index.moveDocument('handbook', channel, workspace)).rejects.toMatchObject({
          code: 'DOCUMENT_NAME_TAKEN',
          message: expect.stringContaining('the same file as copy.pdf'),
        });
        expect(await whereFound()).toEqual({ scopes: [channel], together: [channel] });
        await expect(index.moveDocument('missing', channel, workspace)).rejects.toMatchObject({
          code: 'DOCUMENT_NOT_FOUND',
        });
        await expect(index.moveDocument('handbook', channel, channel)).rejects.toMatchObject({
          code: 'MOVE_REFUSED',
        });
      });

      it('is seen in exactly one scope whatever step fails or where the process dies, and leaves nothing behind', async () => {
        let steps = 0;
        for (let step = 0; ; step++) {
          let firedAtAll = false;
          for (const apply of underTest.faults.applyModes) {
            for (const crash of [false, true]) {
              const label = `step ${step}, apply ${apply}, ${crash ? 'crash' : 'error'}`;
              const run = await open();
              try {
                await run.index.replaceDocument(handbook());
                run.faults.failAt(step, { apply, crash });
                const outcome = await run.index.moveDocument('handbook', channel, workspace).then(
                  (moved) => moved,
                  (error: { code?: string; message: string }) => error,
                );
                if (!run.faults.fired()) continue;
                firedAtAll = true;
                const seen = await whereFound(run.index).catch(() => undefined);
                if (!crash) {
                  // The process lives on: it said what really happened, and searches agree.
                  const at = 'document' in outcome ? workspace : channel;
                  expect(seen, label).toEqual({ scopes: [at], together: [at] });
                  // A backend's own failure says the document stayed (the injected SQLite error is the test's).
                  if (!('document' in outcome) && outcome.code === 'QDRANT_FAILED')
                    expect(outcome.message, label).toMatch(/still in slack:T1:C1 only/);
                }
                const recovered = await run.faults.recover();
                const after = await whereFound(recovered);
                expect(after.scopes, label).toHaveLength(1);
                expect(after.together, label).toEqual(after.scopes);
                if (seen) expect(after, label).toEqual(seen);
                // The new process sweeps what was left: one copy, whole.
                expect(await run.faults.stored(), label).toEqual({ documents: 1, parents: 2, children: 2 });
                // And it can finish the move (or move it back).
                const [from, to] = after.scopes[0] === channel ? [channel, workspace] : [workspace, channel];
                await recovered.moveDocument('handbook', from, to);
                expect(await whereFound(recovered), label).toEqual({ scopes: [to], together: [to] });
                expect((await recovered.getDocument('handbook', to))?.link, label).toBe(link);
                expect(await run.faults.stored(), label).toEqual({ documents: 1, parents: 2, children: 2 });
              } finally {
                await run.dispose();
              }
            }
          }
          if (!firedAtAll) break;
          steps = step + 1;
        }
        expect(steps).toBeGreaterThanOrEqual(3);
        // One fresh index per step, apply mode and failure kind: some dozens of runs on a busy machine.
      }, 240_000);
    });

    it('refuses another embedding model, with how to go back', async () => {
      await index.replaceDocument(
        makeDocument({
          id: 'x',
          scope: 'shared',
          texts: ['vector text'],
          dense: () => axis(4, 0),
          model: 'model-a',
        }),
      );
      await expect(index.ensureEmbedding({ model: 'model-a', dimension: 4 })).resolves.toBeUndefined();
      await expect(index.ensureEmbedding({ model: null, dimension: null })).resolves.toBeUndefined();
      const mismatch = await index
        .ensureEmbedding({ model: 'model-b', dimension: 4 })
        .catch((error) => error);
      expect(mismatch).toBeInstanceOf(RagentError);
      expect(mismatch).toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
      expect(mismatch.message).toMatch(/model-a.*model-b/s);
      expect(mismatch.message).toContain('OLLAMA_EMBED_MODEL=model-a');
      await expect(
        index.search(query('vector', axis(6, 0)), { scopes: ['shared'], k: 1 }),
      ).rejects.toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    });
  });
}
