import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/chat-platform.ts';
import { createLogger } from '../../src/logger.ts';
import { reopenedSurface } from '../../src/replies/reopened-surface.ts';
import type { ReplyPort } from '../../src/replies/reply-port.ts';

/** A recorded place as plain text messages: the status message `status` was shown before the restart. */
function recordedPlace() {
  const messages = new Map<string, string>([['status', '⏳ ingesting a.pdf']]);
  let next = 0;
  const port: ReplyPort<string> = {
    logger: createLogger({ level: 'silent' }),
    post: async (message) => {
      next += 1;
      messages.set(`m${next}`, message);
      return `m${next}`;
    },
    edit: async (id, message) => {
      if (!messages.has(id)) throw new Error('gone');
      messages.set(id, message);
    },
    delete: async (id) => void messages.delete(id),
    render: {
      status: () => '⏳',
      streamingText: (text) => [text],
      reply: (reply) => [reply.kind],
      leftoverNote: 'note',
    },
    location: (last): Record<string, string> => (last ? { statusMessageId: last } : {}),
  };
  return { messages, port };
}

const interrupted: Reply = {
  kind: 'interrupted-ingest',
  ingest: { file: 'a.pdf', added: [], notAdded: ['a.pdf'] },
};

describe('a recorded turn reached again', () => {
  it('replaces its recorded status message with the outcome, or posts it where none was recorded', async () => {
    const { messages, port } = recordedPlace();
    await reopenedSurface(port, 'status').finish({ kind: 'restarted' });
    expect(messages.get('status')).toBe('restarted');
    await reopenedSurface(port, undefined).finish({ kind: 'restarted' });
    expect(messages.get('m1')).toBe('restarted');
  });

  it('keeps an ingest result already shown, and replaces the message where it shows none or cannot be read', async () => {
    const shown = recordedPlace();
    await reopenedSurface(shown.port, 'status', async () => true).finish(interrupted);
    expect([...shown.messages.values()]).toEqual(['⏳ ingesting a.pdf']);
    const notShown = recordedPlace();
    await reopenedSurface(notShown.port, 'status', async () => false).finish(interrupted);
    expect(notShown.messages.get('status')).toBe('interrupted-ingest');
    const unreadable = recordedPlace();
    const failing = () => Promise.reject(new Error('cannot read'));
    await reopenedSurface(unreadable.port, 'status', failing).finish(interrupted);
    expect(unreadable.messages.get('status')).toBe('interrupted-ingest');
  });
});
