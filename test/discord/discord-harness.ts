/**
 * The Discord end-to-end harness: the real adapter (real discord.js client) connected to the fake
 * Discord, the real services (SQLite index, graph, checkpoints) in a temp data dir, and the fake
 * Ollama as the model, its replies routed by the graph step that asks (see model-roles).
 */
import { startDiscord } from '../../src/platforms/discord/start-discord.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';
import type { FakeMessage } from '../fakes/fake-discord-payloads.ts';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { type BotLifecycle, botLifecycle, type RunningBot } from '../support/bot-lifecycle.ts';
import { type Role, type RoleScript, roleOf, scriptByRole } from '../support/model-roles.ts';
import { createTestServices } from '../support/test-services.ts';

/** The message the rewrite step was asked about. */
export function userMessageOf(request: FakeChatRequest): string {
  const prompt = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  return /User message:\n([\s\S]*?)(\n\nClarifications so far:|$)/.exec(prompt)?.[1]?.trim() ?? '';
}

/** Every tool result the orchestrator has seen in this request. */
export function toolResults(request: FakeChatRequest): string {
  return request.messages
    .filter((message) => message.role === 'tool')
    .map((message) => message.content)
    .join('\n');
}

/** An orchestrator that searches for `query` once, then answers with `answer(what the search found)`. */
export function searchThenAnswer(query: string, answer: (results: string) => string): RoleScript {
  return (request) => {
    const results = toolResults(request);
    if (!results) return { toolCalls: [{ name: 'search_child_chunks', arguments: { query, limit: 5 } }] };
    return { content: answer(results) };
  };
}

/** The graph step a request comes from (re-exported for bench/discord.ts). */
export { roleOf };

export const defaultScripts: Record<Role, RoleScript> = {
  summarize: () => ({ content: 'Earlier the user asked about the documents.' }),
  thread: () => ({ content: 'From the thread: the team decided to ship on Friday.' }),
  rewrite: (request) => ({
    content: JSON.stringify({
      isClear: true,
      questions: [userMessageOf(request) || 'question'],
      clarificationNeeded: '',
    }),
  }),
  orchestrator: (request) => {
    const results = toolResults(request);
    if (!results) {
      const question =
        request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? 'question';
      return {
        toolCalls: [{ name: 'search_child_chunks', arguments: { query: question.slice(0, 200), limit: 5 } }],
      };
    }
    const parent = /Parent ID:\s*(\S+)/.exec(results)?.[1];
    const askedForParent = request.messages.some((message) =>
      message.tool_calls?.some((call) => call.function.name === 'retrieve_parent_chunks'),
    );
    if (parent && !askedForParent) {
      return { toolCalls: [{ name: 'retrieve_parent_chunks', arguments: { parent_id: parent } }] };
    }
    return { content: 'The documents say what you need.\n\nSources: whatever.pdf (p. 1)' };
  },
  compress: () => ({ content: 'Notes so far.' }),
  fallback: () => ({ content: 'Partial answer from what was found.' }),
  aggregate: () => ({ content: 'Combined answer.' }),
};

export interface DiscordHarness extends RunningBot, BotLifecycle {
  ollama: FakeOllama;
  discord: FakeDiscord;
  guildId: string;
  channelId: string;
  scripts: Record<Role, RoleScript>;
  requestsOf(role: Role): FakeChatRequest[];
  /** Mentions the bot in the guild channel and waits for the thread the bot starts from it. */
  mention(
    text: string,
    options?: { guildId?: string; channelId?: string },
  ): Promise<{ message: FakeMessage; threadId: string }>;
  /** Waits until the bot's latest message in a channel no longer shows progress, and returns all its messages. */
  settled(channelId: string, count?: number): Promise<FakeMessage[]>;
}

export async function startDiscordHarness(
  options: { environment?: Record<string, string>; stopTimeoutMs?: number } = {},
): Promise<DiscordHarness> {
  const scripts: Record<Role, RoleScript> = { ...defaultScripts };
  const ollama = await startFakeOllama({ chat: scriptByRole(scripts) });
  const discord = await startFakeDiscord();
  const { guildId, channelId } = discord.addGuild('alpha');
  const environment = {
    DISCORD_TOKEN: fakeBotToken,
    DISCORD_APPLICATION_ID: fakeApplicationId,
    DISCORD_API_URL: discord.apiUrl,
    RAGENT_ANSWER_TIMEOUT_S: '20',
    RAGENT_NODE_TIMEOUT_S: '10',
    OLLAMA_TIMEOUT_S: '5',
    ...options.environment,
  };
  const start = async (dataDir?: string) => {
    const services = await createTestServices({
      ollamaUrl: ollama.url,
      environment,
      ...(dataDir ? { dataDir } : {}),
    });
    const adapter = await startDiscord(services, {
      progressIntervalMs: 20,
      textIntervalMs: 50,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
    });
    return { services, adapter };
  };
  const started = await start();

  const harness: DiscordHarness = {
    ollama,
    discord,
    ...started,
    guildId,
    channelId,
    scripts,
    requestsOf: (role) => ollama.chatRequests().filter((request) => roleOf(request) === role),
    mention: async (text, where = {}) => {
      const message = discord.postMessage({
        channelId: where.channelId ?? channelId,
        content: text,
        mentionBot: true,
      });
      const thread = await discord.waitFor(
        () => discord.threads().find((each) => each.id === message.id),
        10_000,
        'the thread started from the mention',
      );
      return { message, threadId: thread.id };
    },
    settled: (threadId, count = 1) =>
      discord.waitFor(
        () => {
          const messages = discord
            .channelMessages(threadId)
            .filter((message) => message.author.id === discord.bot.id);
          const busy = messages.some(
            (message) => message.content.startsWith('⏳') || message.content.endsWith('✍️ writing…'),
          );
          return messages.length >= count && !busy ? messages : undefined;
        },
        15_000,
        `the bot's reply in ${threadId}`,
      ),
    ...botLifecycle(() => harness, {
      ollama,
      start,
      environment: () => environment,
      closeFakes: async () => {
        await discord.close();
        await ollama.close();
      },
    }),
  };
  return harness;
}
