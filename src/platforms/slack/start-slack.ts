/**
 * Starts the Slack bot: Socket Mode when SLACK_APP_TOKEN is set, otherwise Bolt's HTTP receiver
 * (signed requests, SLACK_SIGNING_SECRET) on SLACK_PORT. SLACK_API_URL points the Web API client
 * elsewhere (tests, proxies). The bot token is checked with `auth.test` before anything listens.
 */

import { Server } from 'node:http';
import { App, HTTPReceiver, SocketModeReceiver, webApi } from '@slack/bolt';
import type { Services } from '../../core/services.ts';
import { logMissingGrants } from '../../doctor/missing-grants.ts';
import { RagentError } from '../../errors.ts';
import { PlaceRefusals } from '../../replies/place-refusals.ts';
import { connectFailure } from '../connect-failure.ts';
import { closeConnectionsOnStop } from '../http-connection-closing.ts';
import { runPlatform } from '../run-platform.ts';
import type { RunningPlatform } from '../running-platform.ts';
import { requireSettings } from '../setting-needs.ts';
import { registerAgentThreads } from './agent-threads.ts';
import { registerAnswerActions } from './answer-actions.ts';
import { registerAskShortcut } from './ask-shortcut.ts';
import { createBoltLogger } from './bolt-logger.ts';
import { postSlackHandOff } from './hand-off-line.ts';
import { withHeldAcknowledgements } from './held-acknowledgements.ts';
import { registerHomeTab } from './home-tab.ts';
import { registerIngestModal } from './ingest-modal.ts';
import { registerMessageEvents } from './message-events.ts';
import { registerShareAction } from './private-ask.ts';
import type { SlackContext } from './slack-context.ts';
import { slackSettingNeeds } from './slack-doctor.ts';
import { slackErrorMessages } from './slack-error-messages-en.ts';
import { slackScopeKind } from './slack-scopes.ts';
import { type SlackLimits, slackPlatform } from './slack-surfaces.ts';
import { registerSlashCommand } from './slash-command.ts';

export interface SlackAdapterOptions extends SlackLimits {
  /** How long `stop()` of this platform alone waits for its jobs (default 15 s; `ragent start` uses its own). */
  stopTimeoutMs?: number;
  /** Longest an event's acknowledgement waits for its turn record (default 2.5 s, inside Slack's 3 s). */
  acknowledgementHoldMs?: number;
  /** How the Web API client retries failed and rate-limited calls (default: five retries in five minutes). */
  retryConfig?: webApi.RetryOptions;
}

export interface SlackAdapter extends RunningPlatform {
  readonly mode: 'socket' | 'http';
  readonly botUserId: string;
  readonly teamId: string;
}

export async function startSlack(
  services: Services,
  options: SlackAdapterOptions = {},
): Promise<SlackAdapter> {
  const { config } = services;
  requireSettings(slackSettingNeeds(config));
  const { botToken = '', appToken, signingSecret, apiUrl, port } = config.slack;
  const mode = appToken ? 'socket' : 'http';
  const logger = services.logger.child({ adapter: 'slack' });
  const boltLogger = createBoltLogger(logger);
  const clientOptions = (): webApi.WebClientOptions => ({
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    retryConfig: options.retryConfig ?? webApi.retryPolicies.fiveRetriesInFiveMinutes,
    rejectRateLimitedCalls: false,
    allowAbsoluteUrls: false,
    timeout: 30_000,
  });

  const auth = await verifyBotToken(
    botToken,
    { ...clientOptions(), retryConfig: { retries: 1 }, logger: boltLogger },
    apiUrl,
  );
  const boltReceiver = appToken
    ? new SocketModeReceiver({
        appToken,
        logger: boltLogger,
        installerOptions: {
          clientOptions: { ...(apiUrl ? { slackApiUrl: apiUrl } : {}), allowAbsoluteUrls: false },
        },
      })
    : new HTTPReceiver({
        signingSecret: signingSecret ?? '',
        port,
        logger: boltLogger,
        processBeforeResponse: false,
      });
  // Events are acknowledged once their turn is recorded, so a replica dying in between loses nothing.
  const receiver = withHeldAcknowledgements(
    boltReceiver,
    (error) => logger.warn({ err: error }, 'could not acknowledge a Slack event'),
    options.acknowledgementHoldMs,
  );
  const app = new App({
    token: botToken,
    botId: auth.botId,
    botUserId: auth.botUserId,
    receiver,
    logger: boltLogger,
    clientOptions: clientOptions(),
    ignoreSelf: true,
    tokenVerificationEnabled: false,
  });

  const surfaces = {
    client: app.client,
    logger,
    refusals: new PlaceRefusals(),
  };
  const platform = slackPlatform(surfaces, options);
  platform.handOff = {
    fallback: config.slack.handOff,
    post: (threadId, target) => postSlackHandOff(app.client, threadId, target),
  };
  const turns = services.turns.attach(platform);
  const context: SlackContext = {
    services,
    client: app.client,
    logger,
    botUserId: auth.botUserId,
    turns,
    surfaces,
  };
  registerMessageEvents(app, context);
  registerSlashCommand(app, context);
  registerIngestModal(app, context);
  registerHomeTab(app, context);
  registerShareAction(app, context);
  registerAgentThreads(app, context);
  registerAskShortcut(app, context);
  registerAnswerActions(app, context);
  app.error(async (error) => {
    logger.error({ err: error, code: (error as { code?: string }).code }, 'Slack listener failed');
  });

  // HTTP mode: ends kept-alive connections once the receiver stops taking events.
  let closeConnections = () => {};
  const { NETWORK_UNREACHABLE, CONFIG_INVALID } = slackErrorMessages;
  const running = await runPlatform({
    platform,
    label: 'Slack bot',
    turns,
    connect: async () => {
      // Bolt's HTTP receiver resolves with its server.
      const server = await app.start();
      if (server instanceof Server) closeConnections = closeConnectionsOnStop(server);
      logMissingGrants(logger, slackScopeKind, auth.scopes);
      return { mode, team: auth.teamId, bot: auth.botUserId, ...(mode === 'http' ? { port } : {}) };
    },
    connectFailure:
      mode === 'socket'
        ? {
            network: (reason) => NETWORK_UNREACHABLE.socketMode({ reason }),
            other: (reason) => CONFIG_INVALID.socketModeFailed({ reason }),
          }
        : { other: (reason) => CONFIG_INVALID.portUnavailable({ port, reason }) },
    stopTimeoutMs: options.stopTimeoutMs,
    // A replica that lost the shared database closes its receiver: HTTP requests then fail (Slack
    // retries them, a load balancer sends them to another replica) and Socket Mode disconnects (Slack
    // sends to the other replicas' connections).
    stopTaking: async () => {
      closeConnections();
      await app
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'stopping the Slack receiver failed'));
    },
    // The Web API client keeps no connection: nothing more to close once the receiver stopped.
    close: async () => {},
  });
  return { ...running, mode, botUserId: auth.botUserId, teamId: auth.teamId };
}

async function verifyBotToken(
  botToken: string,
  clientOptions: webApi.WebClientOptions,
  apiUrl: string | undefined,
): Promise<{ botUserId: string; botId: string; teamId: string; scopes?: string[] }> {
  const client = new webApi.WebClient(botToken, clientOptions);
  try {
    const result = await client.auth.test();
    if (!result.user_id) throw new Error('auth.test returned no user id');
    const scopes = result.response_metadata?.scopes;
    return {
      botUserId: result.user_id,
      botId: result.bot_id ?? '',
      teamId: result.team_id ?? '',
      ...(scopes ? { scopes } : {}),
    };
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    const { CONFIG_INVALID, NETWORK_UNREACHABLE } = slackErrorMessages;
    if (code) {
      throw new RagentError('CONFIG_INVALID', CONFIG_INVALID.botTokenRejected({ code }), { cause: error });
    }
    // An answer that is not Slack's (a wrong SLACK_API_URL, a proxy's page): a setting to fix.
    throw connectFailure(error, {
      network: (reason) => NETWORK_UNREACHABLE.webApi({ apiUrl, reason }),
      other: (reason) => CONFIG_INVALID.webApiFailed({ apiUrl, reason }),
    });
  }
}
