/**
 * An answer's plan as cards, for platforms that show one per sub-question: its title, how far it is,
 * what its agent read (the names, and links to those with an https address) — every text made safe by
 * the platform (`safe`: a sub-question is model text, a name comes from a document) and cut to a
 * length such cards take. Only the cards that changed since `shown` (each card as last shown, by id)
 * are returned, and the plan's title only when nothing was shown yet.
 */
import type { PlanStep } from '../core/chat-platform.ts';
import { planTitle, stepReadText } from '../turns/messages-en.ts';
import { shortenText } from './shorten-text.ts';

export interface PlanCard {
  id: string;
  title: string;
  state: PlanStep['state'];
  output?: string;
  sources: Array<{ url: string; text: string }>;
}

/** The cards to show: the plan's title (first time only) and the cards that changed. */
export interface PlanCards {
  title?: string;
  cards: PlanCard[];
}

/** A card holds a handful of sources; more would only crowd it. */
const maxSources = 5;

export function planCards(
  steps: readonly PlanStep[],
  shown: ReadonlyMap<string, string>,
  safe: (text: string) => string,
): PlanCards {
  const cards = steps.map((step, index): PlanCard => {
    const names = step.documents.map((document) => document.name);
    return {
      id: `ragent-step-${index + 1}`,
      title: shortenText(safe(step.title.replace(/\s+/g, ' ').trim()), 200),
      state: step.state,
      ...(step.state === 'complete' ? { output: shortenText(safe(stepReadText(names)), 500) } : {}),
      sources: step.documents
        .flatMap(({ link, name }) =>
          link && /^https:\/\//.test(link) ? [{ url: link, text: shortenText(safe(name), 150) }] : [],
        )
        .slice(0, maxSources),
    };
  });
  return {
    ...(shown.size === 0 ? { title: planTitle(steps.length) } : {}),
    cards: cards.filter((card) => shown.get(card.id) !== JSON.stringify(card)),
  };
}
