/**
 * npm run bench:load-blocks -- <index.sqlite>
 * The longest stretches of CPU time between two turns of the event loop while the embedded index loads
 * its search snapshot and answers its first searches: what the event loop's delay would be on an idle
 * machine. Three starts, as in bench:search (from the children rows, from the compact vector table, from
 * the saved snapshot), each followed by two searches. CPU time, not wall time, so the figure holds on a
 * loaded machine: `process.threadCpuUsage()` (the main thread) where Node has it, else
 * `process.cpuUsage()` (every thread of the process: an upper bound, garbage-collector threads included).
 * The index is one that `BENCH_KEEP=1 npm run bench:search` kept (its saved snapshot is rebuilt here).
 */
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { encodeSparseQuery } from '../src/retrieval/bm25.ts';
import { openSqliteChunkIndex } from '../src/retrieval/sqlite-chunk-index.ts';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.log(
    'usage: npm run bench:load-blocks -- <index.sqlite> (keep one with BENCH_KEEP=1 npm run bench:search)',
  );
  process.exit(1);
}

const threadCpu = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
const cpuClock = threadCpu ? 'main thread' : 'whole process';
const cpuNow = () => {
  const usage = threadCpu ? threadCpu.call(process) : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Measures every stretch between two turns of the loop (a setImmediate chain) while `work` runs. */
async function longestBlocks(work: () => Promise<void>): Promise<number[]> {
  const blocks: number[] = [];
  let last = cpuNow();
  let running = true;
  const turn = () => {
    const now = cpuNow();
    blocks.push(now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  last = cpuNow();
  await work();
  blocks.push(cpuNow() - last);
  running = false;
  return blocks.sort((left, right) => right - left).slice(0, 3);
}

const dimension = 1024;
const dense = (seed: number) =>
  Float32Array.from({ length: dimension }, (_unused, at) => Math.sin(at * seed));
const starts = [
  { name: 'from the children rows', loadFrom: 'rows', removeSnapshot: true },
  { name: 'from the compact vector table', loadFrom: 'pages', removeSnapshot: true },
  { name: 'from the saved snapshot', loadFrom: 'pages', removeSnapshot: false },
] as const;
console.log(`longest CPU stretches between two turns of the event loop (${cpuClock} CPU time), ${file}`);
for (const start of starts) {
  if (start.removeSnapshot) rmSync(`${file}.snapshot`, { force: true });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const index = openSqliteChunkIndex({ file, loadFrom: start.loadFrom });
  const blocks = await longestBlocks(async () => {
    index.warmUp();
    for (const [at, text] of ['shell variable expansion', 'plot legend axis'].entries()) {
      await index.search(
        { text, sparse: encodeSparseQuery(text), dense: dense(at + 1) },
        { scopes: ['shared'], k: 7 },
      );
    }
  });
  const wallMs = performance.now() - started;
  delay.disable();
  console.log(
    `  ${start.name}: ${blocks.map((block) => `${block.toFixed(1)} ms`).join(', ')} ` +
      `(load and two searches ${wallMs.toFixed(0)} ms; event-loop delay max ${(delay.max / 1e6).toFixed(1)} ms ` +
      `at a load average of ${loadavg()[0]!.toFixed(1)})`,
  );
  await index.close();
}
