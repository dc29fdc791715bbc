/**
 * `npm run bench:start`: how long the `ragent` command takes to start, as people run it
 * (`node bin/ragent.js …` in a fresh process), next to a bare `node -e 0` on the same machine:
 * `--help`, `docs list` and `search` on an empty data directory, and `start` until it says it runs
 * (Discord against the fake Discord, the fake Ollama as model server). Each is run several times in turn;
 * it prints the median and the fastest run, and the median as a multiple of `node -e 0`'s.
 *
 * Usage: npm run bench:start [-- <runs> [<checkout>]] (default 10 runs, this checkout). Give another
 * checkout (e.g. an older commit's worktree with its node_modules) to time it the same way.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakeApplicationId, fakeBotToken, startFakeDiscord } from '../test/fakes/fake-discord.ts';
import { startFakeOllama } from '../test/fakes/fake-ollama.ts';

const runs = Number(process.argv[2] ?? 10);
const checkout = path.resolve(process.argv[3] ?? fileURLToPath(new URL('..', import.meta.url)));
const bin = path.join(checkout, 'bin/ragent.js');

/** Milliseconds from spawning `node <args>` until it exits, or until `ready` sees its output (then it is stopped). */
function timeRun(
  args: string[],
  environment: Record<string, string>,
  cwd: string,
  ready?: (output: string) => boolean,
): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    let readyAt: number | undefined;
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready && readyAt === undefined && ready(output)) {
        readyAt = performance.now() - started;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (ready && readyAt !== undefined) resolve(readyAt);
      else if (!ready && code === 0) resolve(performance.now() - started);
      else reject(new Error(`node ${args.join(' ')} ended with ${code}:\n${output}`));
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const [discord, ollama] = await Promise.all([startFakeDiscord(), startFakeOllama()]);
const workDir = await mkdtemp(path.join(tmpdir(), 'ragent-bench-start-'));
try {
  const environment = { RAGENT_DATA_DIR: path.join(workDir, 'data'), OLLAMA_BASE_URL: ollama.url };
  const startEnvironment = {
    ...environment,
    DISCORD_TOKEN: fakeBotToken,
    DISCORD_APPLICATION_ID: fakeApplicationId,
    DISCORD_API_URL: discord.apiUrl,
  };
  const cases: { name: string; run: () => Promise<number> }[] = [
    { name: 'node -e 0', run: () => timeRun(['-e', '0'], environment, workDir) },
    { name: 'ragent --help', run: () => timeRun([bin, '--help'], environment, workDir) },
    { name: 'ragent docs list', run: () => timeRun([bin, 'docs', 'list'], environment, workDir) },
    {
      name: 'ragent search (empty data dir)',
      run: () => timeRun([bin, 'search', 'how do I install it'], environment, workDir),
    },
    {
      name: 'ragent start → running',
      run: () =>
        timeRun([bin, 'start'], startEnvironment, workDir, (output) => output.includes('ragent is running')),
    },
  ];
  const times = new Map(cases.map(({ name }) => [name, [] as number[]]));
  // Round-robin, so a busy moment of the machine slows every case a little rather than one a lot.
  for (let round = 0; round < runs; round += 1) {
    for (const { name, run } of cases) times.get(name)?.push(await run());
  }
  const baseline = median(times.get('node -e 0') ?? []);
  console.log(`checkout: ${checkout}, ${runs} runs each, Node ${process.version}`);
  console.log(`${'command'.padEnd(32)}${'median'.padStart(10)}${'fastest'.padStart(10)}  × node -e 0`);
  for (const [name, values] of times) {
    const middle = median(values);
    console.log(
      `${name.padEnd(32)}${`${middle.toFixed(0)} ms`.padStart(10)}${`${Math.min(...values).toFixed(0)} ms`.padStart(10)}  ${(middle / baseline).toFixed(1)}×`,
    );
  }
} finally {
  await Promise.all([discord.close(), ollama.close()]);
  await rm(workDir, { recursive: true, force: true });
}
