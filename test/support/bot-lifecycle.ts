/**
 * The life of a chat bot under test, shared by the Slack and Discord harnesses: the real adapter and
 * services on a data dir that outlives them — stopped and started again (a graceful restart), or
 * replaced for one turn by `ragent start` in a child process that is killed mid-answer (a crash).
 */
import type { RunningPlatform } from '../../src/platforms/running-platform.ts';
import type { FakeOllama } from '../fakes/fake-ollama.ts';
import { startRagentProcess } from './ragent-process.ts';
import { type TestServices, testEnvironment } from './test-services.ts';

export interface RunningBot<Adapter extends RunningPlatform = RunningPlatform> {
  services: TestServices;
  adapter: Adapter;
}

export interface BotLifecycle {
  /** Stops the bot and the services gracefully, then starts both again on the same data dir. */
  restart(): Promise<void>;
  /** Stops the bot and the services gracefully, keeping the data dir (`resume` starts them again on it). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /**
   * A crash mid-answer: pauses the bot, runs `ragent start` (a child process, the real composition
   * root) on the same data dir and fakes, lets `ask` start a turn there whose model never answers,
   * and kills the process with SIGKILL as soon as the model was asked. Resolves with what `ask`
   * returned; the bot stays paused (`resume` starts it again, as after a crash).
   */
  crashMidTurn<T>(ask: () => Promise<T>): Promise<T>;
  /**
   * A crash mid-ingest, like `crashMidTurn`: `ingest` starts an ingest in the child process whose
   * embedding never returns, and the process is killed as soon as the embedder was asked.
   */
  crashMidIngest<T>(ingest: () => Promise<T>): Promise<T>;
  /** Stops the bot, deletes the data dir and closes the fakes. */
  close(): Promise<void>;
}

export function botLifecycle<Adapter extends RunningPlatform>(
  bot: () => RunningBot<Adapter>,
  options: {
    ollama: FakeOllama;
    /** Starts the services and the adapter on `dataDir`. */
    start(dataDir: string): Promise<RunningBot<Adapter>>;
    /** The bot's settings (tokens, fake URLs, limits), as when it was started. */
    environment(): Record<string, string>;
    closeFakes(): Promise<void>;
  },
): BotLifecycle {
  const { ollama } = options;
  const lifecycle: BotLifecycle = {
    restart: async () => {
      await lifecycle.pause();
      await lifecycle.resume();
    },
    pause: async () => {
      await bot().adapter.stop();
      await bot().services.dispose({ keepDataDir: true });
    },
    resume: async () => {
      Object.assign(bot(), await options.start(bot().services.dataDir));
    },
    crashMidTurn: (ask) => crashWhileWaiting('/api/chat', 'the model to be asked', ask),
    crashMidIngest: (ingest) => crashWhileWaiting('/api/embed', 'the embedder to be asked', ingest),
    close: async () => {
      await bot().adapter.stop();
      await bot().services.dispose();
      await options.closeFakes();
    },
  };

  /** Runs `start` in a `ragent start` child whose next request to `path` hangs; SIGKILLs it once sent. */
  async function crashWhileWaiting<T>(path: string, what: string, start: () => Promise<T>): Promise<T> {
    await lifecycle.pause();
    const { dataDir } = bot().services;
    const environment = testEnvironment({
      ollamaUrl: ollama.url,
      dataDir,
      // Nothing in the child times out on its own: only the kill ends the turn.
      environment: {
        ...options.environment(),
        OLLAMA_TIMEOUT_S: '300',
        RAGENT_NODE_TIMEOUT_S: '300',
        RAGENT_ANSWER_TIMEOUT_S: '300',
      },
    });
    const child = await startRagentProcess(environment, { cwd: dataDir });
    try {
      const requests = () => ollama.requests.filter((request) => request.path === path).length;
      const asked = requests();
      ollama.failNext('timeout', 1, path);
      const result = await start();
      await waitUntil(() => requests() > asked, 60_000, what);
      return result;
    } finally {
      await child.crash();
    }
  }
  return lifecycle;
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
