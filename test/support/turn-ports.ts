/**
 * Small in-test implementations of the ports the turn runner talks to — a chat platform that
 * records what it shows, and conversations whose answers the test releases — so the runner's own
 * behaviour (the same for every platform) is tested once, against the real runner and a real store.
 */
import type { ChatPlatform, Place, Reply, ReplySurface, Status } from '../../src/core/chat-platform.ts';
import type { TurnInFlight } from '../../src/core/coordination-store.ts';
import type { PastTurn, TurnHistory } from '../../src/core/turn-history.ts';
import type { Conversations, Ingestion, TurnRequest, TurnResult } from '../../src/core/types.ts';
import { createLogger } from '../../src/logger.ts';
import { makeAnswer } from './make-answer.ts';

export interface ShownEvent {
  location: Record<string, string>;
  what: 'status' | 'text' | 'reply';
  status?: Status;
  text?: string;
  reply?: Reply;
}

export interface TestPlatform extends ChatPlatform {
  /** Everything shown, in order. */
  shown: ShownEvent[];
  /** Replies shown, as `kind`s, in order. */
  replies(): string[];
  /** While set, showing anything throws (the platform went away). */
  gone: boolean;
  /** A surface at `location`, as `open` would return it. */
  surface(location: Record<string, string>): ReplySurface;
  reopened: TurnInFlight[];
}

export interface TestPlatformOptions {
  statusIntervalMs?: number;
  /** Streams answers (`showText`), at most this often. */
  textIntervalMs?: number;
  /** A streamed text longer than this continues in a new message: the location moves (`part: 2`). */
  partLength?: number;
}

export function testPlatform(name = 'test', options: TestPlatformOptions = {}): TestPlatform {
  const platform: TestPlatform = {
    name,
    logger: createLogger({ level: 'silent' }),
    statusIntervalMs: options.statusIntervalMs ?? 0,
    ...(options.textIntervalMs !== undefined ? { textIntervalMs: options.textIntervalMs } : {}),
    editBudget: { perMinute: 6_000, burst: 100 },
    shown: [],
    gone: false,
    reopened: [],
    replies: () => platform.shown.flatMap((event) => (event.reply ? [event.reply.kind] : [])),
    surface: (at) => {
      let location = at;
      const surface: ReplySurface = {
        get location() {
          return location;
        },
        showStatus: async (status) => {
          if (platform.gone) throw new Error(`${name} is gone`);
          platform.shown.push({ location: surface.location, what: 'status', status });
        },
        finish: async (reply) => {
          if (platform.gone) throw new Error(`${name} is gone`);
          platform.shown.push({ location: surface.location, what: 'reply', reply });
        },
      };
      if (options.textIntervalMs !== undefined) {
        const partLength = options.partLength ?? Number.POSITIVE_INFINITY;
        surface.showText = async (text) => {
          if (platform.gone) throw new Error(`${name} is gone`);
          if (text.length > partLength) location = { ...at, part: '2' };
          platform.shown.push({ location: surface.location, what: 'text', text });
        };
      }
      return surface;
    },
    reopen: async (turn) => {
      platform.reopened.push(turn);
      return platform.surface(turn.location);
    },
  };
  return platform;
}

/** Conversations whose turns wait until the test answers them (or answer at once when `immediate`). */
export interface HeldConversations extends Conversations {
  /** Requests received, in order. */
  requests: TurnRequest[];
  /** Answers the oldest waiting turn. */
  answerNext(result?: TurnResult): void;
  failNext(error: Error): void;
  waiting(): number;
}

export function heldConversations(options: { immediate?: boolean } = {}): HeldConversations {
  const pending: Array<{ resolve: (result: TurnResult) => void; reject: (error: Error) => void }> = [];
  const requests: TurnRequest[] = [];
  return {
    requests,
    handle: (request) => {
      requests.push(request);
      if (options.immediate)
        return Promise.resolve({ kind: 'answer', answer: makeAnswer(`answer to ${request.text}`) });
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    answerNext: (result) =>
      pending.shift()?.resolve(result ?? { kind: 'answer', answer: makeAnswer('the answer') }),
    failNext: (error) => pending.shift()?.reject(error),
    waiting: () => pending.length,
    hasThread: async () => false,
    close: async () => {},
  };
}

/** Ingestion that is never expected to be called (answer-only tests). */
export const noIngestion: Ingestion = {
  ingest: () => Promise.reject(new Error('no ingestion in this test')),
  listDocuments: async () => [],
  listPlaceDocuments: async () => [],
  findDocument: () => Promise.reject(new Error('no ingestion in this test')),
  removeDocument: () => Promise.reject(new Error('no ingestion in this test')),
  moveDocument: () => Promise.reject(new Error('no ingestion in this test')),
};

/**
 * An answer job at `location` whose surface is the platform's. Its own thread (`test:<key>`) unless
 * `thread` puts it in another, at `position` (default: now, in microseconds).
 */
export function answerJob(
  platform: TestPlatform,
  key: string,
  text = 'a question',
  thread: { threadId?: string; position?: string } = {},
) {
  const threadId = thread.threadId ?? `test:${key}`;
  const place: Place = { threadId, scopes: ['shared'], user: 'U1' };
  return {
    key,
    text,
    reference: `ref ${key}`,
    location: { thread: key },
    thread: { threadId, position: thread.position ?? String(Date.now() * 1000) },
    open: async () => {
      if (platform.gone) throw new Error(`${platform.name} is gone`);
      return { surface: platform.surface({ thread: key, status: 'shown' }), place };
    },
  };
}

/** A turn history kept in memory, for runner tests that do not look at it (test/turns/turn-history.test.ts does, on SQLite). */
export function inMemoryTurnHistory(): TurnHistory & { turns: PastTurn[] } {
  const turns: PastTurn[] = [];
  return {
    turns,
    recordTurn: async (turn) => {
      if (!turns.some((recorded) => recorded.id === turn.id)) turns.push(turn);
    },
    listTurns: async () => [...turns],
    forgetQuestionsBefore: async () => 0,
    close: async () => {},
  };
}
