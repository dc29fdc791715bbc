/**
 * After a crash, each Slack thread left hanging is told what happened: an answer cut short — its
 * placeholder ("Working on it…") becomes "please ask again"; an ingest cut short — its progress
 * message becomes "nothing was added, run /ragent ingest again". Where that message is gone (or the
 * assistant status stood in for a placeholder), the notice is posted in the thread or channel instead.
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logger.ts';
import type { TellThread } from '../shared/turns-in-flight.ts';
import { interruptedIngest } from './ingest-record.ts';
import { postMessage, slackErrorCode, updateMessage } from './slack-message.ts';
import { interruptedIngestNotice, restartedNotice } from './slack-notices.ts';

/** Tells a recorded turn's thread (see `slackTurnLocation`, `recordSlackIngest`) what happened. */
export function askAgainInSlackThread(client: webApi.WebClient, logger: Logger): TellThread {
  return async ({ kind, location }) => {
    const { channel, threadTs } = location;
    if (!channel) throw new Error('the recorded turn has no channel');
    const [notice, messageTs] =
      kind === 'ingest'
        ? [interruptedIngestNotice(interruptedIngest(location)), location.messageTs]
        : [restartedNotice, location.placeholderTs];
    if (messageTs) {
      try {
        await updateMessage(client, channel, messageTs, notice);
        return;
      } catch (error) {
        logger.debug({ code: slackErrorCode(error) }, 'could not replace the message; posting');
      }
    }
    await postMessage(client, { channel, ...(threadTs ? { threadTs } : {}) }, notice);
  };
}
