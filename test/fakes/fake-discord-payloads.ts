/**
 * Builders for the JSON objects the fake Discord API hands to discord.js: users, guilds, channels,
 * messages and interactions, shaped like Discord's v10 payloads.
 */

const discordEpoch = 1_420_070_400_000n;
let increment = 0n;

/** A fresh snowflake with the current timestamp, as Discord makes them. */
export function snowflake(): string {
  increment = (increment + 1n) % 4096n;
  return (((BigInt(Date.now()) - discordEpoch) << 22n) | increment).toString();
}

/** A snowflake whose guild would be on `shard` of `count` (its timestamp moved back a few ms). */
export function snowflakeOnShard(shard: number, count: number): string {
  increment = (increment + 1n) % 4096n;
  const now = BigInt(Date.now()) - discordEpoch;
  const timestamp = now - ((((now - BigInt(shard)) % BigInt(count)) + BigInt(count)) % BigInt(count));
  return ((timestamp << 22n) | increment).toString();
}

export interface FakeUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: null;
  bot?: boolean;
}

export function makeUser(id: string, username: string, bot = false): FakeUser {
  return {
    id,
    username,
    global_name: username,
    discriminator: '0',
    avatar: null,
    ...(bot ? { bot: true } : {}),
  };
}

export interface FakeChannel {
  id: string;
  type: number;
  name?: string;
  guild_id?: string;
  parent_id?: string;
  owner_id?: string;
  position?: number;
  permission_overwrites?: unknown[];
  thread_metadata?: Record<string, unknown>;
  message_count?: number;
  member_count?: number;
  recipients?: FakeUser[];
  /** A forum's tags, and the ones a post (a thread in a forum) carries. */
  available_tags?: Array<{ id: string; name: string; moderated: boolean; emoji_id: null; emoji_name: null }>;
  applied_tags?: string[];
}

export const channelTypes = { guildText: 0, dm: 1, publicThread: 11, guildForum: 15 } as const;

/** All permissions Discord knows, as a decimal string (the fake's @everyone role gets them). */
export const allPermissions = ((1n << 51n) - 1n).toString();

export interface FakeGuild {
  id: string;
  name: string;
  channels: FakeChannel[];
  threads: FakeChannel[];
}

export function guildCreatePayload(guild: FakeGuild, bot: FakeUser): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: snowflake(),
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    features: [],
    mfa_level: 0,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    large: false,
    unavailable: false,
    member_count: 2,
    joined_at: new Date().toISOString(),
    roles: [
      {
        id: guild.id,
        name: '@everyone',
        color: 0,
        hoist: false,
        position: 0,
        permissions: allPermissions,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    members: [
      { user: bot, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 },
    ],
    channels: guild.channels,
    threads: guild.threads,
  };
}

export interface FakeAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
}

export interface FakeMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: FakeUser;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: FakeUser[];
  mention_roles: string[];
  attachments: FakeAttachment[];
  embeds: unknown[];
  components: unknown[];
  pinned: boolean;
  type: number;
  flags: number;
  allowed_mentions?: unknown;
  message_reference?: { message_id: string; channel_id: string; guild_id?: string };
  referenced_message?: FakeMessage | null;
  webhook_id?: string;
  application_id?: string;
  interaction_id?: string;
}

export function makeMessage(
  fields: Partial<FakeMessage> & Pick<FakeMessage, 'channel_id' | 'author'>,
): FakeMessage {
  return {
    id: snowflake(),
    content: '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
    type: 0,
    flags: 0,
    ...fields,
  };
}

export function memberPayload(user: FakeUser, permissions: string): Record<string, unknown> {
  return {
    user,
    roles: [],
    joined_at: new Date().toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    permissions,
  };
}
