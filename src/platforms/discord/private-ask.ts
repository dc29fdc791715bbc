/**
 * `/ragent ask question:` and its Share button on Discord: the payloads read into the core's private
 * ask (`turns/private-ask.ts`) and Share (`turns/share-private-answer.ts`). The private surface is the
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
} from 'discord.js';
import type { Location, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import { type PrivateReplyExtras, privateSurface } from '../../replies/private-surface.ts';
import { joinWithin } from '../../turns/join-within.ts';
import { runPrivateAsk } from '../../turns/private-ask.ts';
import { sharePrivateAnswer } from '../../turns/share-private-answer.ts';
import { askQuestionOption } from './command-definitions.ts';
import { discordActor } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMarkup } from './discord-markup.ts';
import { guildChannelScopes, interactionSetChannel } from './discord-scopes.ts';
import {
  type DiscordSurfaces,
  discordPort,
  interactionAlive,
  original,
  webhookEdit,
} from './discord-surfaces.ts';
import { type MessagePart, messageLimit, renderAnswer } from './render-answer.ts';

const sharePrefix = 'ragent:share:';
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
    reference: `/ragent ask ${interaction.id}`,
    // Snowflakes grow with time: the asker's private turns run in the order they were asked.
    position: interaction.id,
    location,
    scopes: async () => {
      const setChannel = await interactionSetChannel(interaction.client, interaction);
      return guildChannelScopes(context.services.coordination, context.logger, guildId, setChannel);
    },
    open: async () => discordPrivateSurface(context.surfaces, location, interaction.createdTimestamp, true),
  };
  await runPrivateAsk(context.turns, question, async (content) => {
    await interaction.editReply({ content, allowedMentions: noMentions });
  });
}

/** A recorded private turn (a crash, a stop): told through the interaction while its token lives. */
export function reopenPrivateTurn(surfaces: DiscordSurfaces, turn: TurnInFlight): ReplySurface {
  return discordPrivateSurface(surfaces, turn.location, turn.startedAt, false);
}

/**
 * The interaction's original (ephemeral) reply and its follow-ups, over the interaction webhook;
 * `live`: the original shows the status (a recorded turn's reply replaces it without statuses).
 */
function discordPrivateSurface(surfaces: DiscordSurfaces, location: Location, since: number, live: boolean) {
  const { applicationId = '', interactionToken = '' } = location;
  const alive = () => interactionAlive(location, since);
  const edit = (part: Partial<MessagePart>, id: string) =>
    webhookEdit(surfaces.client, location, since, id, part);
  const port = discordPort(surfaces, {
    location: () => location,
    edit,
    delete: async () => {},
    post: async (part, index) => {
      if (alive() && index === 0) await edit(part, original);
      else if (alive()) {
        const { allowedMentions: _, ...body } = part;
        const ephemeral = { ...body, flags: MessageFlags.Ephemeral, allowed_mentions };
        await surfaces.client.rest.post(Routes.webhook(applicationId, interactionToken), {
          body: ephemeral,
          auth: false,
        });
      } else if (index === 0) {
        // Nowhere private to say it: the channel must not see it.
        if (!live) throw new Error('the interaction token expired: the asker cannot be told privately');
        surfaces.logger.warn('the private reply came after the interaction token expired');
      }
      return { id: original };
    },
  });
  const withExtras = (last: Partial<MessagePart>, { footer, share }: PrivateReplyExtras) => {
    const content = footer && joinWithin(messageLimit, [last.content ?? '', `-# ${footer}`], '\n');
    const components = [
      ...(last.components ?? []),
      ...(share ? [shareRow(share.label, share.answerId)] : []),
    ];
    return { ...last, ...(content ? { content } : {}), components };
  };
  return privateSurface({ ...port, withExtras }, live ? [original] : []);
}

function shareRow(label: string, answerId: string): APIActionRowComponent<APIButtonComponent> {
  const custom_id = `${sharePrefix}${answerId}`.slice(0, 100);
  const button = { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id, label } as const;
  return { type: ComponentType.ActionRow, components: [button] };
}

/** Share: acknowledged at once (the private message is then edited, or the presser told privately). */
export async function handleShareButton(
  context: DiscordContext,
  interaction: ButtonInteraction,
): Promise<void> {
  await interaction.deferUpdate();
  const press = {
    platform: 'discord',
    workspace: interaction.guildId ?? 'dm',
    actor: discordActor(context, interaction, interaction.user.id),
    answerId: interaction.customId.slice(sharePrefix.length),
  };
  await sharePrivateAnswer(context.services.coordination, press, {
    markup: discordMarkup,
    logger: context.logger,
    tell: async (content) => {
      await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: noMentions });
    },
    // In the channel or thread it was asked in; the credit joins the first part where it fits.
    post: async (credit, shared) => {
      const channel = await interaction.client.channels.fetch(shared.asker.channel, {
        allowUnknownGuild: true,
      });
      if (!channel?.isSendable()) throw new Error(`channel ${shared.asker.channel} is gone or not writable`);
      const parts = renderAnswer(shared.answer);
      const [first] = parts;
      const credited = first && joinWithin(messageLimit, [credit, first.content], '\n\n');
      if (first && credited) first.content = credited;
      else parts.unshift({ content: credit, embeds: [], components: [] });
      for (const part of parts) await channel.send({ ...part, allowedMentions: noMentions });
    },
    // The private message keeps the answer, without the Share button, and says it was shared.
    markShared: async (note) => {
      const { message } = interaction;
      const kept = message.content.replace(/\n-# [^\n]*$/, '');
      await interaction.editReply({
        content: joinWithin(messageLimit, [kept, `-# ${note}`], '\n') ?? kept,
        components: message.components
          .map((row) => row.toJSON())
          .filter((row) => !JSON.stringify(row).includes(sharePrefix)) as never,
        allowedMentions: noMentions,
      });
    },
  });
}
