/**
 * After a crash, each Slack thread whose answer was cut short is told to ask again: the placeholder
 * ("Working on it…") becomes the notice, or — where the assistant status was used or the placeholder
 * is gone — the notice is posted in the thread (which also clears an assistant status).
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logger.ts';
import type { TellThread } from '../shared/turns-in-flight.ts';
import { postMessage, slackErrorCode, updateMessage } from './slack-message.ts';
import { restartedNotice } from './slack-notices.ts';

/** Tells a recorded turn's thread (see `slackTurnLocation`) to ask again. */
export function askAgainInSlackThread(client: webApi.WebClient, logger: Logger): TellThread {
  return async ({ channel, threadTs, placeholderTs }) => {
    if (!channel || !threadTs) throw new Error('the recorded turn has no channel or thread');
    if (placeholderTs) {
      try {
        await updateMessage(client, channel, placeholderTs, restartedNotice);
        return;
      } catch (error) {
        logger.debug({ code: slackErrorCode(error) }, 'could not replace the placeholder; posting');
      }
    }
    await postMessage(client, { channel, threadTs }, restartedNotice);
  };
}
