export async function runCorpusBench(): Promise<void> {}
