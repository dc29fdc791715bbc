/**
 * What a platform refused where, learnt once per place and shared by all its surfaces there, so that
 * nothing it refused is tried again in that place: its text stream (answers are edited messages
 * there), an answer's plan (the text streams alone), a message's richer form (its simpler form is sent
 * at once). A status line is tried by the first turn in a place; turns starting together wait for that
 * one try rather than each trying.
 */
export type RefusableFeature = 'stream' | 'plan' | 'richer-form';

export class PlaceRefusals {
  private readonly refused = new Map<RefusableFeature, Set<string>>();
  private readonly statusLineTries = new Map<string, Promise<boolean>>();

  refuses(feature: RefusableFeature, place: string): boolean {
    return this.refused.get(feature)?.has(place) === true;
  }

  learn(feature: RefusableFeature, place: string): void {
    const places = this.refused.get(feature) ?? new Set<string>();
    places.add(place);
    this.refused.set(feature, places);
  }

  /** The first try of the status line in `place`, once made: whether the platform took it. */
  statusLineTry(place: string): Promise<boolean> | undefined {
    return this.statusLineTries.get(place);
  }

  /** Records the first try of the status line in `place` (later ones wait for it). */
  tryingStatusLine(place: string, tried: Promise<boolean>): void {
    if (!this.statusLineTries.has(place)) this.statusLineTries.set(place, tried);
  }
}

/** The refusals a surface learns from and adds to: the platform's, and the surface's place. */
export interface RefusalsHere {
  readonly learnt: PlaceRefusals;
  readonly place: string;
}
