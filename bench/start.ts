/**
 * `npm run bench:start`: how long the `ragent` command takes to start, as people run it
 * (`node bin/ragent.js …` in a fresh process), next to a bare `node -e 0` on the same machine:
 * `--help`, `docs list` and `search` on an empty data directory, and `start` until it says it runs
 * (Discord against the fake Discord, the fake Ollama as model server). Each is run several times in turn;
 * it prints the median and fastest wall time, the median CPU time (user + system, which a busy machine
 * changes far less than the wall time), and both medians as multiples of `node -e 0`'s.
 *
 * Usage: npm run bench:start [-- <runs> [<checkout>]] (default 10 runs, this checkout). Give another
 * checkout (e.g. an older commit's worktree with its node_modules) to time it the same way.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakeApplicationId, fakeBotToken, startFakeDiscord } from '../test/fakes/fake-discord.ts';
import { startFakeOllama } from '../test/fakes/fake-ollama.ts';

const runs = Number(process.argv[2] ?? 10);
const checkout = path.resolve(process.argv[3] ?? fileURLToPath(new URL('..', import.meta.url)));
const bin = path.join(checkout, 'bin/ragent.js');

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** Each child prints its own CPU time when it exits (a line on stderr), as no API gives a child's. */
const reportCpuAtExit = `data:text/javascript,process.on('exit', () => { const used = process.cpuUsage(); process.stderr.write('\\ncpu-ms ' + (used.user + used.system) / 1000 + '\\n'); })`;

/** A running process's CPU time so far, from Linux's /proc (utime + stime in clock ticks of 10 ms). */
function cpuSoFarMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** From spawning `node <args>` until it exits, or until `ready` sees its output (then it is stopped). */
function timeRun(
  args: string[],
  environment: Record<string, string>,
  cwd: string,
  ready?: (output: string) => boolean,
): Promise<Timing> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', reportCpuAtExit, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    let readyAt: Timing | undefined;
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready && readyAt === undefined && ready(output)) {
        readyAt = { wallMs: performance.now() - started, cpuMs: cpuSoFarMs(child.pid) };
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (ready && readyAt !== undefined) resolve(readyAt);
      else if (!ready && code === 0) {
        const cpuMs = Number(/^cpu-ms ([\d.]+)$/m.exec(output)?.[1] ?? Number.NaN);
        resolve({ wallMs: performance.now() - started, cpuMs });
      } else reject(new Error(`node ${args.join(' ')} ended with ${code}:\n${output}`));
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
  const cases: { name: string; run: () => Promise<Timing> }[] = [
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
  const times = new Map(cases.map(({ name }) => [name, [] as Timing[]]));
  // Round-robin, so a busy moment of the machine slows every case a little rather than one a lot.
  for (let round = 0; round < runs; round += 1) {
    for (const { name, run } of cases) times.get(name)?.push(await run());
  }
  const baseline = times.get('node -e 0') ?? [];
  const baseWall = median(baseline.map((timing) => timing.wallMs));
  const baseCpu = median(baseline.map((timing) => timing.cpuMs));
  const load = loadavg().map((value) => value.toFixed(1));
  console.log(
    `checkout: ${checkout}, ${runs} runs each, Node ${process.version}, load average ${load.join(' ')}`,
  );
  console.log(
    `${'command'.padEnd(32)}${'wall median'.padStart(12)}${'fastest'.padStart(10)}${'× node'.padStart(8)}` +
      `${'CPU median'.padStart(12)}${'× node'.padStart(8)}`,
  );
  for (const [name, values] of times) {
    const wall = median(values.map((timing) => timing.wallMs));
    const fastest = Math.min(...values.map((timing) => timing.wallMs));
    const cpu = median(values.map((timing) => timing.cpuMs));
    console.log(
      `${name.padEnd(32)}${`${wall.toFixed(0)} ms`.padStart(12)}${`${fastest.toFixed(0)} ms`.padStart(10)}` +
        `${`${(wall / baseWall).toFixed(1)}×`.padStart(8)}${`${cpu.toFixed(0)} ms`.padStart(12)}` +
        `${`${(cpu / baseCpu).toFixed(1)}×`.padStart(8)}`,
    );
  }
  console.log('start → running: CPU until it said so (from /proc); the others: CPU of the whole run.');
} finally {
  await Promise.all([discord.close(), ollama.close()]);
  await rm(workDir, { recursive: true, force: true });
}
