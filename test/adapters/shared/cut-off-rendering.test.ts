import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/core/chat-platform.ts';
import { renderReply as renderDiscordReply } from '../../../src/platforms/discord/render-reply.ts';
import { renderReply as renderSlackReply } from '../../../src/platforms/slack/render-reply.ts';

const cutOff: Reply = {
  kind: 'cut-off',
  text: 'Use a loop:\n\n```bash\nwhile read -r line; do',
  notice: 'The answer was cut off: The model stopped answering.',
  reference: 'ref-1',
};

describe('an answer cut off part-way', () => {
  it('on Discord: what was written, its code block closed, then the notice and the reference', () => {
    const [part, ...rest] = renderDiscordReply(cutOff, { messageContentIntent: false });
    expect(rest).toEqual([]);
    expect(part?.content).toBe(
      'Use a loop:\n\n```bash\nwhile read -r line; do\n```\n\n⚠️ **The answer was cut off: The model stopped answering.**\n-# Reference: ref-1',
    );
    expect(part?.components).toEqual([]);
  });

  it('on Slack: what was written, its code block closed, then the notice in the same message, no buttons', () => {
    const [message, ...rest] = renderSlackReply(cutOff);
    expect(rest).toEqual([]);
    const blocks = JSON.stringify(message?.blocks);
    expect(blocks).toContain('while read -r line; do\\n```');
    expect(blocks).toContain('The answer was cut off: The model stopped answering.');
    expect(blocks).toContain('ref-1');
    expect(blocks).not.toContain('ragent_feedback');
  });
});
