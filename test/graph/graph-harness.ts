/**
 * Test harness: a fake Ollama (real HTTP, real @langchain/ollama client) whose replies are routed by
 * request shape (the system prompt's role line, `tools`, `format`), the real conversations module and
 * graph, the real embedded index (BM25) and a real SQLite checkpoint file, all in a temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../src/config.ts';
import { createConversations } from '../../src/conversations/create-conversations.ts';
import type { TurnHistory } from '../../src/core/turn-history.ts';
import type { Conversations, ProgressEvent, TurnRequest } from '../../src/core/types.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type FakeOpenAi, startFakeOpenAi, toScriptRequest } from '../fakes/fake-openai.ts';
import { type Role, type RoleScript, roleOf, scriptByRole } from '../support/model-roles.ts';
import { openSampleIndex, type RecordingRetriever, type SampleDocument } from './sample-index.ts';

/** The text of every message of a request, joined. */
export function requestText(request: FakeChatRequest): string {
  return request.messages.map((message) => message.content ?? '').join('\n');
}

export const defaultScripts: Record<Role, RoleScript> = {
  summarize: () => ({ content: 'Earlier the user asked about bash loops.' }),
  thread: () => ({ content: 'From the thread: the team decided to ship on Friday.' }),
  rewrite: (request) => {
    const last = request.messages.filter((message) => message.role === 'user').at(0)?.content ?? '';
    const message = /User message:\n([\s\S]*?)(\n\n|$)/.exec(last)?.[1] ?? 'question';
    return { content: JSON.stringify({ isClear: true, questions: [message], clarificationNeeded: '' }) };
  },
  orchestrator: (request) => {
    const hasResults = request.messages.some((message) => message.role === 'tool');
    if (!hasResults)
      return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop', limit: 3 } }] };
    return { content: 'A while loop runs commands while a test succeeds.\n\nSources: bash.pdf (p. 12–13)' };
  },
  compress: () => ({ content: 'Notes: the while loop runs while a test succeeds (bash.pdf p. 12–13).' }),
  fallback: () => ({ content: 'Partial answer from what was found; the rest is missing.' }),
  aggregate: (request) => ({
    content: `Combined:\n${requestText(request).split('Sub-answer').slice(1).join('|')}`,
  }),
};

export interface Harness {
  fake: FakeOllama;
  /** The fake OpenAI-compatible server, when the harness runs on the openai provider. */
  openai: FakeOpenAi | undefined;
  retriever: RecordingRetriever;
  conversations: Conversations;
  /** The turn history in the harness's data dir (what `ragent ask`/`chat` record). */
  turnHistory: TurnHistory;
  dataDir: string;
  scripts: Record<Role, RoleScript>;
  /** Chat requests of one role, in arrival order. */
  requestsOf(role: Role): FakeChatRequest[];
  ask(text: string, options?: Partial<TurnRequest>): ReturnType<Conversations['handle']>;
  events: ProgressEvent[];
  /** Closes and reopens the conversations module on the same database (a restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  environment?: Record<string, string>;
  threadId?: string;
  /** Overrides of limits the environment cannot go below (e.g. an answer deadline under 5 s). */
  limits?: Partial<Config['limits']>;
  /** Which model provider answers (default ollama); the same role scripts drive either fake. */
  provider?: 'ollama' | 'openai';
  /** The documents of the index (default: the small sample documents). */
  documents?: SampleDocument[];
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const scripts: Record<Role, RoleScript> = { ...defaultScripts };
  const onOpenAi = options.provider === 'openai';
  const fake = await startFakeOllama(onOpenAi ? {} : { chat: scriptByRole(scripts) });
  const openai = onOpenAi ? await startFakeOpenAi({ chat: scriptByRole(scripts) }) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-graph-'));
  const loaded = loadConfig(
    {
      RAGENT_DATA_DIR: dataDir,
      RAGENT_EMBEDDINGS: 'none',
      OLLAMA_BASE_URL: fake.url,
      // The server root without /v1: the config adds it.
      ...(openai
        ? { RAGENT_LLM_PROVIDER: 'openai', OPENAI_BASE_URL: openai.root, OPENAI_MODEL: 'fake-chat' }
        : {}),
      RAGENT_ANSWER_TIMEOUT_S: '20',
      RAGENT_NODE_TIMEOUT_S: '10',
      ...options.environment,
    },
    { envFile: false },
  );
  const config: Config = { ...loaded, limits: { ...loaded.limits, ...options.limits } };
  const logger = createLogger({ level: 'silent' });
  const { index, retriever } = await openSampleIndex(config, logger, options.documents);
  const open = () =>
    createConversations({ config, logger, retriever, retry: { attempts: 2, baseDelayMs: 5 } });
  const events: ProgressEvent[] = [];
  const harness: Harness = {
    fake,
    openai,
    retriever,
    conversations: await open(),
    turnHistory: openSqliteTurnHistory(dataDir),
    dataDir,
    scripts,
    events,
    requestsOf: (role) =>
      (openai ? openai.chatRequests().map(toScriptRequest) : fake.chatRequests()).filter(
        (request) => roleOf(request) === role,
      ),
    ask: (text, request = {}) =>
      harness.conversations.handle(
        { threadId: options.threadId ?? 'cli:test', scopes: ['shared'], user: 'tester', text, ...request },
        (event) => events.push(event),
      ),
    restart: async () => {
      await harness.conversations.close();
      harness.conversations = await open();
    },
    close: async () => {
      await harness.conversations.close();
      await harness.turnHistory.close();
      await index.close();
      await fake.close();
      await openai?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
