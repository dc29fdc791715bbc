/**
 * The answer actions on the real SQLite stores, with a chat markup of its own and a hand-off line
 * that records what it would post: what each action stored, posted and said can be read back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnswerActionContext, AnswerActionRequest } from '../../src/answer-actions/answer-action.ts';
import { channelScope } from '../../src/core/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import { openSqliteVerifiedAnswers } from '../../src/stores/sqlite-verified-answers.ts';
import type { Actor } from '../../src/turns/actor.ts';
import type { ChatMarkup } from '../../src/turns/chat-markup.ts';

export const channel = channelScope('chat', 'W1', 'C1');
export const threadId = 'chat:W1:C1:100';

export const testMarkup: ChatMarkup = {
  literal: (text) => `«${text}»`,
  bold: (text) => `*${text}*`,
  code: (text) => `\`${text}\``,
  channel: (id) => `#${id}`,
  icons: { warning: '[!]', removed: '[-]', moved: '[>]', done: '[v]' },
  terms: {
    place: 'this workspace',
    admin: 'a workspace admin',
    ingestCommand: 'ingest',
    docsCommand: 'docs',
    forgetCommand: 'forget',
    useCommand: 'use',
    moveCommand: 'move',
  },
};

export function actor(id: string, manages: boolean | Error = false): Actor {
  const managesPlace = async () => {
    if (manages instanceof Error) throw manages;
    return manages;
  };
  return { id, name: `${id}-name`, managesPlace, managesChannel: managesPlace };
}

export function request(who: Actor, overrides: Partial<AnswerActionRequest> = {}): AnswerActionRequest {
  return {
    actor: who,
    answerId: 'a1',
    threadId,
    place: { inDirectMessage: false, channelScope: channel },
    ...overrides,
  };
}

export interface ActionFixture {
  context: AnswerActionContext;
  /** [thread, target] per hand-off line posted. */
  posted: Array<[string, string]>;
  /** Makes the next hand-off line fail to post. */
  failPost(): void;
  close(): Promise<void>;
}

/** `fallback`: the platform's default hand-off target (null: none). */
export async function openActionFixture(fallback: string | null = 'G-DEFAULT'): Promise<ActionFixture> {
  const directory = await mkdtemp(path.join(tmpdir(), 'ragent-answer-actions-'));
  const coordination = openSqliteCoordinationStore(directory);
  const turnHistory = openSqliteTurnHistory(directory);
  const verifiedAnswers = openSqliteVerifiedAnswers(directory);
  const posted: Array<[string, string]> = [];
  let failing = false;
  await coordination.recordAnswer({
    answerId: 'a1',
    threadId,
    question: 'How do loops work?',
    answer: 'A loop repeats [1].',
    sources: [{ docId: 'd1', file: 'loops.pdf', pages: [3, 3] }],
  });
  return {
    context: {
      services: { coordination, turnHistory, verifiedAnswers },
      logger: createLogger({ level: 'silent' }),
      markup: testMarkup,
      platform: 'chat',
      handOff: {
        fallback: fallback ?? undefined,
        post: async (thread, target) => {
          if (failing) {
            failing = false;
            throw new Error('the line could not be posted');
          }
          posted.push([thread, target]);
        },
      },
      threadLink: (thread) => `https://chat.example/${thread}`,
    },
    posted,
    failPost: () => {
      failing = true;
    },
    close: async () => {
      await coordination.close();
      await turnHistory.close();
      await verifiedAnswers.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
