/**
 * The discord.js clients as ragent uses them: only the intents it needs (Message Content only when
 * the setting asks for it), DM channels as partials, no mentions parsed by default, and the REST/gateway
 * base URL from the config (a local fake Discord in tests).
 *
 * A replica connects one client per Discord shard it holds; all of them, and the REST-only client
 * that reaches recorded threads, send through ONE `ReplicaRest`, so Discord's global request limit is
 * counted once per replica (and set to the replica's share of it).
 */
import {
  Client,
  type ClientOptions,
  GatewayIntentBits,
  type IIdentifyThrottler,
  type InteractionReplyOptions,
  MessageFlags,
  Partials,
  REST,
  type RESTOptions,
  SimpleIdentifyThrottler,
} from 'discord.js';
import type { Config } from '../../config.ts';

/** Sent with every message and edit: the bot never pings anyone, whatever the text says. */
export const noMentions = { parse: [], repliedUser: false } as const;

/** Answers an interaction with a line only the person who used it sees (never a ping). */
export async function replyPrivately(
  interaction: { reply(options: InteractionReplyOptions): Promise<unknown> },
  content: string,
): Promise<void> {
  await interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: noMentions });
}

/** Discord's global limit for a bot: 50 requests a second. */
export const discordRequestsPerSecond = 50;

export function discordIntents(config: Config): GatewayIntentBits[] {
  const intents = [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.DirectMessages,
  ];
  if (config.discord.messageContentIntent) intents.push(GatewayIntentBits.MessageContent);
  return intents;
}

/**
 * The replica's one REST manager, shared by its clients: destroying a shard's client (which clears
 * its REST token and sweepers) leaves it working; only `close` ends it.
 */
export class ReplicaRest extends REST {
  #closed = false;

  /** Sets this replica's part of the global limit (read by the limiter at each new second). */
  setRequestsPerSecond(perSecond: number): void {
    (this.options as { globalRequestsPerSecond: number }).globalRequestsPerSecond = Math.max(
      1,
      Math.floor(perSecond),
    );
  }

  override setToken(token: string): this {
    if (token || this.#closed) super.setToken(token);
    return this;
  }

  override clearHashSweeper(): void {
    if (this.#closed) super.clearHashSweeper();
  }

  override clearHandlerSweeper(): void {
    if (this.#closed) super.clearHandlerSweeper();
  }

  close(): void {
    this.#closed = true;
    this.clearHashSweeper();
    this.clearHandlerSweeper();
    super.setToken(null as unknown as string);
  }
}

export function createReplicaRest(config: Config, requestsPerSecond: number): ReplicaRest {
  const options: Partial<RESTOptions> = {
    ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
    globalRequestsPerSecond: requestsPerSecond,
  };
  const rest = new ReplicaRest(options);
  if (config.discord.token) rest.setToken(config.discord.token);
  return rest;
}

/**
 * One identify throttler for all of a replica's shard clients: Discord allows `max_concurrency`
 * identifies per 5 s (one, for most bots), whichever connection sends them.
 */
export function sharedIdentifyThrottler(): BuildIdentifyThrottler {
  let throttler: Promise<IIdentifyThrottler> | undefined;
  return (manager) => {
    if (throttler) return throttler;
    const built = manager
      .fetchGatewayInformation()
      .then((info) => new SimpleIdentifyThrottler(info.session_start_limit.max_concurrency));
    throttler = built;
    built.catch(() => {
      if (throttler === built) throttler = undefined;
    });
    return built;
  };
}

/** How a discord.js client gets its gateway's identify throttler. */
export type BuildIdentifyThrottler = NonNullable<NonNullable<ClientOptions['ws']>['buildIdentifyThrottler']>;

/** A client over `rest`; with `shard`, it logs in to that shard only (`shards: [id]`, `shardCount`). */
export function createDiscordClient(
  config: Config,
  rest: ReplicaRest,
  shard?: {
    id: number;
    count: number;
    identifyThrottler: BuildIdentifyThrottler;
  },
): Client {
  const client = new Client({
    intents: discordIntents(config),
    partials: [Partials.Channel],
    allowedMentions: { parse: [], repliedUser: false },
    ...(shard
      ? {
          shards: [shard.id],
          shardCount: shard.count,
          ws: { buildIdentifyThrottler: shard.identifyThrottler },
        }
      : {}),
    rest: config.discord.apiUrl ? { api: config.discord.apiUrl } : {},
  });
  client.rest = rest;
  return client;
}
