/**
 * Slack's delivery receipts held back until the turn is safe (`turns/held-receipts.ts`): Bolt
 * acknowledges an Events API envelope before any listener runs, so this receiver wraps Bolt's own
 * (Socket Mode or HTTP) and sends the acknowledgement when the core's held receipt goes, at the latest
 * after `maxHoldMs`, inside Slack's 3 s.
 */
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import { withHeldReceipt } from '../../turns/held-receipts.ts';

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
        if ((event.body as { type?: unknown } | null)?.type !== 'event_callback')
          return app.processEvent(event);
        let response: Parameters<ReceiverEvent['ack']>[0];
        // An error path of Bolt's receiver may have answered already: that is logged, never thrown.
        const send = () =>
          void Promise.resolve()
            .then(() => event.ack(response))
            .catch(onError);
        const held: ReceiverEvent = {
          ...event,
          ack: async (value) => {
            response = value;
          },
        };
        return withHeldReceipt(send, maxHoldMs, () => app.processEvent(held));
      };
      inner.init({ processEvent } as unknown as App);
    },
    start: (...args: unknown[]) => inner.start(...args),
    stop: (...args: unknown[]) => inner.stop(...args),
  };
}
