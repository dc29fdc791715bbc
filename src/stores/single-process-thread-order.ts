/**
 * Thread order for one process alone (the SQLite store): its conversations already queue a thread's
 * turns in the process, so a turn runs at once; only its acknowledged location is recorded (through
 * the store's own `moveTurn`), so a crash is told where the thread shows its status. A failed write
 * is reported and the turn runs anyway (never a silent thread).
 */
import type { ThreadOrder } from '../core/thread-order.ts';
import type { TurnRecords } from '../core/turn-records.ts';

export function singleProcessThreadOrder(records: Pick<TurnRecords, 'moveTurn'>): ThreadOrder {
  return {
    runInThreadOrder: async (turn, work, events) => {
      try {
        await records.moveTurn(turn.key, turn.location);
      } catch (error) {
        events?.onStoreError?.(error, 'move the turn');
      }
      return { ran: true, result: await work() };
    },
    recordsHoldThreads: false,
  };
}
