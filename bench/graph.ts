/**
 * npm run bench:graph
 * With a zero-latency fake Ollama (real HTTP, real @langchain/ollama client), the real graph, the real
 * embedded index and real SQLite checkpoints:
 * (a) overhead per answer, checkpoints included: p50 / p95 over BENCH_ANSWERS answers (goal p50 ≤ 50 ms),
 *     and the CPU time per answer (steadier than wall time on a busy machine);
 * (b) prompt tokens sent per turn over a BENCH_TURNS-turn conversation in one thread (goal: turn 40 ≤
 *     1.3 × turn 5, the summary keeps the context bounded).
 */
import { createHarness } from '../test/graph/graph-harness.ts';

const answers = Number(process.env.BENCH_ANSWERS ?? 100);
const turns = Number(process.env.BENCH_TURNS ?? 40);

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

const realisticAnswer = [
  'A while loop runs its list of commands again and again as long as the test command returns a zero',
  'exit status; the until loop is its mirror image and runs until the test succeeds. Both accept break and',
  'continue, and the return status is the status of the last command executed in the body, or zero if',
  'none was executed. Use them to poll for a condition or to read a file line by line.',
].join(' ');

async function overheadBench(): Promise<void> {
  const harness = await createHarness();
  harness.scripts.orchestrator = (request) =>
    request.messages.some((message) => message.role === 'tool')
      ? { content: realisticAnswer }
      : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop', limit: 5 } }] };
  try {
    for (let warm = 0; warm < 5; warm++)
      await harness.ask('How does a while loop work?', { threadId: `cli:warm-${warm}` });
    const times: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let index = 0; index < answers; index++) {
      const started = performance.now();
      const result = await harness.ask('How does a while loop work?', { threadId: `cli:bench-${index}` });
      times.push(performance.now() - started);
      if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.kind}`);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const sameThread: number[] = [];
    for (let index = 0; index < Math.min(answers, 40); index++) {
      const started = performance.now();
      await harness.ask(`Follow-up ${index}: how does a while loop work?`, { threadId: 'cli:bench-same' });
      sameThread.push(performance.now() - started);
    }
    console.log(`(a) overhead per answer (3 LLM calls to a zero-latency model, 1 search, checkpoints)`);
    console.log(
      `    new thread each: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms over ${answers} answers (goal p50 ≤ 50 ms)`,
    );
    // CPU time of the process (fake server included) per answer: steadier than wall time on a busy machine.
    console.log(
      `    CPU per answer: ${((cpu.user + cpu.system) / 1000 / answers).toFixed(1)} ms (process total, fake model included)`,
    );
    console.log(
      `    one long thread: p50 ${percentile(sameThread, 0.5).toFixed(1)} ms, p95 ${percentile(sameThread, 0.95).toFixed(1)} ms over ${sameThread.length} turns (includes summarizing)`,
    );
  } finally {
    await harness.close();
  }
}

async function promptGrowthBench(): Promise<void> {
  const harness = await createHarness();
  harness.scripts.orchestrator = (request) =>
    request.messages.some((message) => message.role === 'tool')
      ? { content: realisticAnswer }
      : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop', limit: 5 } }] };
  harness.scripts.summarize = () => ({
    content:
      'The user has been asking about bash looping constructs: while and until loops, their exit status, break and continue, and reading files line by line; answers came from bash.pdf pages 12–13.',
  });
  try {
    const perTurn: number[] = [];
    for (let turn = 1; turn <= turns; turn++) {
      const result = await harness.ask(
        `Turn ${turn}: and what about the loop's exit status in case ${turn}?`,
        {
          threadId: 'cli:bench-growth',
        },
      );
      if (result.kind !== 'answer') throw new Error(`turn ${turn}: expected an answer, got ${result.kind}`);
      perTurn.push(result.answer.counts.promptTokens);
    }
    const at = (turn: number) => perTurn[turn - 1] ?? 0;
    const last = Math.min(turns, 40);
    const tail = perTurn.slice(4);
    console.log(`(b) prompt tokens sent per turn over a ${turns}-turn conversation (one thread)`);
    console.log(
      `    turn 1: ${at(1)}, turn 5: ${at(5)}, turn ${last}: ${at(last)}, max of turns 5–${turns}: ${Math.max(...tail)}`,
    );
    console.log(`    turn ${last} / turn 5 = ${(at(last) / at(5)).toFixed(2)} (goal ≤ 1.30)`);
    console.log(`    every turn: ${perTurn.join(' ')}`);
  } finally {
    await harness.close();
  }
}

await overheadBench();
await promptGrowthBench();
