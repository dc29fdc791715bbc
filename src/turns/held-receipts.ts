/**
 * A platform's delivery receipt held back until the turn is safe. A platform that acknowledges a
 * delivery before its listeners run loses the message for good when the process dies right after (it
 * never sends an acknowledged event again, and no turn record exists to take over). So the receipt
 * goes when the listeners are done with the delivery — or, for a question, when the runner has
 * claimed it and recorded its turn (`holdReceipt`, given to the runner as `IncomingMessage.holdReceipt`)
 * — and at the latest after `maxHoldMs`, inside the platform's own deadline. A delivery acknowledged
 * late or never is sent again; the shared claim drops the duplicate.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Delivery {
  release(): void;
  /** True once a listener took the receipt over. */
  held: boolean;
}

const deliveries = new AsyncLocalStorage<Delivery>();

/**
 * Called by a listener that hands its delivery on (a question to the runner): the receipt waits for
 * the returned function instead of the listener's end. Outside a delivery it does nothing.
 */
export function holdReceipt(): () => void {
  const delivery = deliveries.getStore();
  if (!delivery) return () => {};
  delivery.held = true;
  return () => delivery.release();
}

/** Runs one delivery's listeners (`work`) and calls `send` once, as described above. */
export function withHeldReceipt<T>(send: () => void, maxHoldMs: number, work: () => Promise<T>): Promise<T> {
  let sent = false;
  const sendOnce = () => {
    if (sent) return;
    sent = true;
    clearTimeout(timer);
    send();
  };
  const timer = setTimeout(sendOnce, maxHoldMs);
  const delivery: Delivery = { release: sendOnce, held: false };
  return deliveries.run(delivery, work).finally(() => {
    if (!delivery.held) sendOnce();
  });
}
