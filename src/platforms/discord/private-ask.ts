/**
 * `/ragent ask question:` and its Share button on Discord: the payloads read into the core's private
 * ask (`commands/private-ask.ts`) and Share (`answer-actions/share-private-answer.ts`). The private surface is the
 * command's deferred ephemeral reply (flags 64), edited with the status and then the answer; longer
 * answers continue in ephemeral follow-ups. The interaction's token lasts 15 minutes: a reply that
 * comes later cannot reach the asker privately (and never goes to the channel instead).
 */
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  ComponentType,
  MessageFlags,
  Routes,
  type SendableChannels,
} from 'discord.js';
import { wireIdOfAnswer } from '../../answer-actions/action-wire-names.ts';
import { sharePrivateAnswer } from '../../answer-actions/share-private-answer.ts';
import { runPrivateAsk } from '../../commands/private-ask.ts';
import type { Location, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import {
  type PrivateRendering,
  type PrivateReplyPort,
  privateSurface,
  type ShareButton,
} from '../../replies/private-surface.ts';
import { joinWithin } from '../../turns/join-within.ts';
import { discordSpelling } from './answer-action-rows.ts';
import { askQuestionOption } from './command-definitions.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { guildChannelScopes, interactionSetChannel } from './discord-scopes.ts';
import {
  type DiscordSurfaces,
  discordRendering,
  interactionAlive,
  original,
  sendableChannel,
  webhookEdit,
} from './discord-surfaces.ts';
import { type MessagePart, messageLimit, renderAnswer } from './render-answer.ts';

type Part = Partial<MessagePart>;
/** Share's custom id, `ragent:share:<answer id>`, and what every one starts with. */
const shareCustomId = (answerId: string) => wireIdOfAnswer('share', answerId, discordSpelling);
const sharePrefix = shareCustomId('');
const allowed_mentions = { parse: [], replied_user: false };

export function isShareButton(customId: string): boolean {
  return customId.startsWith(sharePrefix);
}

/** `/ragent ask question:` (in a server): deferred ephemerally first, then answered by the runner. */
export async function runAskCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const { guildId, channelId, applicationId, token } = interaction;
  const user = interaction.user.id;
  const location = { applicationId, interactionToken: token, channelId, privateTo: user };
  const question = {
    asker: { platform: 'discord', workspace: guildId, channel: channelId, user },
    id: interaction.id,
    text: interaction.options.getString(askQuestionOption, true),
    command: '/ragent',
    // Snowflakes grow with time: the asker's private turns run in the order they were asked.
    position: interaction.id,
    scopes: async () => {
      const setChannel = await interactionSetChannel(interaction.client, interaction);
      return guildChannelScopes(context.services.coordination, context.logger, guildId, setChannel);
    },
    port: privatePort(context.surfaces, location, interaction.createdTimestamp),
    // The deferred reply shows the status; the reply replaces it.
    shown: [original],
  };
  await runPrivateAsk(context.turns, question);
}

/** A recorded private turn (a crash, a stop): told through the interaction while its token lives. */
export function reopenPrivateTurn(surfaces: DiscordSurfaces, turn: TurnInFlight): ReplySurface {
  return privateSurface(privatePort(surfaces, turn.location, turn.startedAt), { recorded: true });
}

/** A private reply: like any reply; the note in small print under the last part, Share in a row of its own. */
function privateRendering(surfaces: DiscordSurfaces): PrivateRendering<Part> {
  const { status, reply } = discordRendering(surfaces);
  return {
    status,
    reply,
    notice: (content) => ({ content }),
    withSmallPrint: (part, note) => {
      const content = joinWithin(messageLimit, [part.content ?? '', `-# ${note}`], '\n');
      return content ? { ...part, content } : part;
    },
    withButtonRow: (part, share) => ({ ...part, components: [...(part.components ?? []), shareRow(share)] }),
  };
}

function shareRow({ label, answerId }: ShareButton): APIActionRowComponent<APIButtonComponent> {
  const custom_id = shareCustomId(answerId).slice(0, 100);
  const button = { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id, label } as const;
  return { type: ComponentType.ActionRow, components: [button] };
}

/**
 * The interaction's webhook while its token lives (15 minutes): its original (ephemeral) reply, then
 * ephemeral follow-ups. Discord has no lasting private post: later, nothing reaches the asker.
 */
function privatePort(surfaces: DiscordSurfaces, location: Location, since: number): PrivateReplyPort<Part> {
  const { applicationId = '', interactionToken = '' } = location;
  const edit = (id: string, part: Part) => webhookEdit(surfaces.client, location, since, id, part);
  return {
    logger: surfaces.logger,
    location: () => location,
    render: privateRendering(surfaces),
    edit,
    reply: async (part, replace) => {
      if (!interactionAlive(location, since)) return false;
      if (replace) await edit(original, part);
      else {
        const body = { ...part, flags: MessageFlags.Ephemeral, allowed_mentions };
        await surfaces.client.rest.post(Routes.webhook(applicationId, interactionToken), {
          body,
          auth: false,
        });
      }
      return true;
    },
  };
}

/** Share: acknowledged at once (the private message is then edited, or the presser told privately). */
export async function handleShareButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<void> {
  await interaction.deferUpdate();
  const { applicationId, token, channelId, user } = interaction;
  const press = {
    platform: 'discord',
    workspace: interaction.guildId ?? 'dm',
    actor: discordActor(context, interaction, user.id),
    answerId: interaction.customId.slice(sharePrefix.length),
  };
  // The channel is read once per press: its guild may be another replica's shard (not cached here).
  let channel: Promise<SendableChannels> | undefined;
  // The press's own interaction: its deferred update is the private answer's last part.
  const location = { applicationId, interactionToken: token, channelId, privateTo: user.id };
  await sharePrivateAnswer<Part>(context.services.coordination, press, {
    markup: discordMarkup,
    port: privatePort(context.surfaces, location, interaction.createdTimestamp),
    answer: (shared) => renderAnswer(shared.answer),
    credit: {
      join: (credit, first) => {
        const content = joinWithin(messageLimit, [credit, first.content ?? ''], '\n\n');
        return content ? { ...first, content } : undefined;
      },
      alone: (credit) => ({ content: credit }),
    },
    // In the channel or thread it was asked in.
    post: async (channelId, part) => {
      channel ??= sendableChannel(interaction.client, channelId);
      await (await channel).send({ ...part, allowedMentions: noMentions });
    },
  });
}
