/**
 * Sends a payload in the richest form a platform takes: its variants in order (rich blocks, simpler
 * blocks, plain text) for as long as the platform refuses the one before, so that a format it does not
 * take never leaves a frozen status or a silent thread. Any other error is thrown at once, and the last
 * variant's refusal too: there is nothing simpler left to try.
 */
export async function sendWithFallbacks<Variant, Result>(
  // Never empty: at least one variant is tried (the simplest one may be given last, after a list).
  variants: readonly [Variant, ...Variant[]] | readonly [...Variant[], Variant],
  send: (variant: Variant) => Promise<Result>,
  refuses: (error: unknown) => boolean,
): Promise<Result> {
  let refusal: unknown;
  for (const variant of variants) {
    try {
      return await send(variant);
    } catch (error) {
      if (!refuses(error)) throw error;
      refusal = error;
    }
  }
  throw refusal;
}
