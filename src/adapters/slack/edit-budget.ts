/**
 * A shared budget for progress edits (status message edits and assistant status updates). Slack
 * allows `chat.update` about 50 times a minute per workspace, and a rate-limited call pauses every
 * other call of the client — answers included. So progress edits take a token from this bucket and
 * are simply skipped when it is empty; answers and results never wait for it.
 */
export interface EditBudget {
  /** True if an edit may be sent now (and counts it). */
  tryTake(): boolean;
}

export function createEditBudget(perMinute: number, burst: number, now: () => number = Date.now): EditBudget {
  let tokens = burst;
  let last = now();
  return {
    tryTake: () => {
      const current = now();
      tokens = Math.min(burst, tokens + ((current - last) / 60_000) * perMinute);
      last = current;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
