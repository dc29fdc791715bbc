/** How Slack's mrkdwn writes the core's replies (see turns/chat-markup). */
import type { ChatMarkup } from '../../turns/chat-markup.ts';
import { slackTerms } from './render-reply.ts';
import { safeMrkdwn } from './slack-text.ts';

export const slackMarkup: ChatMarkup = {
  literal: safeMrkdwn,
  bold: (text) => `*${text}*`,
  code: (text) => `\`${text}\``,
  channel: (id) => `<#${id}>`,
  icons: { warning: ':warning:', removed: ':wastebasket:', moved: ':package:', done: ':white_check_mark:' },
  terms: slackTerms,
  link: (url, text) => `<${url}|${text}>`,
};
