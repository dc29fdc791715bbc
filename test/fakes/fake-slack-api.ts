/**
 * A fake Slack Web API that speaks the real wire protocol the `@slack/web-api` client and Bolt use:
 * `POST /api/<method>` with a form or JSON body and `Authorization: Bearer <token>`, answered with
 * `{ ok, … }`. It records every call with its body, keeps the messages posted per channel, serves
 * file downloads (only with the bot token, like files.slack.com), records `response_url` posts, and
 * offers Socket Mode: `apps.connections.open` returns a local WebSocket URL to which the test pushes
 * envelopes and reads the app's acknowledgements.
 *
 * Replicas, as Slack treats them: every connection of the app is accepted up to ten (the eleventh is
 * told `too_many_websockets` and closed), and each envelope goes to ONE open connection chosen at
 * random — so a redelivery, or the `app_mention` and `message` events of one message, may land on
 * different replicas. A replica that uses `apiUrlFor(name)` as its SLACK_API_URL has its Web API
 * calls and its Socket Mode connection labelled with that name.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { closeServer, listenLocally, readBody, sendJson } from './http-helpers.ts';

export interface SlackApiCall {
  method: string;
  body: Record<string, unknown>;
  /** The bearer token the call carried (for assertions; never print it in a real app). */
  token: string | undefined;
  at: number;
  /** The replica that made the call, when it used `apiUrlFor(replica)`. */
  replica?: string;
}

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  text: string;
  blocks: unknown[];
  /** How many times chat.update changed it. */
  updates: number;
  /** Set while a chat.startStream message is open for chat.appendStream. */
  streaming?: boolean;
  /** Set on a message chat.startStream created. */
  streamed?: boolean;
  /** The streaming chunks (task cards, plan titles) its stream carried, in order. */
  chunks?: unknown[];
  /** `task_display_mode` of its stream (`timeline` when not given, as Slack defaults). */
  taskDisplayMode?: string;
  /** The replica that posted it / changed it last (when it used `apiUrlFor(replica)`). */
  postedBy?: string;
  changedBy?: string;
  /** When it was posted / changed last (epoch ms, the fake's clock). */
  postedAt: number;
  changedAt: number;
  /** Who wrote it, for a person's message added with `addMessage` (the bot's posts have none). */
  user?: string;
  /** Another app's message (`addMessage` with `botId`). */
  botId?: string;
}

export interface FakeSlackFile {
  id: string;
  name: string;
  mimetype: string;
  bytes: Uint8Array;
  /** Content type the download serves (default: the mimetype). */
  servedContentType?: string;
  /** Override the download URL (e.g. a foreign host, to check the adapter refuses it). */
  downloadUrl?: string;
}

export interface FakeSlackUser {
  id: string;
  name: string;
  /** The profile's display name (users.info `profile.display_name`). */
  displayName?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
}

export interface SocketEnvelopeOptions {
  type: 'events_api' | 'slash_commands' | 'interactive';
  retryAttempt?: number;
  /** Deliver on this connection (an id from `connections()`); default: one open connection at random. */
  connection?: string;
  /** Any open connection but this one when there is another (where a redelivery may land). */
  avoid?: string;
}

/** A Socket Mode connection of the app. */
export interface SocketConnection {
  id: string;
  /** The replica that opened it, when it used `apiUrlFor(replica)`. */
  replica: string | undefined;
  open: boolean;
}

/** Where an envelope went and what the app acknowledged. */
export interface EnvelopeDelivery {
  envelopeId: string;
  connection: string;
  replica: string | undefined;
  ack: unknown;
}

export interface FakeSlackApi {
  url: string;
  /** The value for `SLACK_API_URL`. */
  apiUrl: string;
  botToken: string;
  appToken: string;
  botUserId: string;
  botId: string;
  teamId: string;
  calls: SlackApiCall[];
  callsTo(method: string): SlackApiCall[];
  /** Messages of a channel (optionally one thread, root included), oldest first. */
  messages(channel: string, threadTs?: string): FakeSlackMessage[];
  /** Posts to `response_url`s handed out by {@link responseUrl}. */
  responses(id: string): Array<Record<string, unknown>>;
  responseUrl(id: string): string;
  addFile(file: FakeSlackFile): Record<string, unknown>;
  addUser(user: FakeSlackUser): void;
  /**
   * A person (or with `botId`, another app) posted this message: it is in the channel's history, as
   * conversations.replies reads it (the event is sent apart, by the test). Returns its ts.
   */
  addMessage(message: {
    channel: string;
    user: string;
    text: string;
    threadTs?: string;
    ts?: string;
    botId?: string;
  }): string;
  /** A user group of the workspace (`usergroups.list` lists it). */
  addUserGroup(group: { id: string; handle: string }): void;
  /** Whether the bot token has the usergroups:read scope (default true); without it `missing_scope`. */
  setUserGroupsReadable(readable: boolean): void;
  /** Whether `assistant.threads.setStatus` works (default: false, like a channel without the AI app feature). */
  setAssistantStatusSupported(supported: boolean): void;
  /** Whether chat.startStream works (default: true); when not, it answers `not_allowed`. */
  setStreamingSupported(supported: boolean): void;
  /** Messages chat.delete removed, oldest first. */
  deletedMessages(): FakeSlackMessage[];
  /**
   * While set, every stream call that carries `chunks` is refused with this error, as a workspace
   * without task cards refuses them; `undefined` accepts them again (the default).
   */
  refuseChunks(error: string | undefined): void;
  /**
   * The scopes the bot token was granted, sent as Slack does in every answer's `x-oauth-scopes`
   * header (default: every scope of slack-app-manifest.yml).
   */
  setGrantedScopes(scopes: readonly string[]): void;
  /** Whether `markdown` blocks are accepted (default: true); when not, posts and updates with one get `invalid_blocks`. */
  setMarkdownBlocksSupported(supported: boolean): void;
  /**
   * Whether `context_actions` blocks (the `feedback_buttons` element) are accepted (default: true);
   * when not, posts, updates and stopStream with one get `invalid_blocks`, as a surface without them.
   */
  setFeedbackButtonsSupported(supported: boolean): void;
  /**
   * While set, every post or update that carries blocks is refused with this error (`invalid_blocks`,
   * `msg_blocks_too_long` …), as Slack refuses blocks it does not take; `undefined` accepts them again.
   */
  refuseBlocks(error: string | undefined): void;
  /** The next `count` calls to `method` answer HTTP 429 with `Retry-After: 0`. */
  rateLimitNext(method: string, count?: number): void;
  /** The next `count` calls to `method` answer `{ ok: false, error }` (HTTP 200), as Slack refuses a call. */
  failNext(method: string, error: string, count?: number): void;
  /** Resolves when `predicate` holds (checked after every call), or rejects after `timeoutMs`. */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs?: number, what?: string): Promise<T>;
  /** The value for `SLACK_API_URL` of one replica: its calls and its Socket Mode connection carry `replica`. */
  apiUrlFor(replica: string): string;
  /** Socket Mode: connected app sockets. */
  socketCount(): number;
  waitForSocket(timeoutMs?: number): Promise<void>;
  /** Socket Mode: every connection the app opened, oldest first (closed ones too). */
  connections(): SocketConnection[];
  /** Socket Mode: resolves with the open connection of `replica` (the newest, once it is open). */
  waitForConnection(replica: string, timeoutMs?: number): Promise<SocketConnection>;
  /** Socket Mode: sends an envelope to ONE open connection; resolves with the acknowledgement payload. */
  sendEnvelope(payload: unknown, options: SocketEnvelopeOptions): Promise<unknown>;
  /** Like `sendEnvelope`, and says which connection took it. */
  deliverEnvelope(payload: unknown, options: SocketEnvelopeOptions): Promise<EnvelopeDelivery>;
  close(): Promise<void>;
}

export interface FakeSlackApiOptions {
  teamId?: string;
  botUserId?: string;
  /** Picks the connection of an envelope (default Math.random): a number in [0, 1). */
  random?: () => number;
  /** How long an envelope waits for its acknowledgement before the send fails (default 5 s). */
  ackTimeoutMs?: number;
}

/** The bot scopes of slack-app-manifest.yml: what an app made from it is granted. */
export const defaultGrantedScopes: readonly string[] = [
  'app_mentions:read',
  'assistant:write',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'chat:write',
  'commands',
  'files:read',
  'users:read',
  'usergroups:read',
];

/** Slack accepts at most this many Socket Mode connections per app. */
export const maxSocketConnections = 10;

let tsCounter = 0;
function nextTs(): string {
  tsCounter += 1;
  return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
}

export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const teamId = options.teamId ?? 'T0001';
  const botUserId = options.botUserId ?? 'UBOT';
  const botId = 'BBOT';
  const botToken = 'xoxb-fake-bot-token-0001';
  const appToken = 'xapp-fake-app-token-0001';
  const calls: SlackApiCall[] = [];
  const messagesByChannel = new Map<string, FakeSlackMessage[]>();
  const files = new Map<string, FakeSlackFile>();
  const users = new Map<string, FakeSlackUser>();
  const responsePosts = new Map<string, Array<Record<string, unknown>>>();
  const rateLimits = new Map<string, number>();
  const failures = new Map<string, { error: string; count: number }>();
  let markdownBlocksSupported = true;
  const refusesBlocks = (blocks: unknown) =>
    !markdownBlocksSupported &&
    Array.isArray(blocks) &&
    blocks.some((block) => (block as { type?: unknown }).type === 'markdown');
  let refusedBlocksError: string | undefined;
  let feedbackButtonsSupported = true;
  /**
   * Slack's rules for a `context_actions` block: 1–5 elements, each `feedback_buttons` (a positive and
   * a negative button, each with `plain_text` of at most 75 characters and a value of at most 2,000)
   * or `icon_button`; action ids of at most 255 characters; `feedback_buttons` nowhere else.
   */
  const contextActionsValid = (block: Record<string, unknown>): boolean => {
    const elements = block.elements;
    if (!Array.isArray(elements) || elements.length === 0 || elements.length > 5) return false;
    const buttonValid = (button: unknown) => {
      const { text, value } = (button ?? {}) as {
        text?: { type?: unknown; text?: unknown };
        value?: unknown;
      };
      return (
        text?.type === 'plain_text' &&
        typeof text.text === 'string' &&
        text.text.length > 0 &&
        text.text.length <= 75 &&
        typeof value === 'string' &&
        value.length <= 2_000
      );
    };
    return (elements as Array<Record<string, unknown>>).every((element) => {
      if (element.action_id !== undefined && String(element.action_id).length > 255) return false;
      if (element.type === 'icon_button') return true;
      return (
        element.type === 'feedback_buttons' &&
        buttonValid(element.positive_button) &&
        buttonValid(element.negative_button)
      );
    });
  };
  const feedbackElementMisplaced = (block: Record<string, unknown>): boolean =>
    block.type !== 'context_actions' &&
    Array.isArray(block.elements) &&
    (block.elements as Array<{ type?: unknown }>).some((element) => element.type === 'feedback_buttons');
  /** Slack's limits: 50 blocks, 3,000 characters per text object, 12,000 of block text per message, 40,000 of `text`. */
  const refusal = (body: Record<string, unknown>): string | undefined => {
    if (typeof body.text === 'string' && body.text.length > 40_000) return 'msg_too_long';
    const blocks = body.blocks;
    if (!Array.isArray(blocks) || blocks.length === 0) return undefined;
    if (refusedBlocksError) return refusedBlocksError;
    if (refusesBlocks(blocks)) return 'invalid_blocks';
    if (blocks.length > 50) return 'invalid_blocks';
    for (const block of blocks as Array<Record<string, unknown>>) {
      if (feedbackElementMisplaced(block)) return 'invalid_blocks';
      if (block.type !== 'context_actions') continue;
      if (!feedbackButtonsSupported || !contextActionsValid(block)) return 'invalid_blocks';
    }
    let total = 0;
    for (const block of blocks as Array<Record<string, unknown>>) {
      const texts: string[] = [];
      if (block.type === 'markdown') total += String(block.text ?? '').length;
      else {
        const text = block.text as { text?: unknown } | undefined;
        if (typeof text?.text === 'string') texts.push(text.text);
        if (block.type === 'context' && Array.isArray(block.elements)) {
          for (const element of block.elements as Array<{ text?: unknown }>) {
            if (typeof element.text === 'string') texts.push(element.text);
          }
        }
      }
      if (texts.some((text) => text.length > 3_000)) return 'invalid_blocks';
      total += texts.reduce((sum, text) => sum + text.length, 0);
    }
    return total > 12_000 ? 'msg_blocks_too_long' : undefined;
  };
  const waiters = new Set<() => void>();
  const sockets = new Set<WebSocket>();
  const random = options.random ?? Math.random;
  const ackTimeoutMs = options.ackTimeoutMs ?? 5_000;
  /** Every connection, oldest first, with its socket and the envelopes it has not acknowledged yet. */
  const connectionList: Array<
    SocketConnection & { socket: WebSocket; unacknowledged: Map<string, (error: Error) => void> }
  > = [];
  /** Socket Mode URLs handed out by apps.connections.open: ticket → replica. */
  const tickets = new Map<string, string | undefined>();
  let ticketCounter = 0;
  const pendingAcks = new Map<string, (payload: unknown) => void>();
  let assistantStatusSupported = false;
  const userGroups: Array<{ id: string; handle: string }> = [];
  let userGroupsReadable = true;
  let streamingSupported = true;
  let refusedChunksError: string | undefined;
  let grantedScopes: readonly string[] = defaultGrantedScopes;
  /** Slack's chunk shapes (`@slack/types` chunk.d.ts): an unknown type or a bad task is refused. */
  const chunksInvalid = (chunks: unknown): boolean => {
    if (!Array.isArray(chunks) || chunks.length === 0) return true;
    return (chunks as Array<Record<string, unknown>>).some((chunk) => {
      switch (chunk.type) {
        case 'markdown_text':
          return typeof chunk.text !== 'string';
        case 'plan_update':
          return typeof chunk.title !== 'string' || !chunk.title;
        case 'task_update': {
          if (typeof chunk.id !== 'string' || typeof chunk.title !== 'string' || !chunk.title) return true;
          if (!['pending', 'in_progress', 'complete', 'error'].includes(String(chunk.status))) return true;
          const sources = chunk.sources;
          if (sources === undefined) return false;
          return (
            !Array.isArray(sources) ||
            (sources as Array<Record<string, unknown>>).some(
              (source) =>
                source.type !== 'url' ||
                typeof source.text !== 'string' ||
                !/^https?:\/\//.test(String(source.url)),
            )
          );
        }
        default:
          return true;
      }
    });
  };
  /** Refuses a stream call's chunks (as configured, or malformed); records them on the message. */
  const chunkRefusal = (body: Record<string, unknown>): string | undefined => {
    if (body.chunks === undefined) return undefined;
    if (refusedChunksError) return refusedChunksError;
    return chunksInvalid(body.chunks) ? 'invalid_chunks' : undefined;
  };
  const deleted: FakeSlackMessage[] = [];
  let envelopeCounter = 0;
  let baseUrl = '';

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: String(error) });
    });
  });
  const socketServer = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (!request.url?.startsWith('/socket')) {
      socket.destroy();
      return;
    }
    const ticket = new URL(request.url, 'http://localhost').searchParams.get('ticket') ?? '';
    const replica = tickets.get(ticket);
    tickets.delete(ticket);
    socketServer.handleUpgrade(request, socket, head, (ws) => {
      if (sockets.size >= maxSocketConnections) {
        // Like Slack: an app's eleventh connection is told why and closed.
        ws.send(JSON.stringify({ type: 'disconnect', reason: 'too_many_websockets' }));
        ws.close();
        return;
      }
      sockets.add(ws);
      const connection = {
        id: `connection-${connectionList.length + 1}`,
        replica,
        open: true,
        socket: ws,
        unacknowledged: new Map<string, (error: Error) => void>(),
      };
      connectionList.push(connection);
      ws.on('close', () => {
        sockets.delete(ws);
        connection.open = false;
        // What it never acknowledged fails at once (Slack would send it again on another connection).
        for (const fail of connection.unacknowledged.values()) {
          fail(new Error(`fake Slack: ${connection.id} closed before acknowledging an envelope`));
        }
        notify();
      });
      ws.on('message', (data) => {
        const parsed = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
        const resolve = parsed.envelope_id ? pendingAcks.get(parsed.envelope_id) : undefined;
        if (parsed.envelope_id && resolve) {
          pendingAcks.delete(parsed.envelope_id);
          resolve(parsed.payload ?? {});
        }
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: sockets.size }));
      notify();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // A replica's API URL: /replica/<name>/api/<method>.
    const labelled = /^\/replica\/([^/]+)(\/api\/.*)$/.exec(url.pathname);
    const replica = labelled ? decodeURIComponent(labelled[1] ?? '') : undefined;
    if (labelled) url.pathname = labelled[2] ?? '';
    const labels = replica === undefined ? {} : { replica };
    const raw = await readBody(request);
    const token = bearer(request);

    if (url.pathname.startsWith('/files/') && request.method === 'GET') {
      return serveFile(url.pathname, token, response);
    }
    if (url.pathname === '/redirect' && request.method === 'GET') {
      calls.push({ method: 'redirect', body: { to: url.searchParams.get('to') }, token, at: Date.now() });
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      response.end();
      return;
    }
    if (url.pathname.startsWith('/respond/') && request.method === 'POST') {
      const id = decodeURIComponent(url.pathname.slice('/respond/'.length));
      const posts = responsePosts.get(id) ?? [];
      posts.push(JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
      responsePosts.set(id, posts);
      sendJson(response, 200, { ok: true });
      notify();
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      sendJson(response, 404, { ok: false, error: 'unknown_path' });
      return;
    }
    const method = url.pathname.slice('/api/'.length);
    const body = parseBody(raw.toString('utf8'), request.headers['content-type'] ?? '');
    const remaining = rateLimits.get(method) ?? 0;
    if (remaining > 0) {
      rateLimits.set(method, remaining - 1);
      calls.push({ method: `${method}#rate-limited`, body, token, at: Date.now(), ...labels });
      response.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    calls.push({ method, body, token, at: Date.now(), ...labels });
    const failure = failures.get(method);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error: failure.error }));
      return;
    }
    const expected = method === 'apps.connections.open' ? appToken : botToken;
    if (token !== expected) {
      sendJson(response, 200, { ok: false, error: token ? 'invalid_auth' : 'not_authed' });
      notify();
      return;
    }
    // Slack tells the token's scopes with every answer to a call made with it.
    response.setHeader('x-oauth-scopes', grantedScopes.join(','));
    sendJson(response, 200, answer(method, body, replica));
    notify();
  }

  function answer(
    method: string,
    body: Record<string, unknown>,
    replica: string | undefined,
  ): Record<string, unknown> {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.com/',
          team: 'Fake Team',
          user: 'ragent',
          team_id: teamId,
          user_id: botUserId,
          bot_id: botId,
          is_enterprise_install: false,
        };
      case 'apps.connections.open': {
        const ticket = `ticket-${++ticketCounter}`;
        tickets.set(ticket, replica);
        return { ok: true, url: `${baseUrl.replace(/^http/, 'ws')}/socket?ticket=${ticket}&app_id=A0001` };
      }
      case 'chat.postMessage': {
        const channel = String(body.channel ?? '');
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (!body.text && !body.blocks) return { ok: false, error: 'no_text' };
        const refused = refusal(body);
        if (refused) return { ok: false, error: refused };
        const message: FakeSlackMessage = {
          channel,
          ts: nextTs(),
          threadTs: typeof body.thread_ts === 'string' ? body.thread_ts : undefined,
          text: String(body.text ?? ''),
          blocks: Array.isArray(body.blocks) ? body.blocks : [],
          updates: 0,
          postedAt: Date.now(),
          changedAt: Date.now(),
          ...(replica === undefined ? {} : { postedBy: replica, changedBy: replica }),
        };
        const list = messagesByChannel.get(channel) ?? [];
        list.push(message);
        messagesByChannel.set(channel, list);
        return { ok: true, channel, ts: message.ts, message: { text: message.text, ts: message.ts } };
      }
      case 'chat.update': {
        const channel = String(body.channel ?? '');
        const message = messagesByChannel.get(channel)?.find((candidate) => candidate.ts === body.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        const refused = refusal(body);
        if (refused) return { ok: false, error: refused };
        message.text = String(body.text ?? message.text);
        if (Array.isArray(body.blocks)) message.blocks = body.blocks;
        message.updates += 1;
        message.changedAt = Date.now();
        if (replica !== undefined) message.changedBy = replica;
        return { ok: true, channel, ts: message.ts, text: message.text };
      }
      // Slack's text streaming: start in a thread (outside a DM for a recipient), append, stop.
      case 'chat.startStream': {
        if (!streamingSupported) return { ok: false, error: 'not_allowed' };
        const channel = String(body.channel ?? '');
        if (!channel || typeof body.thread_ts !== 'string') return { ok: false, error: 'invalid_arguments' };
        if (!channel.startsWith('D') && (!body.recipient_user_id || !body.recipient_team_id))
          return { ok: false, error: 'invalid_arguments' };
        if (typeof body.markdown_text !== 'string' && body.chunks === undefined)
          return { ok: false, error: 'invalid_arguments' };
        if (
          body.task_display_mode !== undefined &&
          !['timeline', 'plan'].includes(String(body.task_display_mode))
        )
          return { ok: false, error: 'invalid_arguments' };
        const refusedChunks = chunkRefusal(body);
        if (refusedChunks) return { ok: false, error: refusedChunks };
        const message: FakeSlackMessage = {
          channel,
          ts: nextTs(),
          threadTs: body.thread_ts,
          text: String(body.markdown_text ?? ''),
          blocks: [],
          updates: 0,
          postedAt: Date.now(),
          changedAt: Date.now(),
          streaming: true,
          streamed: true,
          chunks: Array.isArray(body.chunks) ? [...body.chunks] : [],
          taskDisplayMode: typeof body.task_display_mode === 'string' ? body.task_display_mode : 'timeline',
          ...(replica === undefined ? {} : { postedBy: replica, changedBy: replica }),
        };
        const list = messagesByChannel.get(channel) ?? [];
        list.push(message);
        messagesByChannel.set(channel, list);
        return { ok: true, channel, ts: message.ts };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const channel = String(body.channel ?? '');
        const message = messagesByChannel.get(channel)?.find((candidate) => candidate.ts === body.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        if (!message.streaming) return { ok: false, error: 'message_not_in_streaming_state' };
        if (
          method === 'chat.appendStream' &&
          typeof body.markdown_text !== 'string' &&
          body.chunks === undefined
        )
          return { ok: false, error: 'invalid_arguments' };
        const refusedChunks = chunkRefusal(body);
        if (refusedChunks) return { ok: false, error: refusedChunks };
        if (Array.isArray(body.chunks)) message.chunks = [...(message.chunks ?? []), ...body.chunks];
        if (method === 'chat.stopStream') {
          const refused = refusal(body);
          if (refused) return { ok: false, error: refused };
        }
        message.text += String(body.markdown_text ?? '');
        message.changedAt = Date.now();
        if (replica !== undefined) message.changedBy = replica;
        if (method === 'chat.stopStream') {
          message.streaming = false;
          if (Array.isArray(body.blocks)) message.blocks = body.blocks;
        }
        return { ok: true, channel, ts: message.ts };
      }
      case 'chat.delete': {
        const channel = String(body.channel ?? '');
        const list = messagesByChannel.get(channel) ?? [];
        const index = list.findIndex((candidate) => candidate.ts === body.ts);
        if (index < 0) return { ok: false, error: 'message_not_found' };
        deleted.push(...list.splice(index, 1));
        return { ok: true, channel, ts: body.ts };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'views.open':
        return { ok: true, view: { id: `V${++envelopeCounter}` } };
      case 'views.publish':
        // Slack checks what the tests would otherwise trust: a user, a home view, at most 100 blocks.
        if (typeof body.user_id !== 'string' || !body.user_id)
          return { ok: false, error: 'invalid_arguments' };
        if ((body.view as { type?: string; blocks?: unknown[] } | undefined)?.type !== 'home')
          return { ok: false, error: 'invalid_arguments' };
        if (((body.view as { blocks?: unknown[] }).blocks ?? []).length > 100)
          return { ok: false, error: 'invalid_blocks' };
        return { ok: true, view: { id: `V${++envelopeCounter}`, type: 'home' } };
      case 'assistant.threads.setStatus': {
        if (!assistantStatusSupported) return { ok: false, error: 'not_allowed_token_type' };
        const loading = body.loading_messages;
        // Slack takes up to 10 loading messages, each a string.
        if (
          loading !== undefined &&
          (!Array.isArray(loading) || loading.length > 10 || loading.some((line) => typeof line !== 'string'))
        )
          return { ok: false, error: 'invalid_arguments' };
        return { ok: true };
      }
      case 'assistant.threads.setSuggestedPrompts': {
        // Up to four prompts, each with a title and a message; `thread_ts` only in assistant threads.
        const prompts = body.prompts;
        if (typeof body.channel_id !== 'string' || !body.channel_id)
          return { ok: false, error: 'invalid_arguments' };
        if (!Array.isArray(prompts) || prompts.length === 0 || prompts.length > 4)
          return { ok: false, error: 'invalid_arguments' };
        const valid = (prompts as Array<Record<string, unknown>>).every(
          (prompt) =>
            typeof prompt.title === 'string' &&
            prompt.title.length > 0 &&
            typeof prompt.message === 'string' &&
            prompt.message.length > 0,
        );
        return valid ? { ok: true } : { ok: false, error: 'invalid_arguments' };
      }
      case 'usergroups.list':
        return userGroupsReadable
          ? {
              ok: true,
              usergroups: userGroups.map((group) => ({ ...group, team_id: teamId, date_delete: 0 })),
            }
          : { ok: false, error: 'missing_scope', needed: 'usergroups:read', provided: 'chat:write' };
      case 'users.info': {
        const user = users.get(String(body.user ?? ''));
        if (!user) return { ok: false, error: 'user_not_found' };
        return {
          ok: true,
          user: {
            id: user.id,
            team_id: teamId,
            name: user.name,
            profile: { display_name: user.displayName ?? '', real_name: user.name },
            is_admin: user.isAdmin ?? false,
            is_owner: user.isOwner ?? false,
            is_primary_owner: false,
            is_bot: false,
          },
        };
      }
      case 'files.info': {
        const file = files.get(String(body.file ?? ''));
        return file ? { ok: true, file: describeFile(file) } : { ok: false, error: 'file_not_found' };
      }
      case 'conversations.replies': {
        // Oldest first (the root first), only before `latest` (unless `inclusive`), paged by `cursor`.
        const channel = String(body.channel ?? '');
        if (!messagesByChannel.get(channel)?.some((message) => message.ts === String(body.ts ?? '')))
          return { ok: false, error: 'thread_not_found' };
        const latest = body.latest === undefined ? undefined : Number(body.latest);
        const inclusive = body.inclusive === true || body.inclusive === 'true' || body.inclusive === '1';
        const thread = messagesOf(channel, String(body.ts ?? ''))
          .filter(
            (message) =>
              latest === undefined ||
              Number(message.ts) < latest ||
              (inclusive && Number(message.ts) === latest),
          )
          .sort((a, b) => Number(a.ts) - Number(b.ts));
        const limit = Math.min(1_000, Math.max(1, Number(body.limit ?? 1_000)));
        const start = body.cursor ? Number(String(body.cursor).replace('next-', '')) : 0;
        const page = thread.slice(start, start + limit);
        const more = start + limit < thread.length;
        return {
          ok: true,
          messages: page.map((message) => ({
            type: 'message',
            ts: message.ts,
            text: message.text,
            ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
            ...(message.user ? { user: message.user } : { user: botUserId, bot_id: botId }),
            ...(message.botId ? { bot_id: message.botId, username: 'Build bot' } : {}),
          })),
          has_more: more,
          response_metadata: { next_cursor: more ? `next-${start + limit}` : '' },
        };
      }
      default:
        return { ok: true };
    }
  }

  function serveFile(pathname: string, token: string | undefined, response: ServerResponse): void {
    const id = pathname.split('/')[2] ?? '';
    const file = files.get(id);
    if (token !== botToken) {
      // Like files.slack.com: without a valid token you get the HTML sign-in page, not the file.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
      return;
    }
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    calls.push({ method: 'files.download', body: { id }, token, at: Date.now() });
    response.writeHead(200, {
      'content-type': file.servedContentType ?? file.mimetype,
      'content-length': file.bytes.byteLength,
    });
    response.end(Buffer.from(file.bytes));
    notify();
  }

  function filePermalink(file: FakeSlackFile): string {
    return `https://ragent-test.slack.com/files/${file.id}/${encodeURIComponent(file.name)}`;
  }

  function describeFile(file: FakeSlackFile): Record<string, unknown> {
    const download = file.downloadUrl ?? `${baseUrl}/files/${file.id}/${encodeURIComponent(file.name)}`;
    return {
      id: file.id,
      name: file.name,
      title: file.name,
      mimetype: file.mimetype,
      filetype: file.name.split('.').pop() ?? '',
      size: file.bytes.byteLength,
      url_private: download,
      url_private_download: download,
      permalink: filePermalink(file),
    };
  }

  function messagesOf(channel: string, threadTs?: string): FakeSlackMessage[] {
    const list = messagesByChannel.get(channel) ?? [];
    if (threadTs === undefined) return [...list];
    return list.filter((message) => message.ts === threadTs || message.threadTs === threadTs);
  }

  const port = await listenLocally(server);
  baseUrl = `http://127.0.0.1:${port}`;

  /** The connection of an envelope: the one asked for, else one open connection at random. */
  function pickConnection(envelope: SocketEnvelopeOptions) {
    const open = connectionList.filter((connection) => connection.open);
    if (envelope.connection) {
      const chosen = open.find((connection) => connection.id === envelope.connection);
      if (!chosen) throw new Error(`fake Slack: Socket Mode connection ${envelope.connection} is not open`);
      return chosen;
    }
    const others = open.filter((connection) => connection.id !== envelope.avoid);
    const candidates = others.length > 0 ? others : open;
    const chosen = candidates[Math.floor(random() * candidates.length)];
    if (!chosen) throw new Error('fake Slack: no Socket Mode connection');
    return chosen;
  }

  function deliverEnvelope(payload: unknown, envelope: SocketEnvelopeOptions): Promise<EnvelopeDelivery> {
    const id = `envelope-${++envelopeCounter}`;
    const message: Record<string, unknown> = {
      envelope_id: id,
      type: envelope.type,
      payload,
      accepts_response_payload: envelope.type !== 'events_api',
    };
    if (envelope.type === 'events_api') {
      message.retry_attempt = envelope.retryAttempt ?? 0;
      message.retry_reason = envelope.retryAttempt ? 'timeout' : '';
    }
    return new Promise((resolve, reject) => {
      let connection: ReturnType<typeof pickConnection>;
      try {
        connection = pickConnection(envelope);
      } catch (error) {
        reject(error);
        return;
      }
      const fail = (error: Error) => {
        clearTimeout(timer);
        connection.unacknowledged.delete(id);
        if (pendingAcks.delete(id)) reject(error);
      };
      const timer = setTimeout(
        () => fail(new Error(`fake Slack: envelope ${id} was not acknowledged`)),
        ackTimeoutMs,
      );
      timer.unref();
      connection.unacknowledged.set(id, fail);
      pendingAcks.set(id, (ack) => {
        clearTimeout(timer);
        connection.unacknowledged.delete(id);
        resolve({ envelopeId: id, connection: connection.id, replica: connection.replica, ack });
      });
      connection.socket.send(JSON.stringify(message));
    });
  }

  const waitFor = <T>(predicate: () => T | undefined | false, timeoutMs = 10_000, what = 'condition') =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        let value: T | undefined | false;
        try {
          value = predicate();
        } catch (error) {
          cleanup();
          reject(error);
          return;
        }
        if (value !== undefined && value !== false) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake Slack: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    url: baseUrl,
    apiUrl: `${baseUrl}/api/`,
    apiUrlFor: (replica) => `${baseUrl}/replica/${encodeURIComponent(replica)}/api/`,
    botToken,
    appToken,
    botUserId,
    botId,
    teamId,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    messages: messagesOf,
    responses: (id) => responsePosts.get(id) ?? [],
    responseUrl: (id) => `${baseUrl}/respond/${encodeURIComponent(id)}`,
    addFile: (file) => {
      files.set(file.id, file);
      return describeFile(file);
    },
    addUser: (user) => {
      users.set(user.id, user);
    },
    addMessage: (added) => {
      const message: FakeSlackMessage = {
        channel: added.channel,
        ts: added.ts ?? nextTs(),
        threadTs: added.threadTs,
        text: added.text,
        blocks: [],
        updates: 0,
        postedAt: Date.now(),
        changedAt: Date.now(),
        user: added.user,
        ...(added.botId ? { botId: added.botId } : {}),
      };
      const list = messagesByChannel.get(added.channel) ?? [];
      list.push(message);
      messagesByChannel.set(added.channel, list);
      return message.ts;
    },
    addUserGroup: (group) => {
      userGroups.push(group);
    },
    setUserGroupsReadable: (readable) => {
      userGroupsReadable = readable;
    },
    setAssistantStatusSupported: (supported) => {
      assistantStatusSupported = supported;
    },
    setStreamingSupported: (supported) => {
      streamingSupported = supported;
    },
    deletedMessages: () => [...deleted],
    refuseChunks: (error) => {
      refusedChunksError = error;
    },
    setGrantedScopes: (scopes) => {
      grantedScopes = [...scopes];
    },
    setMarkdownBlocksSupported: (supported) => {
      markdownBlocksSupported = supported;
    },
    setFeedbackButtonsSupported: (supported) => {
      feedbackButtonsSupported = supported;
    },
    refuseBlocks: (error) => {
      refusedBlocksError = error;
    },
    rateLimitNext: (method, count = 1) => {
      rateLimits.set(method, (rateLimits.get(method) ?? 0) + count);
    },
    failNext: (method, error, count = 1) => {
      failures.set(method, { error, count });
    },
    waitFor,
    socketCount: () => sockets.size,
    waitForSocket: async (timeoutMs = 10_000) => {
      await waitFor(() => sockets.size > 0, timeoutMs, 'a Socket Mode connection');
    },
    connections: () => connectionList.map(({ id, replica, open }) => ({ id, replica, open })),
    waitForConnection: async (replica, timeoutMs = 10_000) => {
      const found = await waitFor(
        () => connectionList.findLast((connection) => connection.replica === replica && connection.open),
        timeoutMs,
        `a Socket Mode connection of ${replica}`,
      );
      return { id: found.id, replica: found.replica, open: found.open };
    },
    sendEnvelope: async (payload, envelope) => (await deliverEnvelope(payload, envelope)).ack,
    deliverEnvelope,
    close: async () => {
      for (const socket of sockets) socket.terminate();
      socketServer.close();
      await closeServer(server);
    },
  };
}

function bearer(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length);
}

/** Form bodies carry nested values (blocks, view) as JSON strings; decode those too. */
function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (contentType.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (/^[[{]/.test(value)) {
      try {
        result[key] = JSON.parse(value);
        continue;
      } catch {
        // not JSON after all
      }
    }
    result[key] = value;
  }
  return result;
}
