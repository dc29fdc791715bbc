import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { type MessagePrimitives, messageSequence } from '../../src/turns/message-sequence.ts';

/** A thread of messages as a platform keeps them; deletes fail when told to. */
function thread(options: { deleteFails?: boolean; editFails?: boolean } = {}) {
  const messages = new Map<string, string>();
  let next = 0;
  const primitives: MessagePrimitives<string> = {
    post: async (part) => {
      next += 1;
      messages.set(`m${next}`, part);
      return `m${next}`;
    },
    edit: async (id, part) => {
      if (options.editFails && part === 'note') throw new Error('edit refused');
      messages.set(id, part);
    },
    remove: async (id) => {
      if (options.deleteFails) throw new Error('delete refused');
      messages.delete(id);
    },
    leftoverNote: 'note',
    logger: createLogger({ level: 'silent' }),
  };
  return { messages, primitives };
}

describe('the message sequence of a reply surface', () => {
  it('edits the status into the first part, continues in new messages, and the reply replaces them in order', async () => {
    const { messages, primitives } = thread();
    messages.set('status', '⏳ working');
    const sequence = messageSequence(primitives, ['status']);
    await sequence.showStatus('⏳ searching');
    await sequence.showParts(['part one…'], (part) => part);
    await sequence.showParts(['part one', 'part two…'], (part) => part);
    expect(sequence.last()).toBe('m1');
    await sequence.finish(['answer one', 'answer two', 'answer three']);
    expect([...messages.values()]).toEqual(['answer one', 'answer two', 'answer three']);
  });

  it('deletes the parts a shorter reply no longer needs', async () => {
    const { messages, primitives } = thread();
    messages.set('status', '⏳ working');
    const sequence = messageSequence(primitives, ['status']);
    await sequence.showParts(['one', 'two', 'three…'], (part) => part);
    await sequence.finish(['the answer']);
    expect([...messages.values()]).toEqual(['the answer']);
  });

  it('turns a part it cannot delete into a note pointing at the answer, never a stale one', async () => {
    const { messages, primitives } = thread({ deleteFails: true });
    messages.set('status', '⏳ working');
    const sequence = messageSequence(primitives, ['status']);
    await sequence.showParts(['one', 'two… ✍️ writing'], (part) => part);
    await sequence.finish(['the answer']);
    expect([...messages.values()]).toEqual(['the answer', 'note']);
  });

  it('a later reply (after an overdue notice) follows as new messages', async () => {
    const { messages, primitives } = thread();
    messages.set('status', '⏳ working');
    const sequence = messageSequence(primitives, ['status']);
    await sequence.finish(['overdue notice']);
    await sequence.finish(['late answer']);
    expect([...messages.values()]).toEqual(['overdue notice', 'late answer']);
  });
});
