import { describe, expect, it } from 'vitest';
import type { PlanStep } from '../../src/core/chat-platform.ts';
import { planCards } from '../../src/replies/plan-cards.ts';

const steps: PlanStep[] = [
  {
    title: 'How do\n  loops work?',
    state: 'complete',
    documents: [
      { name: 'bash.pdf', link: 'https://files.example/b' },
      { name: 'notes.md', link: 'http://plain.example' },
    ],
  },
  { title: 'x'.repeat(300), state: 'in_progress', documents: [] },
];
const safe = (text: string) => text.replace(/@/g, '@\u2060');

describe("an answer's plan as cards", () => {
  it('titles the plan once, says what each done step read, and links only https sources', () => {
    const { title, cards } = planCards(steps, new Map(), safe);
    expect(title).toBe('Answering in 2 parts');
    expect(cards[0]).toEqual({
      id: 'ragent-step-1',
      title: 'How do loops work?',
      state: 'complete',
      output: 'Read bash.pdf, notes.md',
      sources: [{ url: 'https://files.example/b', text: 'bash.pdf' }],
    });
    expect(cards[1]?.title).toHaveLength(200);
    expect(cards[1]?.output).toBeUndefined();
  });

  it('returns only the cards that changed since they were last shown, and makes their text safe', () => {
    const first = planCards(steps, new Map(), safe);
    const shown = new Map(first.cards.map((card) => [card.id, JSON.stringify(card)]));
    const next = planCards(
      [steps[0]!, { title: 'ask @here', state: 'complete', documents: [] }],
      shown,
      safe,
    );
    expect(next.title).toBeUndefined();
    expect(next.cards.map((card) => [card.id, card.title, card.output])).toEqual([
      ['ragent-step-2', 'ask @\u2060here', 'Nothing in the documents matched.'],
    ]);
  });
});
