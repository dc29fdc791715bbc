/**
 * A fake Discord that the real discord.js client talks to over the wire: the REST API under
 * `<url>/api` (set `DISCORD_API_URL` to `apiUrl`), the gateway WebSocket it advertises in
 * `GET /gateway/bot`, and attachment files under `<url>/attachments/…`.
 *
 * It keeps the state a bot can see (guilds, channels, threads, messages, interaction replies),
 * records every request the bot sends, and lets a test act as users: post messages, mention the
 * bot, reply, run `/ragent …` commands with attachments, and click buttons.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type FakeGateway, shardOfGuild, startFakeGateway } from './fake-discord-gateway.ts';
import {
  allPermissions,
  channelTypes,
  type FakeAttachment,
  type FakeChannel,
  type FakeGuild,
  type FakeMessage,
  type FakeUser,
  guildCreatePayload,
  makeMessage,
  makeUser,
  memberPayload,
  snowflake,
  snowflakeOnShard,
} from './fake-discord-payloads.ts';
import { closeServer, listenLocally, readBody, sendJson } from './http-helpers.ts';

export const fakeBotToken = 'fake-discord-bot-token.abcdef';
export const fakeApplicationId = '100000000000000001';
export const fakeBotUserId = '100000000000000001';
const messageContentIntent = 1 << 15;
/** Discord refuses interaction callbacks later than this after the interaction. */
const interactionDeadlineMs = 3_000;

export interface RecordedDiscordRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
  at: number;
}

export interface InteractionRecord {
  id: string;
  token: string;
  createdAt: number;
  /** Callback types in order (4 reply, 5 deferred reply, 6 deferred update, 7 update). */
  callbacks: Array<{ type: number; data: Record<string, unknown> | undefined; at: number }>;
  /** The reply as it stands now (after edits), and every version of it. */
  original: FakeMessage | undefined;
  history: string[];
  followUps: FakeMessage[];
  /** A button's interaction: the message the button is on (an update, type 6/7, edits it). */
  componentMessage?: FakeMessage;
}

export interface PostOptions {
  guildId?: string;
  channelId: string;
  author?: FakeUser;
  content: string;
  /** Whether the text contains a real mention of the bot (`<@bot>` is prepended when true). */
  mentionBot?: boolean;
  /** The id of the message this one replies to. */
  replyTo?: string;
  /** Whether a reply pings the author replied to (Discord's default). */
  replyPing?: boolean;
  /** Other people the text mentions (`<@id>` is prepended for each). */
  mentionUsers?: FakeUser[];
  /** Files attached to the message (served first with `addAttachment`). */
  attachments?: FakeAttachment[];
}

export interface CommandOptions {
  guildId: string;
  channelId: string;
  user?: FakeUser;
  /** Decimal permission bits of the member (default: none beyond sending messages). */
  permissions?: string;
  /** The top-level command (default `ragent`). */
  command?: string;
  /** `/ragent`'s subcommand; unset for a command without subcommands (its options go at the top). */
  subcommand?: string;
  options?: Array<{ name: string; type: number; value: string | number | boolean }>;
  attachments?: FakeAttachment[];
  /** Users, members and roles an option refers to (`data.resolved`, as Discord sends them). */
  resolved?: Record<string, unknown>;
}

export interface FakeDiscord {
  /** Origin, e.g. http://127.0.0.1:43123 */
  url: string;
  /** What DISCORD_API_URL is set to. */
  apiUrl: string;
  bot: FakeUser;
  requests: RecordedDiscordRequest[];
  /** A guild the bot is in (with `shard: [id, count]`: one whose events go to that shard). */
  addGuild(name?: string, options?: { shard?: [number, number] }): { guildId: string; channelId: string };
  /**
   * A role of a server (`GET /guilds/{id}/roles` lists it with the @everyone role); `botHasIt` gives it
   * to the bot's member. Returns its id.
   */
  addRole(
    guildId: string,
    role: { name: string; mentionable: boolean; permissions?: string; botHasIt?: boolean },
  ): string;
  /** A server admin adds a text channel (dispatches CHANNEL_CREATE); returns its id. */
  addChannel(guildId: string, name: string): string;
  /** A user starts a thread in a channel (not from a message); returns its id. */
  addThread(channelId: string, name: string): string;
  /** A server admin adds a forum channel with these tags (dispatches CHANNEL_CREATE); returns its id. */
  addForum(guildId: string, name: string, tags?: string[]): string;
  /**
   * A user opens a post in a forum: THREAD_CREATE (the post, with its title and tags), then the starter
   * message's MESSAGE_CREATE in it (its id is the post's). Returns the post's id and its starter message.
   */
  postInForum(options: {
    forumId: string;
    title: string;
    content: string;
    tags?: string[];
    author?: FakeUser;
    mentionBot?: boolean;
    /** Other people the first message mentions (`<@id>` is prepended for each). */
    mentionUsers?: FakeUser[];
  }): { postId: string; message: FakeMessage };
  /** A user starts a thread from their message (the thread takes the message's id); returns its id. */
  addThreadFromMessage(message: FakeMessage, name: string): string;
  /** Serves a file; returns the attachment object Discord would put in an interaction. */
  addAttachment(filename: string, bytes: Uint8Array, contentType?: string): FakeAttachment;
  /** A user posts a message; dispatches MESSAGE_CREATE (content hidden without the intent, like Discord). */
  postMessage(options: PostOptions): FakeMessage;
  /** A user opens a DM with the bot and writes in it. */
  postDirectMessage(options: { author?: FakeUser; channelId?: string; content: string }): FakeMessage;
  /** Delivers a message's MESSAGE_CREATE again (Discord may replay events after a reconnect). */
  redeliver(message: FakeMessage): void;
  /** The author edits a message (MESSAGE_UPDATE with the new text). */
  editUserMessage(message: FakeMessage, content: string): void;
  /** A user runs `/ragent <subcommand>`; returns the interaction record to watch. */
  runCommand(options: CommandOptions): InteractionRecord;
  /** A member sets their server nickname (GET /guilds/{id}/members/{user} shows it). */
  setNickname(guildId: string, user: FakeUser, nick: string): void;
  /** A user chooses a message command (e.g. "Ask ragent") from a message's Apps menu. */
  runMessageCommand(options: { message: FakeMessage; name: string; user?: FakeUser }): InteractionRecord;
  /** A user clicks a button on one of the bot's messages. */
  clickButton(options: {
    message: FakeMessage;
    customId: string;
    user?: FakeUser;
    /** The channel the message shows in (an ephemeral reply's, which the fake keeps apart). */
    channelId?: string;
  }): InteractionRecord;
  /** A user submits a modal the bot opened (its text inputs' values by custom id). */
  submitModal(options: {
    channelId: string;
    customId: string;
    values: Record<string, string>;
    user?: FakeUser;
  }): InteractionRecord;
  message(id: string): FakeMessage | undefined;
  /** Messages in a channel or thread, oldest first, as they stand now. */
  channelMessages(channelId: string): FakeMessage[];
  threads(): FakeChannel[];
  /** Every version of a message's content the bot sent (creation, then each edit). */
  contentHistory(messageId: string): string[];
  /** Messages the bot created or edited, as the bodies it sent (POST/PATCH with content or embeds). */
  sentBodies(): Array<{ method: string; path: string; body: Record<string, unknown> }>;
  /** Polls until `check` returns a value other than undefined/false, or throws after `timeoutMs`. */
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number, what?: string): Promise<T>;
  /** Resolves when `count` gateway sessions have identified (default 1). */
  waitForLogin(count?: number): Promise<{ intents: number }>;
  identifiedIntents(): number[];
  /** How many identified gateway sessions shard `id` has (Discord allows more than one). */
  shardSessions(id: number): number;
  /** Makes the next `count` requests matching `pattern` (method + path) fail with this status. */
  failNext(pattern: RegExp, status: number, count?: number): void;
  close(): Promise<void>;
}

export const randomUser = (name = 'alice'): FakeUser => makeUser(snowflake(), name);

export async function startFakeDiscord(options: { guilds?: number } = {}): Promise<FakeDiscord> {
  const bot = makeUser(fakeBotUserId, 'ragent', true);
  const guilds = new Map<string, FakeGuild>();
  const channels = new Map<string, FakeChannel>();
  const messages = new Map<string, FakeMessage>();
  const histories = new Map<string, string[]>();
  const files = new Map<string, { bytes: Uint8Array; contentType: string | undefined }>();
  const interactions = new Map<string, InteractionRecord>();
  /** The message a component interaction came from, by interaction token. */
  const interactionMessages = new Map<string, FakeMessage>();
  const requests: RecordedDiscordRequest[] = [];
  const failures: Array<{ pattern: RegExp; status: number }> = [];
  const defaultUser = makeUser(snowflake(), 'alice');
  const roles = new Map<
    string,
    Array<{ id: string; name: string; mentionable: boolean; permissions: string }>
  >();
  const botRoles = new Map<string, string[]>();

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { message: String(error), code: 0 });
      else response.destroy();
    });
  });
  const port = await listenLocally(server);
  const url = `http://127.0.0.1:${port}`;

  const gateway: FakeGateway = startFakeGateway({
    server,
    path: '/gateway',
    acceptsToken: (token) => token === fakeBotToken,
    onIdentified: (session) => {
      // A session sees the guilds of its shard only.
      const [shard, count] = session.shard;
      const own = [...guilds.values()].filter((guild) => shardOfGuild(guild.id, count) === shard);
      return [
        {
          t: 'READY',
          d: {
            v: 10,
            user: bot,
            shard: session.shard,
            guilds: own.map((guild) => ({ id: guild.id, unavailable: true })),
            session_id: snowflake(),
            resume_gateway_url: `ws://127.0.0.1:${port}/gateway`,
            application: { id: fakeApplicationId, flags: 0 },
            private_channels: [],
            relationships: [],
          },
        },
        ...own.map((guild) => ({ t: 'GUILD_CREATE', d: guildCreatePayload(guild, bot) })),
      ];
    },
  });

  const contentIntentGranted = () =>
    gateway.sessions().every((session) => ((session.identify?.intents ?? 0) & messageContentIntent) !== 0);

  /** Members with a nickname, by `guildId:userId`. */
  const members = new Map<string, { user: FakeUser; nick: string }>();
  const storeMessage = (message: FakeMessage) => {
    messages.set(message.id, message);
    histories.set(message.id, [message.content]);
  };

  /** What the gateway shows the bot: Discord blanks content the bot may not read. */
  const visibleToBot = (message: FakeMessage): FakeMessage => {
    const readable =
      contentIntentGranted() ||
      message.guild_id === undefined ||
      message.author.id === bot.id ||
      message.mentions.some((user) => user.id === bot.id);
    return readable ? message : { ...message, content: '', embeds: [], attachments: [], components: [] };
  };

  const createMessageFromBot = (channelId: string, body: Record<string, unknown>): FakeMessage => {
    const channel = channels.get(channelId);
    const message = makeMessage({
      channel_id: channelId,
      ...(channel?.guild_id ? { guild_id: channel.guild_id } : {}),
      author: bot,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      flags: typeof body.flags === 'number' ? body.flags : 0,
      allowed_mentions: body.allowed_mentions,
    });
    storeMessage(message);
    if (channel?.type === channelTypes.publicThread) channel.message_count = (channel.message_count ?? 0) + 1;
    return message;
  };

  const editMessage = (message: FakeMessage, body: Record<string, unknown>): FakeMessage => {
    if (typeof body.content === 'string') message.content = body.content;
    if (Array.isArray(body.embeds)) message.embeds = body.embeds;
    if (Array.isArray(body.components)) message.components = body.components;
    if ('allowed_mentions' in body) message.allowed_mentions = body.allowed_mentions;
    message.edited_timestamp = new Date().toISOString();
    histories.get(message.id)?.push(message.content);
    return message;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parsed = new URL(request.url ?? '/', url);
    const method = request.method ?? 'GET';
    const raw = await readBody(request);
    const body = parseBody(raw, request.headers['content-type']);
    const record: RecordedDiscordRequest = {
      method,
      path: parsed.pathname,
      query: parsed.searchParams,
      body,
      authorization: request.headers.authorization,
      at: Date.now(),
    };
    requests.push(record);

    const failure = failures.findIndex((entry) => entry.pattern.test(`${method} ${parsed.pathname}`));
    if (failure >= 0) {
      const status = failures.splice(failure, 1)[0]?.status ?? 500;
      sendJson(response, status, { message: `Simulated failure ${status}`, code: 0 });
      return;
    }

    const attachment = /^\/attachments\/(\d+)\/[^/]+$/.exec(parsed.pathname);
    if (attachment && method === 'GET') {
      const file = files.get(attachment[1]!);
      if (!file) return sendJson(response, 404, { message: 'Not found' });
      response.writeHead(200, {
        ...(file.contentType ? { 'content-type': file.contentType } : {}),
        'content-length': String(file.bytes.byteLength),
      });
      response.end(Buffer.from(file.bytes));
      return;
    }

    const route = decodeURIComponent(parsed.pathname).replace(/^\/api\/v10/, '');
    if (!parsed.pathname.startsWith('/api/v10/'))
      return sendJson(response, 404, { message: '404: Not Found', code: 0 });
    const isWebhookOrCallback = route.startsWith('/interactions/') || route.startsWith('/webhooks/');
    if (!isWebhookOrCallback && record.authorization !== `Bot ${fakeBotToken}`) {
      return sendJson(response, 401, { message: '401: Unauthorized', code: 0 });
    }
    const reply = routeRequest(method, route, parsed.searchParams, (body ?? {}) as Record<string, unknown>);
    if (reply.status === 204) {
      response.writeHead(204);
      response.end();
      return;
    }
    sendJson(response, reply.status, reply.body);
  }

  function routeRequest(
    method: string,
    route: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): { status: number; body?: unknown } {
    let match: RegExpExecArray | null;
    if (method === 'GET' && route === '/gateway/bot') {
      return {
        status: 200,
        body: {
          url: `ws://127.0.0.1:${port}/gateway`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
        },
      };
    }
    if (method === 'GET' && route === '/users/@me') return { status: 200, body: bot };
    if (method === 'GET' && route === '/users/@me/guilds')
      return { status: 200, body: [...guilds.values()].map((guild) => ({ id: guild.id, name: guild.name })) };
    match = /^\/guilds\/(\d+)\/roles$/.exec(route);
    if (match && method === 'GET') {
      const guildId = match[1]!;
      if (!guilds.has(guildId)) return { status: 404, body: { message: 'Unknown Guild', code: 10004 } };
      // Every server has @everyone, whose id is the server's (no Mention Everyone for it here).
      const everyone = { id: guildId, name: '@everyone', mentionable: false, permissions: '3072' };
      const listed = [everyone, ...(roles.get(guildId) ?? [])];
      return {
        status: 200,
        body: listed.map((role, position) => ({
          ...role,
          color: 0,
          hoist: false,
          position,
          managed: false,
          flags: 0,
        })),
      };
    }
    match = /^\/guilds\/(\d+)\/members\/(\d+)$/.exec(route);
    if (match && method === 'GET' && (match[2] === bot.id || match[2] === fakeApplicationId)) {
      return {
        status: 200,
        body: {
          user: bot,
          roles: botRoles.get(match[1]!) ?? [],
          joined_at: new Date().toISOString(),
          deaf: false,
          mute: false,
          flags: 0,
        },
      };
    }
    if (method === 'GET' && route === '/applications/@me') {
      return { status: 200, body: { id: fakeApplicationId, name: 'ragent', flags: 0, bot } };
    }
    match = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(route);
    if (match && method === 'PUT') {
      const commands = Array.isArray(body) ? body : [];
      return {
        status: 200,
        body: commands.map((command: Record<string, unknown>) => ({
          ...command,
          id: snowflake(),
          application_id: match![1],
          ...(match![2] ? { guild_id: match![2] } : {}),
          version: snowflake(),
          type: command.type ?? 1,
        })),
      };
    }
    match = /^\/channels\/(\d+)$/.exec(route);
    if (match && method === 'GET') {
      const channel = channels.get(match[1]!);
      if (!channel) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      return { status: 200, body: channel };
    }
    match = /^\/channels\/(\d+)\/messages$/.exec(route);
    if (match && method === 'POST') {
      if (!channels.has(match[1]!)) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      const message = createMessageFromBot(match[1]!, body);
      gateway.dispatch('MESSAGE_CREATE', message);
      return { status: 200, body: message };
    }
    // A channel's history, newest first, as Discord pages it (`before`, `after`, `limit` up to 100).
    if (match && method === 'GET') {
      if (!channels.has(match[1]!)) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
      const before = query.get('before');
      const after = query.get('after');
      const history = [...messages.values()]
        .filter((message) => message.channel_id === match![1])
        .filter((message) => !before || BigInt(message.id) < BigInt(before))
        .filter((message) => !after || BigInt(message.id) > BigInt(after))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, limit)
        .map(visibleToBot);
      return { status: 200, body: history };
    }
    match = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(route);
    if (match) {
      const message = messages.get(match[2]!);
      if (!message || message.channel_id !== match[1]) {
        return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      }
      if (method === 'GET') return { status: 200, body: message };
      if (method === 'PATCH') {
        if (message.author.id !== bot.id) {
          return {
            status: 403,
            body: { message: 'Cannot edit a message authored by another user', code: 50005 },
          };
        }
        return { status: 200, body: editMessage(message, body) };
      }
      if (method === 'DELETE') {
        if (message.author.id !== bot.id) {
          return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
        }
        messages.delete(message.id);
        return { status: 204 };
      }
    }
    // A member of a server (no privileged intent needed for one member): with their nickname.
    match = /^\/guilds\/(\d+)\/members\/(\d+)$/.exec(route);
    if (match && method === 'GET') {
      const member = members.get(`${match[1]}:${match[2]}`);
      if (!member) return { status: 404, body: { message: 'Unknown Member', code: 10007 } };
      return { status: 200, body: { ...memberPayload(member.user, '0'), nick: member.nick } };
    }
    match = /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/.exec(route);
    if (match && method === 'POST') {
      const parent = channels.get(match[1]!);
      const starter = messages.get(match[2]!);
      if (!parent?.guild_id || !starter)
        return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      if (parent.type !== channelTypes.guildText) {
        return { status: 400, body: { message: 'Cannot start a thread here', code: 50024 } };
      }
      const name = String(body.name ?? '');
      if (name.length < 1 || name.length > 100) {
        return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { name: {} } } };
      }
      // A message starts at most one thread, and the thread takes the message's id.
      if (channels.has(starter.id)) {
        return {
          status: 400,
          body: { message: 'A thread has already been created for this message', code: 160004 },
        };
      }
      const thread: FakeChannel = {
        id: starter.id,
        type: channelTypes.publicThread,
        name,
        guild_id: parent.guild_id,
        parent_id: parent.id,
        owner_id: bot.id,
        message_count: 0,
        member_count: 1,
        thread_metadata: {
          archived: false,
          auto_archive_duration: Number(body.auto_archive_duration ?? 1440),
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      channels.set(thread.id, thread);
      guilds.get(parent.guild_id)?.threads.push(thread);
      gateway.dispatch('THREAD_CREATE', { ...thread, newly_created: true });
      return { status: 201, body: thread };
    }
    if (/^\/channels\/\d+\/typing$/.test(route) && method === 'POST') return { status: 204 };
    match = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(route);
    if (match && method === 'POST') {
      const interaction = interactions.get(match[2]!);
      if (!interaction || interaction.id !== match[1]) {
        return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
      }
      if (interaction.callbacks.length > 0) {
        return { status: 400, body: { message: 'Interaction has already been acknowledged.', code: 40060 } };
      }
      if (Date.now() - interaction.createdAt > interactionDeadlineMs) {
        return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
      }
      const type = Number(body.type);
      const data = body.data as Record<string, unknown> | undefined;
      interaction.callbacks.push({ type, data, at: Date.now() });
      if (type === 4 || type === 5) {
        const message = makeMessage({
          channel_id: '0',
          author: bot,
          content: typeof data?.content === 'string' ? data.content : '',
          embeds: Array.isArray(data?.embeds) ? data.embeds : [],
          components: Array.isArray(data?.components) ? data.components : [],
          flags: Number(data?.flags ?? 0),
          allowed_mentions: data?.allowed_mentions,
          interaction_id: interaction.id,
        });
        interaction.original = message;
        interaction.history.push(message.content);
      }
      // An update (7) edits the message the button is on; after a deferred update (6) the
      // interaction's @original is that message too.
      const onMessage = interaction.componentMessage ?? interactionMessages.get(interaction.token);
      if ((type === 6 || type === 7) && onMessage) {
        interaction.original = messages.get(onMessage.id) ?? onMessage;
        if (type === 7 && data) editMessage(interaction.original, data);
      }
      if (query.get('with_response') === 'true') {
        return {
          status: 200,
          body: {
            interaction: {
              id: interaction.id,
              type: 2,
              activity_instance_id: null,
              response_message_id: null,
            },
            resource: interaction.original ? { type, message: interaction.original } : { type },
          },
        };
      }
      return { status: 204 };
    }
    match = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/.exec(route);
    if (match) {
      const interaction = interactions.get(match[2]!);
      if (!interaction?.original || match[1] !== fakeApplicationId) {
        return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      }
      if (method === 'GET') return { status: 200, body: interaction.original };
      if (method === 'PATCH') {
        editMessage(interaction.original, body);
        interaction.history.push(interaction.original.content);
        return { status: 200, body: interaction.original };
      }
    }
    match = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(route);
    if (match && method === 'POST') {
      const interaction = interactions.get(match[2]!);
      if (!interaction) return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
      const message = makeMessage({
        channel_id: '0',
        author: bot,
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? body.embeds : [],
        components: Array.isArray(body.components) ? body.components : [],
        flags: Number(body.flags ?? 0),
        allowed_mentions: body.allowed_mentions,
      });
      interaction.followUps.push(message);
      return { status: 200, body: message };
    }
    return { status: 404, body: { message: '404: Not Found', code: 0 } };
  }

  const fake: FakeDiscord = {
    url,
    apiUrl: `${url}/api`,
    bot,
    requests,
    addRole: (guildId, role) => {
      const id = snowflake();
      roles.set(guildId, [
        ...(roles.get(guildId) ?? []),
        { id, name: role.name, mentionable: role.mentionable, permissions: role.permissions ?? '0' },
      ]);
      if (role.botHasIt) botRoles.set(guildId, [...(botRoles.get(guildId) ?? []), id]);
      return id;
    },
    addGuild: (name = `guild ${guilds.size + 1}`, guildOptions = {}) => {
      const guildId = guildOptions.shard ? snowflakeOnShard(...guildOptions.shard) : snowflake();
      const channel: FakeChannel = {
        id: snowflake(),
        type: channelTypes.guildText,
        name: 'general',
        guild_id: guildId,
        position: 0,
        permission_overwrites: [],
      };
      guilds.set(guildId, { id: guildId, name, channels: [channel], threads: [] });
      channels.set(channel.id, channel);
      gateway.dispatch('GUILD_CREATE', guildCreatePayload(guilds.get(guildId)!, bot));
      return { guildId, channelId: channel.id };
    },
    addChannel: (guildId, name) => {
      const guild = guilds.get(guildId);
      if (!guild) throw new Error(`no guild ${guildId}`);
      const channel: FakeChannel = {
        id: snowflake(),
        type: channelTypes.guildText,
        name,
        guild_id: guildId,
        position: guild.channels.length,
        permission_overwrites: [],
      };
      guild.channels.push(channel);
      channels.set(channel.id, channel);
      gateway.dispatch('CHANNEL_CREATE', channel);
      return channel.id;
    },
    addThread: (channelId, name) => {
      const parent = channels.get(channelId);
      if (!parent?.guild_id) throw new Error(`no guild channel ${channelId}`);
      const thread: FakeChannel = {
        id: snowflake(),
        type: channelTypes.publicThread,
        name,
        guild_id: parent.guild_id,
        parent_id: parent.id,
        owner_id: defaultUser.id,
        message_count: 0,
        member_count: 1,
        thread_metadata: {
          archived: false,
          auto_archive_duration: 1440,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      channels.set(thread.id, thread);
      guilds.get(parent.guild_id)?.threads.push(thread);
      gateway.dispatch('THREAD_CREATE', { ...thread, newly_created: true });
      return thread.id;
    },
    addForum: (guildId, name, tags = []) => {
      const guild = guilds.get(guildId);
      if (!guild) throw new Error(`no guild ${guildId}`);
      const forum: FakeChannel = {
        id: snowflake(),
        type: channelTypes.guildForum,
        name,
        guild_id: guildId,
        position: guild.channels.length,
        permission_overwrites: [],
        available_tags: tags.map((tag) => ({
          id: snowflake(),
          name: tag,
          moderated: false,
          emoji_id: null,
          emoji_name: null,
        })),
      };
      guild.channels.push(forum);
      channels.set(forum.id, forum);
      gateway.dispatch('CHANNEL_CREATE', forum);
      return forum.id;
    },
    postInForum: (options) => {
      const forum = channels.get(options.forumId);
      if (!forum?.guild_id || forum.type !== channelTypes.guildForum) throw new Error('no forum');
      const author = options.author ?? defaultUser;
      const postId = snowflake();
      const appliedTags = (options.tags ?? []).map((name) => {
        const tag = forum.available_tags?.find((each) => each.name === name);
        if (!tag) throw new Error(`no tag ${name}`);
        return tag.id;
      });
      // A forum post is a public thread whose starter message has the thread's id.
      const post: FakeChannel = {
        id: postId,
        type: channelTypes.publicThread,
        name: options.title,
        guild_id: forum.guild_id,
        parent_id: forum.id,
        owner_id: author.id,
        message_count: 0,
        member_count: 1,
        applied_tags: appliedTags,
        thread_metadata: {
          archived: false,
          auto_archive_duration: 1440,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      channels.set(post.id, post);
      guilds.get(forum.guild_id)?.threads.push(post);
      gateway.dispatch('THREAD_CREATE', { ...post, newly_created: true });
      const message = makeMessage({
        id: postId,
        channel_id: postId,
        guild_id: forum.guild_id,
        author,
        content: `${options.mentionBot ? `<@${bot.id}> ` : ''}${(options.mentionUsers ?? []).map((user) => `<@${user.id}> `).join('')}${options.content}`,
        mentions: [...(options.mentionBot ? [bot] : []), ...(options.mentionUsers ?? [])],
      });
      storeMessage(message);
      gateway.dispatch('MESSAGE_CREATE', {
        ...visibleToBot(message),
        member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false },
      });
      return { postId, message };
    },
    addThreadFromMessage: (message, name) => {
      const parent = channels.get(message.channel_id);
      if (!parent?.guild_id) throw new Error(`no guild channel ${message.channel_id}`);
      const thread: FakeChannel = {
        id: message.id,
        type: channelTypes.publicThread,
        name,
        guild_id: parent.guild_id,
        parent_id: parent.id,
        owner_id: message.author.id,
        message_count: 0,
        member_count: 1,
        thread_metadata: {
          archived: false,
          auto_archive_duration: 1440,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      channels.set(thread.id, thread);
      guilds.get(parent.guild_id)?.threads.push(thread);
      gateway.dispatch('THREAD_CREATE', { ...thread, newly_created: true });
      return thread.id;
    },
    addAttachment: (filename, bytes, contentType = 'application/pdf') => {
      const id = snowflake();
      files.set(id, { bytes, contentType });
      const fileUrl = `${url}/attachments/${id}/${encodeURIComponent(filename)}`;
      return {
        id,
        filename,
        size: bytes.byteLength,
        url: fileUrl,
        proxy_url: fileUrl,
        content_type: contentType,
      };
    },
    postMessage: (options) => {
      const author = options.author ?? defaultUser;
      const channel = channels.get(options.channelId);
      const guildId = options.guildId ?? channel?.guild_id;
      const replied = options.replyTo ? messages.get(options.replyTo) : undefined;
      const mentions: FakeUser[] = [];
      if (options.mentionBot) mentions.push(bot);
      mentions.push(...(options.mentionUsers ?? []));
      const othersMentioned = (options.mentionUsers ?? []).map((user) => `<@${user.id}> `).join('');
      if (replied && (options.replyPing ?? true) && !mentions.some((user) => user.id === replied.author.id)) {
        mentions.push(replied.author);
      }
      const message = makeMessage({
        channel_id: options.channelId,
        ...(guildId ? { guild_id: guildId } : {}),
        author,
        content: `${options.mentionBot ? `<@${bot.id}> ` : ''}${othersMentioned}${options.content}`,
        mentions,
        mention_everyone: /@(everyone|here)\b/.test(options.content),
        ...(options.attachments ? { attachments: options.attachments } : {}),
        ...(replied
          ? {
              type: 19,
              message_reference: {
                message_id: replied.id,
                channel_id: replied.channel_id,
                ...(guildId ? { guild_id: guildId } : {}),
              },
              referenced_message: replied,
            }
          : {}),
      });
      storeMessage(message);
      gateway.dispatch('MESSAGE_CREATE', {
        ...visibleToBot(message),
        ...(guildId
          ? {
              member: {
                roles: [],
                joined_at: new Date().toISOString(),
                deaf: false,
                mute: false,
                ...(members.has(`${guildId}:${author.id}`)
                  ? { nick: members.get(`${guildId}:${author.id}`)!.nick }
                  : {}),
              },
            }
          : {}),
      });
      return message;
    },
    postDirectMessage: (options) => {
      const author = options.author ?? defaultUser;
      const channelId = options.channelId ?? snowflake();
      if (!channels.has(channelId))
        channels.set(channelId, { id: channelId, type: channelTypes.dm, recipients: [author] });
      const message = makeMessage({ channel_id: channelId, author, content: options.content });
      storeMessage(message);
      gateway.dispatch('MESSAGE_CREATE', { ...message, channel_type: channelTypes.dm });
      return message;
    },
    redeliver: (message) => {
      gateway.dispatch('MESSAGE_CREATE', visibleToBot(message));
    },
    editUserMessage: (message, content) => {
      const edited = { ...message, content, edited_timestamp: new Date().toISOString() };
      storeMessage(edited);
      gateway.dispatch('MESSAGE_UPDATE', visibleToBot(edited));
    },
    runCommand: (options) => {
      const user = options.user ?? defaultUser;
      const attachments = options.attachments ?? [];
      return startInteraction({
        type: 2,
        guild_id: options.guildId,
        channel_id: options.channelId,
        member: memberPayload(user, options.permissions ?? '3072'),
        data: {
          id: snowflake(),
          name: options.command ?? 'ragent',
          type: 1,
          guild_id: options.guildId,
          options:
            options.subcommand === undefined
              ? (options.options ?? [])
              : [
                  {
                    type: 1,
                    name: options.subcommand,
                    options: [
                      ...(options.options ?? []),
                      ...attachments.map((file, index) => ({
                        type: 11,
                        name: index === 0 ? 'file' : `file${index}`,
                        value: file.id,
                      })),
                    ],
                  },
                ],
          ...(attachments.length > 0
            ? { resolved: { attachments: Object.fromEntries(attachments.map((file) => [file.id, file])) } }
            : {}),
          ...(options.resolved ? { resolved: options.resolved } : {}),
        },
      });
    },
    setNickname: (guildId, user, nick) => {
      members.set(`${guildId}:${user.id}`, { user, nick });
    },
    runMessageCommand: (options) => {
      const user = options.user ?? defaultUser;
      const channel = channels.get(options.message.channel_id);
      if (!channel?.guild_id) throw new Error('message commands are offered in servers only');
      return startInteraction({
        type: 2,
        guild_id: channel.guild_id,
        channel_id: channel.id,
        member: memberPayload(user, '3072'),
        data: {
          id: snowflake(),
          name: options.name,
          type: 3,
          guild_id: channel.guild_id,
          target_id: options.message.id,
          // The target comes with its content, whether or not the bot has the Message Content intent.
          resolved: { messages: { [options.message.id]: options.message } },
        },
      });
    },
    clickButton: (options) => {
      const user = options.user ?? defaultUser;
      const channelId = options.channelId ?? options.message.channel_id;
      const channel = channels.get(channelId);
      return startInteraction({
        type: 3,
        channel_id: channelId,
        ...(channel?.guild_id
          ? { guild_id: channel.guild_id, member: memberPayload(user, '3072') }
          : { user }),
        message: options.message,
        data: { custom_id: options.customId, component_type: 2 },
      });
    },
    submitModal: (options) => {
      const user = options.user ?? defaultUser;
      const channel = channels.get(options.channelId);
      return startInteraction({
        type: 5,
        channel_id: options.channelId,
        ...(channel?.guild_id
          ? { guild_id: channel.guild_id, member: memberPayload(user, '3072') }
          : { user }),
        data: {
          custom_id: options.customId,
          components: Object.entries(options.values).map(([customId, value]) => ({
            type: 1,
            components: [{ type: 4, custom_id: customId, value }],
          })),
        },
      });
    },
    message: (id) => messages.get(id),
    channelMessages: (channelId) =>
      [...messages.values()].filter((message) => message.channel_id === channelId),
    threads: () => [...channels.values()].filter((channel) => channel.type === channelTypes.publicThread),
    contentHistory: (messageId) => histories.get(messageId) ?? [],
    sentBodies: () =>
      requests
        .filter(
          (request) =>
            (request.method === 'POST' || request.method === 'PATCH') &&
            /\/(messages|webhooks|callback)/.test(request.path) &&
            !request.path.endsWith('/threads') &&
            request.body !== null &&
            typeof request.body === 'object',
        )
        .map((request) => {
          const body = request.body as Record<string, unknown>;
          // Interaction callbacks carry the message in `data`.
          const message = request.path.endsWith('/callback')
            ? ((body.data ?? {}) as Record<string, unknown>)
            : body;
          return { method: request.method, path: request.path, body: message };
        })
        .filter(({ body }) => 'content' in body || 'embeds' in body),
    waitFor: async (check, timeoutMs = 10_000, what = 'condition') => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value as never;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    waitForLogin: async (count = 1) => {
      const session = await gateway.waitForIdentify(count);
      return { intents: session.identify?.intents ?? 0 };
    },
    identifiedIntents: () => gateway.sessions().map((session) => session.identify?.intents ?? 0),
    shardSessions: (id) => gateway.sessionsOfShard(id).length,
    failNext: (pattern, status, count = 1) => {
      for (let i = 0; i < count; i++) failures.push({ pattern, status });
    },
    close: async () => {
      await gateway.close();
      await closeServer(server);
    },
  };

  function startInteraction(fields: Record<string, unknown>): InteractionRecord {
    const record: InteractionRecord = {
      id: snowflake(),
      token: `token-${snowflake()}`,
      createdAt: Date.now(),
      callbacks: [],
      original: undefined,
      history: [],
      followUps: [],
      ...(fields.message ? { componentMessage: fields.message as FakeMessage } : {}),
    };
    interactions.set(record.token, record);
    if (fields.message) interactionMessages.set(record.token, fields.message as FakeMessage);
    const guildId = fields.guild_id as string | undefined;
    const channel = channels.get(fields.channel_id as string);
    gateway.dispatch('INTERACTION_CREATE', {
      id: record.id,
      application_id: fakeApplicationId,
      token: record.token,
      version: 1,
      locale: 'en-US',
      ...(guildId ? { guild_locale: 'en-US', guild: { id: guildId, locale: 'en-US', features: [] } } : {}),
      app_permissions: allPermissions,
      entitlements: [],
      authorizing_integration_owners: guildId ? { '0': guildId } : { '1': fakeBotUserId },
      context: guildId ? 0 : 1,
      channel: channel ?? { id: fields.channel_id, type: channelTypes.dm },
      ...fields,
    });
    return record;
  }

  for (let i = 0; i < (options.guilds ?? 0); i++) fake.addGuild();
  return fake;
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return null;
  if (contentType?.includes('application/json')) return JSON.parse(raw.toString('utf8'));
  return raw.toString('utf8');
}
