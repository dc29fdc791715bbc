/**
 * npm run bench:search
 * (a) Synthetic: 100,000 children × 1,024-dim vectors + manual-like text in a temporary SQLite index;
 *     prints insert time; then, after a restart: the first search (which waits for the background load
 *     of the snapshot), the event loop's largest delay during that load, the snapshot's memory per child,
 *     hybrid / dense / BM25 p50 and p95, the first search after a one-document re-ingest, and the recall
 *     of the sign-bit pre-selection against a full int8 scan.
 * (b) Real corpus, BM25 only: ingests ../shared/corpus into a temporary data dir with the ingestion
 *     service (when it is built) and runs the eval over bench/questions.jsonl.
 * Options: BENCH_CHILDREN (default 100000), BENCH_DIMENSION (1024), BENCH_QUERIES (300), BENCH_KEEP=1 (keep
 * the temporary index and print its path), BENCH_SKIP_CORPUS=1,
 * BENCH_SKIP_SYNTHETIC=1 (only the corpus eval).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { encodeSparseDocument, encodeSparseQuery } from '../src/retrieval/bm25.ts';
import type { IndexedChild, ReplaceDocumentInput } from '../src/retrieval/chunk-index.ts';
import { openSqliteChunkIndex } from '../src/retrieval/sqlite-chunk-index.ts';
import { runCorpusBench } from './search-corpus.ts';
import { createRandom, createTextGenerator, createVectorGenerator } from './synthetic-corpus.ts';

const childCount = Number(process.env.BENCH_CHILDREN ?? 100_000);
const dimension = Number(process.env.BENCH_DIMENSION ?? 1024);
const queryCount = Number(process.env.BENCH_QUERIES ?? 300);

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

const format = (ms: number) => `${ms.toFixed(1)} ms`;

/** JS heap plus ArrayBuffers (typed arrays live there). */
function usedMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

async function syntheticBench(): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-bench-search-'));
  const random = createRandom(42);
  const text = createTextGenerator(random);
  const vector = createVectorGenerator(random, dimension);
  const file = path.join(directory, 'index.sqlite');
  let index = openSqliteChunkIndex({ file });
  try {
    console.log(`(a) synthetic: ${childCount.toLocaleString()} children × ${dimension} dims, hybrid search`);
    const perDocument = 2_000;
    const makeDocument = (id: string, count: number, scope: string): ReplaceDocumentInput => {
      const children: IndexedChild[] = Array.from({ length: count }, (_unused, at) => {
        const body = text(70);
        return {
          id: `${id}:c${at}`,
          parentId: `${id}:p${at >> 3}`,
          text: body,
          sparse: encodeSparseDocument(body),
          dense: vector(),
          documentId: id,
          documentName: `${id}.pdf`,
          scope,
          pageStart: at >> 2,
          pageEnd: at >> 2,
          sectionPath: ['Manual', `Chapter ${at >> 6}`],
        };
      });
      const parents = Array.from({ length: Math.ceil(count / 8) }, (_unused, at) => ({
        id: `${id}:p${at}`,
        text: 'parent',
        documentId: id,
        documentName: `${id}.pdf`,
        scope,
        pageStart: 1,
        pageEnd: 1,
        sectionPath: ['Manual'],
      }));
      return {
        document: {
          id,
          name: `${id}.pdf`,
          scope,
          pages: count >> 2,
          bytes: 0,
          parents: parents.length,
          children: count,
          uploader: 'bench',
          ingestedAt: new Date().toISOString(),
          embeddingModel: 'bench-embed',
        },
        parents,
        children,
      };
    };
    let insertMs = 0;
    let encodeMs = 0;
    for (let documentIndex = 0; documentIndex * perDocument < childCount; documentIndex++) {
      const count = Math.min(perDocument, childCount - documentIndex * perDocument);
      const id = `doc${documentIndex}`;
      const scope = documentIndex % 10 === 9 ? 'slack:OTHER' : 'shared';
      const encodeStarted = performance.now();
      const document = makeDocument(id, count, scope);
      encodeMs += performance.now() - encodeStarted;
      const started = performance.now();
      await index.replaceDocument(document);
      insertMs += performance.now() - started;
    }
    console.log(
      `  BM25 encoding: ${format(encodeMs)} (with vector generation); insert: ${format(insertMs)} ` +
        `(${Math.round(childCount / (insertMs / 1000)).toLocaleString()} children/s)`,
    );

    await index.close();

    // Three starts without and with a saved snapshot (each saves it when the index closes): from the
    // children rows (an index whose compact vector table is not current), from the compact vector table
    // (after a crash: the saved snapshot is stale), and a restart (the saved snapshot).
    const queries = Array.from({ length: queryCount }, () => ({ text: text(6), dense: vector() }));
    const options = { scopes: ['shared'] as const, k: 7 };
    const firstQuery = { text: 'warm', sparse: encodeSparseQuery('warm up'), dense: queries[0]!.dense };
    let started = 0;
    const starts = [
      { name: 'from the children rows (no saved snapshot, vector table not current)', loadFrom: 'rows' },
      { name: 'from the compact vector table (no saved snapshot)', loadFrom: 'pages' },
      { name: 'after a restart (saved snapshot)', loadFrom: 'pages' },
    ] as const;
    for (const [at, start] of starts.entries()) {
      if (at < 2) rmSync(`${file}.snapshot`, { force: true });
      const memoryBefore = usedMemory();
      const delay = monitorEventLoopDelay({ resolution: 5 });
      let peakMemory = memoryBefore;
      const sampler = setInterval(() => {
        peakMemory = Math.max(peakMemory, usedMemory());
      }, 20);
      delay.enable();
      const cpuBefore = process.cpuUsage();
      started = performance.now();
      index = openSqliteChunkIndex({ file, loadFrom: start.loadFrom });
      index.warmUp();
      await index.search(firstQuery, options);
      const firstSearchMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      delay.disable();
      clearInterval(sampler);
      const stats = index.snapshotStats();
      const memoryAfter = usedMemory();
      console.log(
        `  first search, snapshot loaded ${start.name}: ${format(firstSearchMs)} ` +
          `(${format((cpu.user + cpu.system) / 1000)} of CPU; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
      );
      console.log(
        `    event-loop delay meanwhile: max ${format(delay.max / 1e6)}, p99 ${format(delay.percentile(99) / 1e6)}; ` +
          `snapshot ${(stats.bytes / stats.children).toFixed(0)} bytes per child in its arrays, ` +
          `process heap+buffers +${((memoryAfter - memoryBefore) / stats.children).toFixed(0)} per child ` +
          `(peak +${((peakMemory - memoryBefore) / stats.children).toFixed(0)})`,
      );
      if (at < 2) await index.close();
    }

    // Warm-up (JIT, per-term caches) with other queries, then steady-state latencies.
    for (let round = 0; round < 30; round++) {
      const warm = { text: text(6), dense: vector() };
      await index.search(
        { text: warm.text, sparse: encodeSparseQuery(warm.text), dense: warm.dense },
        options,
      );
    }
    for (const mode of ['hybrid', 'dense', 'bm25'] as const) {
      const latencies: number[] = [];
      for (const query of queries) {
        started = performance.now();
        await index.search(
          {
            text: query.text,
            sparse: mode === 'dense' ? { indices: [], values: [] } : encodeSparseQuery(query.text),
            ...(mode === 'bm25' ? {} : { dense: query.dense }),
          },
          options,
        );
        latencies.push(performance.now() - started);
      }
      console.log(
        `  ${mode.padEnd(6)} p50 ${format(percentile(latencies, 0.5))}  p95 ${format(percentile(latencies, 0.95))}`,
      );
    }

    // One more document (200 children) replacing an existing one, then the next search.
    const extra = makeDocument('doc0', 200, 'shared');
    started = performance.now();
    await index.replaceDocument(extra);
    const writeMs = performance.now() - started;
    started = performance.now();
    await index.search(
      { text: queries[1]!.text, sparse: encodeSparseQuery(queries[1]!.text), dense: queries[1]!.dense },
      options,
    );
    console.log(
      `  one-document re-ingest (200 children): write ${format(writeMs)}, first search after it ${format(performance.now() - started)} ` +
        `(snapshot segments: ${index.snapshotStats().segments})`,
    );

    // Recall of the sign-bit pre-selection + rescoring against an exact scan (dense only, top 10).
    const exactIndex = openSqliteChunkIndex({ file, exactLimit: Infinity });
    let found = 0;
    const sample = queries.slice(0, 30);
    for (const query of sample) {
      const dense = { text: '', sparse: { indices: [], values: [] }, dense: query.dense };
      const approximate = await index.search(dense, { scopes: ['shared'], k: 10 });
      const exact = await exactIndex.search(dense, { scopes: ['shared'], k: 10 });
      const expected = new Set(exact.map((hit) => hit.child.id));
      found += approximate.filter((hit) => expected.has(hit.child.id)).length;
    }
    await exactIndex.close();
    console.log(`  dense recall@10 vs a full int8 scan: ${(found / (sample.length * 10)).toFixed(3)}`);
  } finally {
    await index.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(directory, { recursive: true, force: true });
    else console.log(`  kept ${file}`);
  }
}

if (process.env.BENCH_SKIP_SYNTHETIC !== '1') await syntheticBench();
if (process.env.BENCH_SKIP_CORPUS !== '1') await runCorpusBench();
