/**
 * Channel links, once for every platform: an admin lets a channel also search another channel's
 * document set (#oncall-eu uses #oncall's runbooks). A link joins two channel scopes of one
 * workspace/server (`slack:<team>:<channel>`, `discord:<guild>:<channel>`) and goes one way; the
 * platform says who is an admin and which channel is meant, never the model.
 */
import type { ChannelSettings } from '../core/channel-settings.ts';
import { decodeScope, placeOfScope } from '../core/ids.ts';
import type { Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { PlaceSets } from './document-commands.ts';

/** The workspace/server scope of a channel scope, or undefined when the scope is not a channel's. */
function placeOfChannel(scope: Scope): Scope | undefined {
  return decodeScope(scope)?.kind === 'channel' ? placeOfScope(scope) : undefined;
}

function checkLink(channel: Scope, linked: Scope, placeName: string): void {
  const place = placeOfChannel(channel);
  if (!place || place !== placeOfChannel(linked)) {
    throw new RagentError('LINK_REFUSED', errorMessages.LINK_REFUSED.acrossPlaces({ placeName }), {
      details: { channel, linked },
    });
  }
  if (channel === linked) throw new RagentError('LINK_REFUSED', errorMessages.LINK_REFUSED.sameChannel());
}

/** Links `channel` to `linked`'s set; false when it already was. Throws LINK_REFUSED across places. */
export async function linkChannel(
  store: ChannelSettings,
  request: { channel: Scope; linked: Scope; placeName: string; logger: Logger },
): Promise<boolean> {
  checkLink(request.channel, request.linked, request.placeName);
  const added = await store.linkChannel(request.channel, request.linked);
  request.logger.info({ channel: request.channel, linked: request.linked, added }, 'channel linked');
  return added;
}

/** Removes the link; false when there was none. */
export async function unlinkChannel(
  store: ChannelSettings,
  request: { channel: Scope; linked: Scope; logger: Logger },
): Promise<boolean> {
  const removed = await store.unlinkChannel(request.channel, request.linked);
  request.logger.info({ channel: request.channel, linked: request.linked, removed }, 'channel unlinked');
  return removed;
}

/**
 * The place's sets with its channel's links. Only links inside the same workspace/server count (a
 * stored link that is not is ignored); if the store cannot be read the channel searches without its
 * links (narrower, never wider) and the failure is logged.
 */
export async function withLinks(store: ChannelSettings, sets: PlaceSets, logger: Logger): Promise<PlaceSets> {
  const channel = sets.channel;
  if (!channel) return sets;
  try {
    const place = placeOfChannel(channel);
    const linked = (await store.linkedChannels(channel)).filter(
      (scope) => scope !== channel && placeOfChannel(scope) === place,
    );
    return { ...sets, linked };
  } catch (error) {
    logger.warn({ err: error, channel }, 'could not read the channel links; searching without them');
    return sets;
  }
}
