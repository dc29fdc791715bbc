/**
 * Delivers Slack requests to an app the way Slack does over HTTP: Events API callbacks, slash
 * commands and interactivity payloads, signed with the signing secret (`x-slack-signature`,
 * `x-slack-request-timestamp`), optionally as a retry (`x-slack-retry-num`, `x-slack-retry-reason`).
 * Also builds the payloads themselves, with the fields Slack really sends.
 */
import { createHmac } from 'node:crypto';

/** Why Slack retries a delivery (`x-slack-retry-reason`), as its Events API documentation lists them. */
export type SlackRetryReason =
  | 'http_timeout'
  | 'too_many_redirects'
  | 'connection_failed'
  | 'ssl_error'
  | 'http_error'
  | 'unknown_error';

export interface DeliveryOptions {
  retryNum?: number;
  /** With `retryNum`: the reason sent along (default `http_timeout`). */
  retryReason?: SlackRetryReason;
  /** Sign with this secret instead of the right one (to check rejection). */
  signingSecret?: string;
  /** Override the timestamp (seconds). */
  timestamp?: number;
}

export interface Delivery {
  status: number;
  body: string;
}

export interface SlackEventSender {
  /** Posts an Events API envelope (`event_callback`). */
  event(envelope: Record<string, unknown>, options?: DeliveryOptions): Promise<Delivery>;
  /** Posts a slash command (form-encoded fields). */
  command(fields: Record<string, string>, options?: DeliveryOptions): Promise<Delivery>;
  /** Posts an interactivity payload (`payload=<json>`). */
  interaction(payload: Record<string, unknown>, options?: DeliveryOptions): Promise<Delivery>;
}

export function createSlackEventSender(endpoint: string, signingSecret: string): SlackEventSender {
  const send = async (
    body: string,
    contentType: string,
    options: DeliveryOptions = {},
  ): Promise<Delivery> => {
    const headers = signedHeaders(signingSecret, body, contentType, options);
    const response = await fetch(endpoint, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  };
  return {
    event: (envelope, options) => send(JSON.stringify(envelope), 'application/json', options),
    command: (fields, options) =>
      send(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', options),
    interaction: (payload, options) =>
      send(
        new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
        'application/x-www-form-urlencoded',
        options,
      ),
  };
}

/** The headers of a request from Slack: content type, timestamp, signature, and a retry's number and reason. */
export function signedHeaders(
  signingSecret: string,
  body: string,
  contentType: string,
  options: DeliveryOptions = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': sign(options.signingSecret ?? signingSecret, timestamp, body),
  };
  if (options.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = options.retryReason ?? 'http_timeout';
  }
  return headers;
}

export function sign(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

let eventCounter = 0;
let tsCounter = 0;

/** A fresh message timestamp, as Slack formats them. */
export function messageTs(): string {
  tsCounter += 1;
  return `${1_700_000_000 + tsCounter}.${String(tsCounter).padStart(6, '0')}`;
}

export interface MessageEventFields {
  team: string;
  channel: string;
  user: string;
  text: string;
  ts?: string;
  threadTs?: string;
  channelType?: 'channel' | 'group' | 'im' | 'mpim';
  botId?: string;
  subtype?: string;
  files?: Array<Record<string, unknown>>;
  eventId?: string;
}

/** An `event_callback` envelope around an `app_mention` or `message` event. */
export function eventEnvelope(
  type: 'app_mention' | 'message',
  fields: MessageEventFields,
  botUserId: string,
): Record<string, unknown> & { event: Record<string, unknown>; event_id: string } {
  const ts = fields.ts ?? messageTs();
  const event: Record<string, unknown> = {
    type,
    user: fields.user,
    text: fields.text,
    ts,
    channel: fields.channel,
    team: fields.team,
    event_ts: ts,
  };
  if (type === 'message') event.channel_type = fields.channelType ?? 'channel';
  if (fields.threadTs) event.thread_ts = fields.threadTs;
  if (fields.botId) event.bot_id = fields.botId;
  if (fields.subtype) event.subtype = fields.subtype;
  if (fields.files) event.files = fields.files;
  eventCounter += 1;
  return {
    token: 'verification-token',
    team_id: fields.team,
    api_app_id: 'A0001',
    event,
    type: 'event_callback',
    event_id: fields.eventId ?? `Ev${String(eventCounter).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { team_id: fields.team, user_id: botUserId, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `context-${eventCounter}`,
  };
}

export function slashCommand(fields: {
  team: string;
  channel: string;
  user: string;
  text: string;
  responseUrl: string;
}): Record<string, string> {
  eventCounter += 1;
  return {
    token: 'verification-token',
    team_id: fields.team,
    team_domain: 'fake',
    channel_id: fields.channel,
    channel_name: 'general',
    user_id: fields.user,
    user_name: 'someone',
    command: '/ragent',
    text: fields.text,
    api_app_id: 'A0001',
    is_enterprise_install: 'false',
    response_url: fields.responseUrl,
    trigger_id: `trigger-${eventCounter}`,
  };
}

export function viewSubmission(fields: {
  team: string;
  user: string;
  callbackId: string;
  privateMetadata: string;
  values: Record<string, Record<string, unknown>>;
}): Record<string, unknown> {
  eventCounter += 1;
  return {
    type: 'view_submission',
    team: { id: fields.team, domain: 'fake' },
    user: { id: fields.user, username: 'someone', name: 'someone', team_id: fields.team },
    api_app_id: 'A0001',
    token: 'verification-token',
    trigger_id: `trigger-${eventCounter}`,
    view: {
      id: `V${eventCounter}`,
      team_id: fields.team,
      type: 'modal',
      callback_id: fields.callbackId,
      private_metadata: fields.privateMetadata,
      state: { values: fields.values },
      hash: 'hash',
      blocks: [],
    },
    response_urls: [],
    is_enterprise_install: false,
  };
}

export function blockAction(fields: {
  team: string;
  user: string;
  channel: string;
  messageTs: string;
  threadTs?: string;
  actionId: string;
  value: string;
  /** The element clicked (default: a `button`; Slack's feedback element sends `feedback_buttons`). */
  type?: 'button' | 'feedback_buttons';
  blockId?: string;
  /** Where the app's `respond` goes (a fake's `responseUrl`); default: an unused hooks.slack.com URL. */
  responseUrl?: string;
  /** The button was on an ephemeral message (a private answer). */
  isEphemeral?: boolean;
  /** The blocks of the message the button is on (Slack sends them with the action). */
  messageBlocks?: unknown[];
  /** The clicker's Slack name (default `someone`). */
  userName?: string;
}): Record<string, unknown> {
  eventCounter += 1;
  const name = fields.userName ?? 'someone';
  return {
    type: 'block_actions',
    team: { id: fields.team, domain: 'fake' },
    user: { id: fields.user, username: name, name, team_id: fields.team },
    api_app_id: 'A0001',
    token: 'verification-token',
    container: {
      type: 'message',
      message_ts: fields.messageTs,
      channel_id: fields.channel,
      is_ephemeral: fields.isEphemeral ?? false,
      thread_ts: fields.threadTs,
    },
    trigger_id: `trigger-${eventCounter}`,
    channel: { id: fields.channel, name: 'general' },
    message: {
      ts: fields.messageTs,
      thread_ts: fields.threadTs,
      type: 'message',
      text: '',
      ...(fields.messageBlocks ? { blocks: fields.messageBlocks } : {}),
    },
    response_url: fields.responseUrl ?? 'https://hooks.slack.com/actions/unused',
    actions: [
      {
        action_id: fields.actionId,
        block_id: fields.blockId ?? 'feedback',
        value: fields.value,
        type: fields.type ?? 'button',
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
}

/** An `event_callback` envelope around `app_home_opened`: a user opened the app's Home (or Messages) tab. */
export function appHomeOpenedEnvelope(fields: {
  team: string;
  user: string;
  botUserId: string;
  tab?: 'home' | 'messages';
}): Record<string, unknown> {
  eventCounter += 1;
  return {
    token: 'verification-token',
    team_id: fields.team,
    api_app_id: 'A0001',
    event: {
      type: 'app_home_opened',
      user: fields.user,
      channel: `D${String(eventCounter).padStart(8, '0')}`,
      tab: fields.tab ?? 'home',
      event_ts: messageTs(),
    },
    type: 'event_callback',
    event_id: `Ev${String(eventCounter).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { team_id: fields.team, user_id: fields.botUserId, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `context-${eventCounter}`,
  };
}

/**
 * An `event_callback` envelope around `assistant_thread_started` (a person opened the assistant split
 * view: a new thread in their DM with the app) or `assistant_thread_context_changed` (they moved to
 * another channel while it is open), with the fields Slack sends.
 */
export function assistantThreadEnvelope(fields: {
  type?: 'assistant_thread_started' | 'assistant_thread_context_changed';
  team: string;
  user: string;
  botUserId: string;
  /** The DM with the app where the thread is (default: a fresh D… id). */
  channel?: string;
  threadTs?: string;
  /** The channel the person was viewing. */
  contextChannel?: string;
}): Record<string, unknown> & {
  event: { type: string; assistant_thread: { channel_id: string; thread_ts: string }; event_ts: string };
} {
  eventCounter += 1;
  const assistantThread = {
    user_id: fields.user,
    context: {
      ...(fields.contextChannel ? { channel_id: fields.contextChannel } : {}),
      team_id: fields.team,
      enterprise_id: null,
    },
    channel_id: fields.channel ?? `D${String(eventCounter).padStart(8, '0')}`,
    thread_ts: fields.threadTs ?? messageTs(),
  };
  return {
    token: 'verification-token',
    team_id: fields.team,
    api_app_id: 'A0001',
    event: {
      type: fields.type ?? 'assistant_thread_started',
      assistant_thread: assistantThread,
      event_ts: messageTs(),
    },
    type: 'event_callback',
    event_id: `Ev${String(eventCounter).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { team_id: fields.team, user_id: fields.botUserId, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `context-${eventCounter}`,
  };
}

/**
 * A message shortcut payload (`message_action`): a person chose one of the app's shortcuts (e.g.
 * "Ask ragent") from a message's menu. Delivered over HTTP as `payload=` (interactivity) or over
 * Socket Mode as an `interactive` envelope.
 */
export function messageShortcut(fields: {
  team: string;
  /** Who pressed it. */
  user: string;
  channel: string;
  callbackId: string;
  message: { ts: string; threadTs?: string; text: string; user: string };
}): Record<string, unknown> {
  eventCounter += 1;
  return {
    type: 'message_action',
    token: 'verification-token',
    action_ts: String(Date.now() / 1000),
    team: { id: fields.team, domain: 'fake' },
    user: { id: fields.user, username: 'someone', name: 'someone', team_id: fields.team },
    channel: { id: fields.channel, name: 'general' },
    is_enterprise_install: false,
    callback_id: fields.callbackId,
    trigger_id: `trigger-${eventCounter}`,
    response_url: 'https://hooks.slack.com/app/unused',
    message_ts: fields.message.ts,
    message: {
      type: 'message',
      ts: fields.message.ts,
      ...(fields.message.threadTs ? { thread_ts: fields.message.threadTs } : {}),
      text: fields.message.text,
      user: fields.message.user,
    },
  };
}
