/**
 * The one reply surface every platform shows its turns on, over the platform's primitives
 * (`reply-port.ts`). A status shows in a status message (or the platform's status line); an answer
 * being written streams natively where the platform can, else shows as edited messages (a part that
 * fills up continues in a new one); the reply then replaces what was shown, in order. Refusals fall
 * back: a refused stream to edits, a refused edit to a new message, a refused delete to an edit into
 * a short note — never a stale "working…" message; a refused plan to the text alone, a refused richer
 * form of a message to its simpler one (what was refused is remembered for the place:
 * `place-refusals.ts`). An answer's plan shows as cards in the stream, only the changed ones sent
 * again; the reply's sources and buttons go under a stopped stream. Every piece of model or document
 * text has its disguised links revealed here, whatever path it takes.
 */
import type { PlanStep, Reply, ReplySurface } from '../core/chat-platform.ts';
import { revealDisguisedLinks } from '../turns/reveal-disguised-links.ts';
import { revealReplyLinks } from '../turns/reveal-reply-links.ts';
import { PlaceRefusals } from './place-refusals.ts';
import { planCards } from './plan-cards.ts';
import type { ReplyPort } from './reply-port.ts';
import { sendWithFallbacks } from './send-with-fallbacks.ts';
import { settledPrefix } from './settled-prefix.ts';
import { clearStatusLine, setStatusLine } from './status-line.ts';

/** `shown`: the messages the surface starts with (the status message, if any). */
export function replySurface<Message>(port: ReplyPort<Message>, shown: readonly string[]): ReplySurface {
  const { logger, render, stream, statusLine } = port;
  const { learnt, place } = port.refusals ?? { learnt: new PlaceRefusals(), place: '' };
  // The messages this surface edits: the status message, then the parts of an answer being written
  // (each part's content as last shown, so only changed parts are edited).
  let ids = [...shown];
  const shownParts: string[] = [];
  /** Hands the messages shown so far over (to be deleted: their text moved) and goes on with `next`. */
  const moveOn = (next: string[]) => {
    const taken = ids;
    ids = next;
    return taken;
  };
  let statusLineShown = statusLine !== undefined;
  // The platform's stream, while it may be used: its id and what it shows so far.
  let streaming = stream !== undefined;
  let streamId: string | undefined;
  let streamed = '';
  // Whether the stream's message took the status message's place (a plan may open the stream before
  // any text: the status message then still shows the progress until the text comes).
  let streamShown = false;
  // Stream calls never overlap: a plan and the first text must not both open a stream.
  let streamQueue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = streamQueue.then(work, work);
    streamQueue = next.catch(() => {});
    return next;
  };
  // Status messages that could not be deleted when the text took their place: tried again after the
  // reply, else pointed at it.
  const undeleted: string[] = [];
  const deleteLater = async (id: string) => {
    await port.delete(id).catch((error: unknown) => {
      logger.debug({ err: error }, 'could not delete the status message; trying again later');
      undeleted.push(id);
    });
  };
  const canStream = () => streaming && stream !== undefined && !learnt.refuses('stream', place);
  const showStream = async () => {
    if (streamShown || !streamId) return;
    streamShown = true;
    for (const id of moveOn([streamId])) await deleteLater(id);
  };

  /** Streams `text`; false when the platform cannot or will not stream here (edits take over). */
  const streamText = async (text: string): Promise<boolean> => {
    if (!canStream() || !stream) return false;
    // Streamed pieces are joined by the platform: a trailing word that could still become a ping waits.
    const safe = settledPrefix(stream.safeText(text));
    if (streamId) {
      // A rewritten text (a later model call) cannot be taken back from a stream: the reply replaces it.
      if (!safe.startsWith(streamed)) return true;
      const more = safe.slice(streamed.length);
      if (more) await stream.append(streamId, more);
      streamed = safe;
      // A stream the plan opened shows the answer once its first words are in it.
      if (streamed) await showStream();
      return true;
    }
    if (!safe) return true;
    try {
      streamId = await stream.start(safe);
    } catch (error) {
      if (!stream.refuses(error)) throw error;
      // Refused here: remembered for the place, and this answer shows as edited messages.
      logger.debug({ err: error, place }, 'streaming refused; editing messages');
      learnt.learn('stream', place);
      streaming = false;
      return false;
    }
    streamed = safe;
    await showStream();
    return true;
  };

  // The plan's cards as last shown (by id): only the cards that changed are sent again.
  const cardsShown = new Map<string, string>();
  const showPlan = stream?.plan
    ? (steps: readonly PlanStep[]) =>
        exclusive(async () => {
          const plan = stream.plan;
          if (!canStream() || !plan || learnt.refuses('plan', place)) return;
          const changed = planCards(steps, cardsShown, stream.safeText);
          if (changed.title === undefined && changed.cards.length === 0) return;
          try {
            // The plan opens the stream where no text has yet; the text then follows in it.
            if (streamId) await plan.append(streamId, changed);
            else streamId = await plan.start(changed);
            for (const card of changed.cards) cardsShown.set(card.id, JSON.stringify(card));
          } catch (error) {
            if (!plan.refuses(error)) throw error;
            logger.debug({ err: error, place }, 'the plan refused here; streaming the text only');
            learnt.learn('plan', place);
          }
        })
    : undefined;

  /**
   * Stops the stream with what of the reply goes under it, where the reply is one message: its richer
   * form's closing, then its simpler form's, then none, for as long as the platform refuses them (a
   * refused richer form is remembered for the place).
   */
  const stopStream = async (id: string, rendered: readonly Message[]) => {
    if (!stream) return;
    const [only] = rendered.length === 1 ? rendered : [];
    const forms = only === undefined ? [] : [only, render.simpler?.(only)];
    const closings = forms.flatMap((form, index) => {
      const closing = form === undefined ? undefined : stream.closing?.(form);
      return closing === undefined ? [] : [{ closing, simpler: index > 0 }];
    });
    await sendWithFallbacks(
      [...closings, undefined],
      async (chosen) => {
        await stream.stop(id, chosen?.closing);
        if (chosen?.simpler) learnt.learn('richer-form', place);
      },
      (error) => stream.refusesClosing?.(error) === true,
    );
  };

  /** Deletes a message; where that fails, edits it into the note pointing at the answer. */
  const removeOrNote = async (id: string) => {
    try {
      await port.delete(id);
    } catch (error) {
      await port.edit(id, render.leftoverNote).then(
        () => logger.debug({ err: error }, 'could not delete a message; it now points at the answer'),
        (editError: unknown) =>
          logger.warn(
            { err: error, editError },
            'could not delete or edit a leftover message: it still shows what was written',
          ),
      );
    }
  };

  return {
    get location() {
      return port.location(ids.at(-1));
    },
    // Stream appends and a first text in a new message are not edits.
    get nextTextIsEdit() {
      if (canStream()) return false;
      return shownParts.length > 0 || !port.textInNewMessage;
    },
    showStatus: async (status) => {
      const current = ids.at(-1);
      if (current) await port.edit(current, render.status(status));
      else if (statusLineShown && statusLine && status.kind === 'working')
        await setStatusLine(statusLine, status.line);
    },
    ...(showPlan ? { showPlan } : {}),
    showText: async (written) => {
      const text = revealDisguisedLinks(written);
      if (await exclusive(() => streamText(text))) return;
      const statusMessages = shownParts.length === 0 && port.textInNewMessage ? moveOn([]) : [];
      // Changed parts edited, new ones posted (a part that filled up continues in a new message).
      for (const [index, part] of render.streamingText(text).entries()) {
        const content = JSON.stringify(part);
        if (shownParts[index] === content) continue;
        const id = ids[index];
        if (id) await port.edit(id, part);
        else ids.push(await port.post(part, index));
        shownParts[index] = content;
      }
      for (const id of statusMessages) await deleteLater(id);
    },
    finish: async (reply: Reply) => {
      // Where the place refused a richer form, the simpler one at once.
      const rendered = render
        .reply(revealReplyLinks(reply))
        .map((message) => (learnt.refuses('richer-form', place) && render.simpler?.(message)) || message);
      // Stream calls in flight (a plan's last step) go out before the stream stops.
      await exclusive(async () => {});
      // A stream that showed only the plan: the reply takes its message, the status message goes.
      await showStream();
      if (streamId && stream) {
        const id = streamId;
        streamId = undefined;
        streaming = false;
        await stopStream(id, rendered).catch((error: unknown) => {
          logger.debug({ err: error }, 'could not stop the stream');
        });
      }
      // The reply replaces what was shown, in order; a later reply (after an overdue notice) follows
      // as new messages.
      const targets = moveOn([]);
      shownParts.length = 0;
      for (const [index, part] of rendered.entries()) {
        const target = targets[index];
        const edited =
          target !== undefined &&
          (await port.edit(target, part).then(
            () => true,
            // The message is gone (deleted by someone): post instead.
            (error: unknown) => void logger.debug({ err: error }, 'could not edit a message; posting'),
          ));
        if (!edited) await port.post(part, index);
      }
      // Parts the reply no longer needs (it came out shorter than what was written), and status
      // messages that could not be deleted before.
      for (const id of [...targets.slice(rendered.length), ...undeleted.splice(0)]) await removeOrNote(id);
      if (statusLineShown && statusLine) {
        statusLineShown = false;
        await clearStatusLine(statusLine).catch((error: unknown) =>
          logger.debug({ err: error }, 'could not clear the status'),
        );
      }
    },
  };
}
