/**
 * Slack delivery receipts held back until the turn is safe. Bolt acknowledges an Events API envelope
 * before any listener runs; a replica that died right after that lost the message for good (Slack never
 * sends an acknowledged event again, and no turn record existed to take over). This receiver wraps
 * Bolt's own (Socket Mode or HTTP) and sends the acknowledgement only when the listener is done with
 * the event — or, for a question, when the turn runner has claimed it and recorded its turn
 * (`holdAcknowledgement`) — and at the latest after `maxHoldMs`, inside Slack's 3 s.
 * A delivery acknowledged late or never is sent again by Slack; the shared claim drops the duplicate.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';

interface Delivery {
  /** Sends the acknowledgement (once). */
  release(): void;
  /** True once a listener took the acknowledgement over. */
  held: boolean;
}

const deliveries = new AsyncLocalStorage<Delivery>();

/**
 * Called by a listener that hands its event on (a question to the turn runner): the acknowledgement waits
 * for the returned function instead of the listener's end. Outside a delivery it does nothing.
 */
export function holdAcknowledgement(): () => void {
  const delivery = deliveries.getStore();
  if (!delivery) return () => {};
  delivery.held = true;
  return () => delivery.release();
}

/** Slack asks for an acknowledgement within 3 s; past this the receipt goes anyway. */
const defaultMaxHoldMs = 2_500;

export function withHeldAcknowledgements(
  inner: Receiver,
  onError: (error: unknown) => void,
  maxHoldMs = defaultMaxHoldMs,
): Receiver {
  return {
    init(app: App) {
      const processEvent = (event: ReceiverEvent) => {
        // Only Events API envelopes: commands, actions and views answer through their own ack.
        if (!isEventCallback(event.body)) return app.processEvent(event);
        let response: Parameters<ReceiverEvent['ack']>[0];
        let sent = false;
        const send = () => {
          if (sent) return;
          sent = true;
          clearTimeout(timer);
          // An error path of Bolt's receiver may have answered already: that is logged, never thrown.
          Promise.resolve()
            .then(() => event.ack(response))
            .catch(onError);
        };
        const timer = setTimeout(send, maxHoldMs);
        const delivery: Delivery = { release: send, held: false };
        const held: ReceiverEvent = {
          ...event,
          ack: async (value) => {
            response = value;
          },
        };
        return deliveries
          .run(delivery, () => app.processEvent(held))
          .finally(() => {
            if (!delivery.held) send();
          });
      };
      inner.init({ processEvent } as unknown as App);
    },
    start: (...args: unknown[]) => inner.start(...args),
    stop: (...args: unknown[]) => inner.stop(...args),
  };
}

function isEventCallback(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'event_callback';
}
