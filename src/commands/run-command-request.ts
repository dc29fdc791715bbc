/**
 * A chat command as every platform runs it (route-command.ts sends it here once acknowledged): the
 * core's reply text goes back privately, and a failure is logged with the request's reference and told
 * to the person as a warning saying what went wrong — never a silent command. A reply the platform
 * refuses is logged, not thrown.
 */
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';

export interface CommandReplies {
  /** Sends `text` privately to the person who ran the command. */
  reply(text: string): Promise<unknown>;
  markup: ChatMarkup;
  logger: Logger;
  /** Finds the log entry of this command. */
  reference: string;
}

/** `run` resolves with the reply's text; with no text when its handler answered itself. */
export async function runCommandRequest(run: () => Promise<unknown>, replies: CommandReplies): Promise<void> {
  const { markup, logger, reference } = replies;
  const reply = (text: string) =>
    replies
      .reply(text)
      .catch((error: unknown) => logger.warn({ err: error }, 'could not answer the command'));
  try {
    const text = await run();
    if (typeof text === 'string') await reply(text);
  } catch (error) {
    const ragentError = toRagentError(error);
    logger.error({ err: error, code: ragentError.code, reference }, 'command failed');
    await reply(`${markup.icons.warning} ${markup.literal(ragentError.message)}`);
  }
}
