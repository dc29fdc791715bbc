// Moved to the core (src/replies/); kept for importers until the merge.
export * from '../../replies/shorten-text.ts';
