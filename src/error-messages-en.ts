/**
 * The sentences of ragent's errors, in English, one entry per error code (src/errors.ts) in the same
 * groups. A code met in several situations has one sentence per situation, named after it. Each entry
 * takes the facts its sentence needs, typed, and returns the sentence shown to a person as is: what
 * happened and what to do. Throw sites pass facts, never sentences:
 * `new RagentError('FILE_EMPTY', errorMessages.FILE_EMPTY.noBytes({ name }))`.
 *
 * This file is on the ground floor: it imports nothing but types, so any layer may use it. The chat's
 * own sentences (status lines, replies, help) are in src/turns/messages-en.ts. The sentences only one
 * platform says are in its part of this catalogue: src/platforms/slack/slack-error-messages-en.ts and
 * src/platforms/discord/discord-error-messages-en.ts.
 */
import type { ErrorCode } from './error-codes.ts';

/** One sentence: the facts it names in, the sentence out. */
type ErrorSentence = (facts: never) => string;

/**
 * The shape of a catalogue: per code, a sentence or a sentence per situation. Each platform keeps the
 * sentences only it says (its settings, its hosts, its permissions) in a part of this catalogue of the
 * same shape under src/platforms/<platform>/, since no code outside the platform folders names one.
 */
export type ErrorCatalogue = Partial<Record<ErrorCode, ErrorSentence | Record<string, ErrorSentence>>>;

/** A chat file's download that failed, and what to do. */
const couldNotDownload = (name: string, reason: string) =>
  `Could not download ${name}: ${reason}. Try sharing it again.`;

/**
 * A chat platform's API that could not be reached at start (or answered not as the platform does),
 * worded alike for every platform: `apiUrlVariable` names the test URL set instead of its own address.
 */
export const platformUnreachable =
  (label: string, apiUrlVariable: string) =>
  ({ apiUrl, reason }: { apiUrl: string | undefined; reason: string }) =>
    `Could not reach ${label}${apiUrl ? ` at ${apiUrl}` : ''} (${reason}). ` +
    `Check the network${apiUrl ? ` and ${apiUrlVariable}` : ''}, then start again.`;

/** A model server as a sentence names it. */
const modelServerName = { ollama: 'Ollama', openai: 'The model server' } as const;
type ModelProvider = keyof typeof modelServerName;
const modelCredentials = {
  ollama: 'OLLAMA_API_KEY or OLLAMA_HEADERS (for a proxy in front of Ollama)',
  openai: 'OPENAI_API_KEY',
} as const;
/** " after 3 tries" when a call was retried, else nothing. */
const afterTries = (attempts: number | undefined) =>
  attempts && attempts > 1 ? ` after ${attempts} tries` : '';

/**
 * A model server's failures while embedding or answering, worded alike for every server: `embedder`
 * opens the dimensions sentence, `embedVariable` names the setting, `log` is where to look.
 */
function modelServerFailed(provider: ModelProvider, embedder: string, embedVariable: string, log: string) {
  const server = modelServerName[provider];
  return {
    embeddingDimensionsChanged: ({ model, to, from }: { model: string; to: number; from: number }) =>
      `${embedder} ${model} returned vectors of ${to} dimensions after ${from}. ` +
      `Check that ${embedVariable} names one model and try again.`,
    timeout: ({ task, model, attempts }: { task: string; model: string; attempts: number | undefined }) =>
      `${server} did not answer in time while ${task} (model "${model}"${afterTries(attempts)}). It may be ` +
      'overloaded or still loading the model; try again in a moment.',
    failed: ({
      task,
      model,
      reason,
      attempts,
    }: {
      task: string;
      model: string;
      reason: string;
      attempts: number | undefined;
    }) =>
      `${server} failed while ${task} (model "${model}": ${reason}${afterTries(attempts)}). Try again in a ` +
      `moment; if it keeps failing, check ${log}.`,
  };
}

export const errorMessages = {
  // ── Configuration and the network: settings that do not parse, outside services that cannot be reached.
  CONFIG_INVALID: {
    dataDirUncreatable: ({ dataDir, reason }: { dataDir: string; reason: string }) =>
      `The data directory ${dataDir} cannot be created (${reason}). ` +
      'Set RAGENT_DATA_DIR to a directory this user can write, then run ragent doctor.',
    settings: ({ lines }: { lines: readonly string[] }) => `Invalid configuration:\n- ${lines.join('\n- ')}`,
    /** `missing`: "SLACK_BOT_TOKEN is not" or "neither A nor B is" (platforms/setting-needs.ts). */
    settingMissing: ({ label, missing, fix }: { label: string; missing: string; fix: readonly string[] }) =>
      `${label} cannot start: ${missing} set. ${fix.join(' ')}`,
  },

  // ── Model servers: Ollama or an OpenAI-compatible server, for chat and embeddings.
  OLLAMA_UNREACHABLE: ({ reason }: { reason: string }) =>
    `Could not reach Ollama (${reason}). Start it (\`ollama serve\`) or fix OLLAMA_BASE_URL, then try again.`,
  OLLAMA_MODEL_MISSING: ({ model, modelVariable }: { model: string; modelVariable: string }) =>
    `The model "${model}" is not available on Ollama. Pull it with \`ollama pull ${model}\`, or set ${modelVariable} to a model you have.`,
  OLLAMA_FAILED: modelServerFailed('ollama', "Ollama's", 'OLLAMA_EMBED_MODEL', 'the Ollama log'),
  OPENAI_UNREACHABLE: ({ reason }: { reason: string }) =>
    `Could not reach the model server (${reason}). Start the server or fix OPENAI_BASE_URL, then try again.`,
  OPENAI_MODEL_MISSING: ({ model, modelVariable }: { model: string; modelVariable: string }) =>
    `The model "${model}" is not available on the model server. Load it on the server (see its /v1/models), or set ${modelVariable} to a model you have.`,
  OPENAI_FAILED: modelServerFailed('openai', 'The embedding model', 'OPENAI_EMBED_MODEL', 'the server log'),
  MODEL_AUTH_FAILED: ({ provider, reason }: { provider: ModelProvider; reason: string }) =>
    `${modelServerName[provider]} refused ragent's credentials (${reason}). Check ${modelCredentials[provider]}.`,
  MODEL_RATE_LIMITED: ({ provider, attempts }: { provider: ModelProvider; attempts: number | undefined }) =>
    `${modelServerName[provider]} is answering too many requests (rate limited${afterTries(attempts)}). Try again in a minute; ` +
    'if it keeps happening, lower RAGENT_LLM_CONCURRENCY or raise the limit of your plan.',
  MODEL_FEATURE_UNSUPPORTED: {
    tools: ({
      provider,
      model,
      reason,
      modelVariable,
    }: {
      provider: ModelProvider;
      model: string;
      reason: string;
      modelVariable: string;
    }) =>
      `${modelServerName[provider]} refused tool calling for the model "${model}" (${reason}). ragent needs a model ` +
      `that can call tools: set ${modelVariable} to one that can` +
      (provider === 'openai'
        ? ', and on vLLM start the server with --enable-auto-tool-choice and a --tool-call-parser (llama.cpp: --jinja).'
        : ' (e.g. granite4.1:8b or qwen3).'),
    jsonSchema: ({ provider, model, reason }: { provider: ModelProvider; model: string; reason: string }) =>
      `${modelServerName[provider]} refused JSON-schema output for the model "${model}" (${reason}). ragent needs ` +
      `structured output (${provider === 'openai' ? 'response_format json_schema' : 'format'}): use a server ` +
      `and model that support it, or set RAGENT_LLM_PROVIDER to the other provider.`,
  },
  MODEL_OUTPUT_INVALID: () =>
    'The language model gave a reply I could not use, twice in a row. Please ask again, perhaps in other words; if it keeps happening, try another chat model (OLLAMA_MODEL or OPENAI_MODEL).',

  // ── Index and search: the chunk index, embedded SQLite or Qdrant.
  QDRANT_UNREACHABLE: ({ reason }: { reason: string }) =>
    `Qdrant is not reachable (${reason}). Start it (e.g. \`docker run -p 6333:6333 qdrant/qdrant\`), ` +
    'fix QDRANT_URL, or unset QDRANT_URL to use the embedded index.',
  QDRANT_FAILED: {
    apiKeyRefused: ({ reason }: { reason: string }) =>
      `Qdrant refused ragent's API key (${reason}). Check QDRANT_API_KEY.`,
    operationFailed: ({ what, collection, reason }: { what: string; collection: string; reason: string }) =>
      `Qdrant failed to ${what} in collection "${collection}": ${reason}. ` +
      'Check the Qdrant log and QDRANT_API_KEY, then try again.',
    partsMissing: ({
      parentsFound,
      parents,
      childrenFound,
      children,
      name,
    }: {
      parentsFound: number;
      parents: number;
      childrenFound: number;
      children: number;
      name: string;
    }) =>
      `Qdrant returned ${parentsFound} of ${parents} parts and ${childrenFound} of ` +
      `${children} chunks of ${name}, so it was not re-indexed (it is searched as before). ` +
      'Check the Qdrant log and try again, or ingest the file again with `ragent ingest --force`.',
  },
  INDEX_MODEL_MISMATCH: {
    reindexOtherModel: ({ model }: { model: string }) =>
      `The index holds vectors of another embedding model than ${model}. ` +
      'Run `ragent reindex` without a scope or document to embed every document with the new model.',
    modelChanged: ({
      index,
      indexEmbedding,
      wantedEmbedding,
      indexModel,
      reindex,
    }: {
      index: string;
      indexEmbedding: string;
      wantedEmbedding: string;
      indexModel: string;
      reindex: string;
    }) =>
      `${index} was built with the embedding model ${indexEmbedding}, ` +
      `but ${wantedEmbedding} is in use now; vectors of two models are never mixed. ` +
      `Set OLLAMA_EMBED_MODEL=${indexModel} again, or reindex: ${reindex}`,
    collectionWithoutVectors: ({ collection }: { collection: string }) =>
      `The Qdrant collection "${collection}" was created for BM25 only, without dense vectors. ` +
      'Delete the collection (or set QDRANT_COLLECTION to a new name) and ingest again, ' +
      'or keep RAGENT_EMBEDDINGS=none.',
    denseSizesDiffer: ({
      name,
      dimension,
      otherDimension,
    }: {
      name: string;
      dimension: number;
      otherDimension: number;
    }) =>
      `Chunks of ${name} have dense vectors of different sizes (${dimension} and ${otherDimension}). ` +
      'Check OLLAMA_EMBED_MODEL and ingest the file again.',
  },
  INDEX_SCHEMA_MISMATCH: ({
    file,
    version,
    schemaVersion,
  }: {
    file: string;
    version: string;
    schemaVersion: string;
  }) =>
    `The index at ${file} has format ${version}; this ragent uses ${schemaVersion}. ` +
    'Delete that file and ingest your documents again.',
  INDEX_NOT_WRITABLE: ({ what, file }: { what: string; file: string }) =>
    `The index ${what} cannot be written (${file}). Give ragent write access to its data directory ` +
    '(RAGENT_DATA_DIR) and free disk space there, then try again.',

  // ── Database and replicas: PostgreSQL when DATABASE_URL is set.
  DATABASE_UNREACHABLE: ({ address }: { address: string }) =>
    `PostgreSQL is not reachable at ${address}. Start it, fix DATABASE_URL, or unset DATABASE_URL to run one process on SQLite.`,
  DATABASE_AUTH_FAILED: ({ address }: { address: string }) =>
    `PostgreSQL at ${address} refused the user name or password in DATABASE_URL. Fix the credentials in DATABASE_URL.`,
  DATABASE_MISSING: ({ address }: { address: string }) =>
    `The database in DATABASE_URL does not exist on ${address}. Create it (e.g. \`createdb ${address.split('/')[1]}\`) or fix DATABASE_URL.`,
  DATABASE_SCHEMA_OLD: {
    newerThanRagent: ({
      address,
      applied,
      schemaVersion,
    }: {
      address: string;
      applied: number;
      schemaVersion: number;
    }) =>
      `The database at ${address} has schema version ${applied}, newer than this ragent knows (${schemaVersion}). Upgrade ragent on every replica.`,
    olderThanRagent: ({
      address,
      applied,
      schemaVersion,
    }: {
      address: string;
      applied: number;
      schemaVersion: number;
    }) =>
      `The database at ${address} has schema version ${applied}; this ragent needs ${schemaVersion}. Start ragent once (\`ragent start\` migrates it) and run the doctor again.`,
  },
  DATABASE_LOST: ({ address }: { address: string }) =>
    `The connection to PostgreSQL at ${address} was lost. Check that the server is running; ragent takes no new work until it is back.`,
  DATABASE_FAILED: ({ address, what, reason }: { address: string; what: string; reason: string }) =>
    `PostgreSQL at ${address} failed to ${what}: ${reason}. Check the PostgreSQL log.`,

  // ── Files and formats: a file that is empty, too large, of an unread type, or damaged.
  FILE_EMPTY: {
    noBytes: ({ name }: { name: string }) => `${name} is empty (0 bytes). Check the file and try again.`,
    noText: ({ name }: { name: string }) => `${name} has no text in it. Check the file and try again.`,
  },
  FILE_TOO_LARGE: ({ name, size, limit }: { name: string; size: string; limit: string }) =>
    `${name} is ${size}, over the ${limit} limit. Split it, or raise RAGENT_MAX_FILE_MB.`,
  FILE_UNSUPPORTED: {
    oldOffice: ({ name }: { name: string }) =>
      `${name} is an old binary Office file (.doc, .xls or .ppt), which ragent does not read. Save it as ` +
      '.docx, .xlsx or .pptx and ingest that.',
    imageMisnamed: ({
      name,
      claimed,
      format,
      extension,
    }: {
      name: string;
      claimed: string;
      format: string;
      extension: string;
    }) =>
      `${name} is named .${claimed} but is a ${format} image. Rename it to ` +
      `${extension} to ingest it as an image (its text is read with OCR).`,
    unknownType: ({ name, supportedTypesText }: { name: string; supportedTypesText: string }) =>
      `${name} is not a file type ragent reads. Supported: ${supportedTypesText}.`,
    otherKind: ({
      name,
      extension,
      actualName,
      claimedName,
      rename,
    }: {
      name: string;
      extension: string;
      actualName: string;
      claimedName: string;
      rename: string | undefined;
    }) =>
      `${name} is named .${extension} but is ${actualName}, not ${claimedName}.` +
      (rename ? ` Rename it to ${rename} to ingest it.` : ''),
    plainText: ({ name, extension, claimedName }: { name: string; extension: string; claimedName: string }) =>
      `${name} is named .${extension} but is not ${claimedName}: its content is plain text. Rename it to .txt ` +
      `(or .md) to ingest it as text, or export the document as ${extension === 'pdf' ? 'a real PDF' : `a real .${extension} file`}.`,
    delimitedUnreadable: ({
      name,
      tab,
      line,
      reason,
    }: {
      name: string;
      tab: boolean;
      line: number;
      reason: string;
    }) =>
      `${name} could not be read as ${tab ? 'TSV' : 'CSV'} near row ${line}: ${reason}. ` +
      'Check the file (quotes must be closed) and try again.',
    notPdf: ({ name }: { name: string }) =>
      `${name} is named .pdf but is not a PDF (it does not start with %PDF-). Export or download the ` +
      'document again as a PDF.',
    notOfficeZip: ({
      name,
      extension,
      claimedName,
    }: {
      name: string;
      extension: string;
      claimedName: string;
    }) =>
      `${name} is named .${extension} but is not ${claimedName} (it is not a zip with the parts that ` +
      `format has). Save or download it again as .${extension}.`,
  },
  PDF_CORRUPT: ({ name }: { name: string }) =>
    `${name} is damaged and cannot be read as a PDF. Re-export or re-download it and try again.`,
  PDF_ENCRYPTED: ({ name }: { name: string }) =>
    `${name} is password-protected. Remove the password (e.g. print it to a new PDF) and ingest it again.`,
  PDF_NO_TEXT: {
    ocrFoundNothing: ({ name, languages }: { name: string; languages: readonly string[] }) =>
      `${name} has no text layer (it looks like a scan), and OCR found no text on its pages (read as ` +
      `${languages.join('+')}). If it holds text, scan it again sharper (300 dpi), or set ` +
      'RAGENT_OCR_LANGS to its language.',
    ocrOff: ({ name }: { name: string }) =>
      `${name} has no text layer (it looks like a scan), and OCR is switched off here (RAGENT_OCR=off). ` +
      'Ingest a PDF with selectable text, or ask the operator to switch OCR on.',
  },
  OFFICE_ENCRYPTED: ({ name }: { name: string }) =>
    `${name} is protected with a password, so it cannot be read. Save a copy without the password ` +
    '(in its application: remove the password under its protection or encryption settings) and ingest that.',
  OFFICE_CORRUPT: {
    wordUnreadable: ({ name, reason }: { name: string; reason: string }) =>
      `${name} could not be read as a Word document (${reason}). Save it again from Word or LibreOffice.`,
    noContentXml: ({ name }: { name: string }) =>
      `${name} could not be read: it has no content.xml. Save the file again from its application.`,
    noBody: ({ name, bodyTag }: { name: string; bodyTag: string }) =>
      `${name} could not be read: its content.xml has no ${bodyTag}. Save the file again from its application.`,
    noPresentationXml: ({ name }: { name: string }) =>
      `${name} could not be read: it has no ppt/presentation.xml. Save the file again from its application.`,
    xmlMalformed: ({ name, entry }: { name: string; entry: string }) =>
      `${name} could not be read: its ${entry} is not well-formed XML. Save the file again from its application.`,
    entryMissing: ({ name, entry }: { name: string; entry: string }) =>
      `${name} could not be read: it has no ${entry}. Save the file again from its application.`,
    zipDamaged: ({ name }: { name: string }) =>
      `${name} could not be read: its zip container is damaged or cut short. Save or download it again.`,
  },
  XML_DOCTYPE_REFUSED: ({ name, entry }: { name: string; entry: string }) =>
    `${name} was refused: its ${entry} declares a document type (DOCTYPE), which Office files never ` +
    'need and which can expand entities or read outside files; nothing was added. Save the file again ' +
    'from its application.',
  IMAGE_CORRUPT: {
    headerUnreadable: ({ name }: { name: string }) =>
      `${name} is damaged: its size cannot be read from its header. Save or scan it again and try again.`,
    noSize: ({ name }: { name: string }) => `${name} declares no width or height. Save or scan it again.`,
  },

  // ── OCR: reading the text of images and scans.
  IMAGE_NO_TEXT: ({ name, languages }: { name: string; languages: readonly string[] }) =>
    `No text was found in ${name} (read as ${languages.join('+')}). If it holds text, scan it ` +
    'again sharper (300 dpi), or set RAGENT_OCR_LANGS to its language.',
  IMAGE_TOO_LARGE: ({
    name,
    width,
    height,
    size,
    limit,
  }: {
    name: string;
    width: number;
    height: number;
    size: string;
    limit: string;
  }) =>
    `${name} is ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels ` +
    `(${size}), over the limit of ${limit}; nothing was added. ` +
    'Scale it down (300 dpi is plenty for OCR), or raise RAGENT_OCR_MAX_MEGAPIXELS.',
  OCR_OFF: ({ name }: { name: string }) =>
    `${name} is an image, and reading the text of images (OCR) is switched off here (RAGENT_OCR=off). ` +
    'Ask the operator to switch it on, or ingest the document as a PDF with selectable text.',
  OCR_LANGUAGE_MISSING: {
    packageMissing: ({ code, packageName }: { code: string; packageName: string }) =>
      `OCR language "${code}" (RAGENT_OCR_LANGS) needs the npm package ${packageName}, which is not installed. ` +
      `Install it (npm install --save-exact ${packageName}) or remove "${code}" from RAGENT_OCR_LANGS.`,
    dataMissing: ({
      packageName,
      code,
      builds,
    }: {
      packageName: string;
      code: string;
      builds: readonly string[];
    }) =>
      `The package ${packageName} has no ${code}.traineddata.gz (looked in ${builds.join(', ')}). ` +
      `Reinstall it (npm install --save-exact ${packageName}).`,
  },
  OCR_PAGE_TIMEOUT: ({ where, seconds }: { where: string; seconds: number }) =>
    `Recognising the text of ${where} took longer than ${seconds} s, ` +
    'the limit; nothing was added. Scan it at a lower resolution, or raise RAGENT_OCR_PAGE_SECONDS.',
  OCR_FAILED: {
    page: ({ where }: { where: string }) =>
      `The text of ${where} could not be recognised (the image may be damaged); nothing was added. ` +
      'Save or scan it again as PNG or JPEG and try again.',
    engineUnavailable: ({ reason }: { reason: string }) =>
      `OCR could not start here (${reason}). ` +
      "Reinstall ragent's packages (npm ci), or set RAGENT_OCR=off.",
  },

  // ── Ingest limits: the bounds every reader of outside input keeps.
  INGEST_TOO_MANY_PAGES: ({ name, pages, limit }: { name: string; pages: string; limit: string }) =>
    `${name} has ${pages} pages, over the limit of ${limit}. Split it, or raise RAGENT_MAX_PAGES.`,
  INGEST_TEXT_TOO_LARGE: ({ name, limit }: { name: string; limit: string }) =>
    `${name} holds more than ${limit} of text, the limit. ` +
    'Split it, or raise RAGENT_MAX_TEXT_MB if it really is that long.',
  INGEST_CONTENT_TOO_LARGE: ({ name, limit }: { name: string; limit: string }) =>
    `${name} has a compressed stream that inflates to more than ${limit}, ` +
    'over the RAGENT_MAX_TEXT_MB limit; nothing was added. Check the file (it may be built to exhaust ' +
    'memory), or raise RAGENT_MAX_TEXT_MB.',
  INGEST_TOO_MANY_CHUNKS: ({ name, chunks, limit }: { name: string; chunks: string; limit: string }) =>
    `${name} makes ${chunks} chunks, over the limit of ${limit}. Split it, or raise RAGENT_MAX_CHUNKS.`,
  INGEST_TIMEOUT: ({ name, seconds }: { name: string; seconds: number }) =>
    `Reading ${name} took longer than ${seconds} s, the limit; nothing was added. ` +
    'Split it, or raise RAGENT_INGEST_TIMEOUT_S if it is a large but ordinary file.',
  INGEST_OUT_OF_MEMORY: ({ name, limitMb }: { name: string; limitMb: string }) =>
    `Reading ${name} needed more than ${limitMb} MB of memory, the limit of a PDF ` +
    'reader; nothing was added. Check the file (it may be built to exhaust memory), or raise ' +
    'RAGENT_INGEST_MEMORY_MB.',
  INGEST_CANCELLED: ({ name }: { name: string }) => `Ingesting ${name} was cancelled; nothing was added.`,
  ZIP_TOO_LARGE: ({ name, size, limit }: { name: string; size: string; limit: string }) =>
    `${name} would unpack to ${size}, over the ${limit} limit; ` +
    'nothing was added. Check the file (it may be built to exhaust memory), or raise RAGENT_MAX_UNZIPPED_MB.',
  ZIP_TOO_MANY_ENTRIES: ({ name, entries, limit }: { name: string; entries: string; limit: string }) =>
    `${name} holds ${entries} files inside, over the limit of ${limit}; ` +
    'nothing was added. Check the file, or raise RAGENT_MAX_ZIP_ENTRIES.',
  SHEET_TOO_MANY_ROWS: ({ name, limit, sheet }: { name: string; limit: string; sheet: string }) =>
    `${name} has more than ${limit} rows in ${sheet}, the limit; nothing was added. ` +
    'Split the sheet, or raise RAGENT_MAX_ROWS.',

  // ── Documents and sets: documents, verified answers, scopes, channel links and who may change them.
  DOCUMENT_NOT_FOUND: {
    byName: ({ wanted, scope }: { wanted: string; scope: string }) =>
      `No document "${wanted}" in ${scope}. List them with \`ragent docs list --scope ${scope}\`.`,
    byId: ({ documentId, from }: { documentId: string; from: string }) =>
      `No document ${documentId.slice(0, 12)} in ${from} (it may have just been removed or moved). ` +
      `List them with \`ragent docs list --scope ${from}\`.`,
    /** Asked for in a chat, in the sets the channel searches. */
    here: ({ wanted }: { wanted: string }) => `No document "${wanted}" here.`,
    /** `set`, `alreadyIn`: a set as the chat names it ("this channel's documents"). */
    moveFrom: ({ wanted, set }: { wanted: string; set: string }) =>
      `No document "${wanted}" in ${set}. /ragent docs lists what this channel searches.`,
    moveAlreadyIn: ({ wanted, alreadyIn }: { wanted: string; alreadyIn: string }) =>
      `${wanted} is already in ${alreadyIn}.`,
  },
  VERIFIED_ANSWER_NOT_FOUND: ({ id }: { id: string }) =>
    `There is no verified answer with the id "${id}". \`ragent answers list\` shows their ids.`,
  DOCUMENT_NAME_TAKEN: ({ to, what, existing }: { to: string; what: string; existing: string }) =>
    `${to} already has ${what}. Nothing was moved: remove one of the two first ` +
    `(\`ragent docs remove ${existing} --scope ${to}\`), then move again.`,
  DOCUMENT_CHANGED: ({ name, scope }: { name: string; scope: string }) =>
    `${name} in ${scope} was replaced or removed while it was being re-indexed; ` +
    'the newer state is kept. Run `ragent reindex` again if it still needs it.',
  MOVE_REFUSED: {
    alreadyThere: ({ scope }: { scope: string }) => `The document is already in ${scope}: nothing to move.`,
    otherPlace: ({ from, to }: { from: string; to: string }) =>
      `A document moves only between the sets of one workspace or server (or to and from shared): ` +
      `${from} and ${to} are not in the same one. Ingest the file in ${to} instead.`,
    /** `placeName`: how the platform names its place (`workspace`, `server`). */
    needsChannel: ({ placeName }: { placeName: string }) =>
      `Use this command in a channel: a document moves between a channel's documents and the ${placeName}'s.`,
  },
  SCOPE_EMPTY: {
    noDocumentsInScope: ({ scope }: { scope: string }) =>
      `There are no documents in ${scope} yet, so there is nothing to answer from. Add some with ` +
      `\`npx ragent ingest <files> --scope ${scope}\`, then ask again.`,
    noDocumentsInScopes: ({ scopes }: { scopes: readonly string[] }) =>
      `There are no documents in ${scopes.join(', ')} yet, so there is nothing to answer from. ` +
      'Add some with `ragent ingest <files> --scope <scope>`, then ask again.',
  },
  SCOPE_NOT_ALLOWED: ({ scope, allowed }: { scope: string; allowed: readonly string[] }) =>
    `The scope "${scope}" is not open to this server; it searches only ${allowed.join(', ')}. ` +
    `Leave "scope" out or pick one of those; to open another, restart \`ragent mcp\` with --scope ${scope}.`,
  LINK_REFUSED: {
    /** `placeName`: how the platform names its place (`workspace`, `server`). */
    acrossPlaces: ({ placeName }: { placeName: string }) =>
      `A channel can only use the documents of another channel in this ${placeName}.`,
    sameChannel: () => 'A channel always searches its own documents: pick another channel to use.',
  },

  // ── Web fetching and downloads: files from a chat, pages and files from the web.
  FETCH_INVALID_URL: ({ url, reason }: { url: string; reason: string }) =>
    `${url.length > 200 ? `${url.slice(0, 200)}…` : url} cannot be fetched: ${reason}. Give an http:// or https:// address.`,
  FETCH_ADDRESS_REFUSED: ({ url, hostname, shown }: { url: string; hostname: string; shown: string }) =>
    `${url} leads to ${hostname === shown ? shown : `${hostname} (${shown})`}, a private, loopback or ` +
    'link-local address, which ragent does not fetch for a chat; nothing was added. An operator can ' +
    'allow it in RAGENT_FETCH_ALLOW, or ingest it with `ragent ingest <url>` on the server.',
  FETCH_TOO_MANY_REDIRECTS: ({ url, limit }: { url: string; limit: number }) =>
    `${url} redirects more than ${limit} times (the limit); nothing was added. ` +
    'Give the address it finally leads to.',
  FETCH_TOO_LARGE: ({ url, megabytes }: { url: string | URL; megabytes: number }) =>
    `${url} is larger than ${megabytes} MB, the limit (RAGENT_FETCH_MAX_MB); nothing was added. ` +
    'Download it and ingest the file, or raise RAGENT_FETCH_MAX_MB.',
  FETCH_TIMEOUT: ({ url, seconds }: { url: string; seconds: number }) =>
    `${url} did not arrive within ${seconds} s (RAGENT_FETCH_TIMEOUT_S); ` +
    'nothing was added. Try again later, or raise RAGENT_FETCH_TIMEOUT_S for a slow site.',
  FETCH_UNSUPPORTED_TYPE: ({ url, mediaType }: { url: string | URL; mediaType: string }) =>
    `${url} is ${mediaType}, which ragent cannot read; nothing was added. Web pages (HTML), PDFs, ` +
    'Markdown, text, Office documents and e-mail can be ingested.',
  FETCH_FAILED: {
    unreadable: ({ url, reason }: { url: string; reason: string }) => `${url} could not be read: ${reason}`,
    unfetchable: ({ url, reason }: { url: string | URL; reason: string }) =>
      `${url} could not be fetched: ${reason}. Check the address, or try again later.`,
  },
  FETCH_ROBOTS_DISALLOWED: ({ origin, url }: { origin: string; url: URL }) =>
    `The robots.txt of ${origin} does not allow ragent to read ${url}; nothing was added. ` +
    'Ask the site owner, or ingest a saved copy of the page.',
  /** A file shared in a chat, downloaded from the platform's own file servers (`from`: its name). */
  DOWNLOAD_FAILED: {
    noLink: ({ name, from }: { name: string; from: string }) =>
      couldNotDownload(name, `${from} gave no download link for it`),
    hostRefused: ({ name, from }: { name: string; from: string }) =>
      couldNotDownload(
        name,
        `its download link does not point to ${from}, and the bot downloads only from ${from}'s own file servers`,
      ),
    redirectRefused: ({ name, from }: { name: string; from: string }) =>
      `${from} sent the download of ${name} to another address, so I did not follow it (I only download from ${from}'s own file servers). Share the file again; if it keeps happening, tell the operator.`,
    redirectWithoutTarget: ({ name, from }: { name: string; from: string }) =>
      couldNotDownload(name, `${from} redirected without a target`),
    tooManyRedirects: ({ name, from }: { name: string; from: string }) =>
      couldNotDownload(name, `${from} redirected too many times`),
    unreachable: ({ name, from }: { name: string; from: string }) =>
      `${couldNotDownload(name, `${from} could not be reached (the connection failed or took too long)`)} If it keeps failing, tell the operator.`,
    signInPage: ({ name, from }: { name: string; from: string }) =>
      couldNotDownload(
        name,
        `${from} sent a sign-in page instead of the file (the bot may lack the permission to read files)`,
      ),
    status: ({ name, from, status }: { name: string; from: string; status: number }) =>
      couldNotDownload(name, `${from} answered HTTP ${status}`),
    brokenOff: ({ name }: { name: string }) => couldNotDownload(name, 'the download broke off'),
  },

  // ── Answering: a turn that cannot be answered.
  ANSWER_TIMEOUT: {
    answer: ({ seconds }: { seconds: number }) =>
      `The answer took longer than ${seconds} s, so I stopped. Try a narrower question, or raise RAGENT_ANSWER_TIMEOUT_S.`,
    step: ({ seconds }: { seconds: number }) =>
      `A step of the answer took longer than ${seconds} s (Ollama may be overloaded), so I stopped. Try again, or raise RAGENT_NODE_TIMEOUT_S.`,
  },
  SHUTTING_DOWN: () => 'ragent is shutting down and takes no new questions. Ask again in a moment.',

  // ── Input: commands, options and files of questions that cannot be used as given.
  INVALID_INPUT: {
    answerFieldEmpty: ({ what }: { what: string }) => `The ${what} is empty: pass --${what} "…".`,
    answerFieldTooLong: ({ what, length, maxLength }: { what: string; length: number; maxLength: number }) =>
      `The ${what} is ${length.toLocaleString('en-US')} characters long; at most ${maxLength.toLocaleString('en-US')} fit.`,
    answerTooManySources: ({ count, maxSources }: { count: number; maxSources: number }) =>
      `${count} sources were given; a verified answer keeps at most ${maxSources}.`,
    answerSourcePageMissing: ({ name, scope, pages }: { name: string; scope: string; pages: number }) =>
      `${name} in ${scope} has ${pages} page${pages === 1 ? '' : 's'}: pass --source ${name}:<page> with a page from 1 to ${pages}.`,
    askQuestionEmpty: () => 'The question is empty: ragent ask "your question".',
    traceFileUnwritable: ({ file, reason }: { file: string; reason: string }) =>
      `Cannot write the trace file ${file}: ${reason}.`,
    threadNameInvalid: ({ name }: { name: string }) =>
      `The thread name "${name}" is not valid: use 1–64 letters, digits, dots, dashes or underscores.`,
    chatScopeEmpty: () => 'The scope is empty: pass --scope shared or another scope.',
    scopeAndAll: () => 'Use either --scope or --all, not both.',
    listAllUnsupported: () =>
      'This index cannot list every scope at once. List one with `ragent docs list --scope <scope>`.',
    fileUnreadable: ({ file, reason }: { file: string; reason: string }) => `Cannot read ${file}: ${reason}.`,
    noQuestions: ({ file }: { file: string }) => `${file} holds no questions.`,
    feedbackFormatUnknown: ({ format }: { format: string }) =>
      `Unknown format "${format}": use --format csv or jsonl.`,
    mcpTokenWithoutHttp: () => '--token is for --http: on stdio the client starts ragent itself.',
    mcpPortInvalid: ({ port }: { port: unknown }) =>
      `--http needs a port number from 0 to 65535 (got ${port}).`,
    mcpTokenMissing: ({ minTokenLength }: { minTokenLength: number }) =>
      `ragent mcp --http serves your documents to whoever can reach it, so it needs --token (or RAGENT_MCP_TOKEN) with at least ${minTokenLength} characters (for example \`openssl rand -hex 24\`).`,
    platformUnknown: ({ platform, platformChoices }: { platform: string; platformChoices: string }) =>
      `Unknown platform "${platform}": use --platform ${platformChoices}.`,
    searchCountInvalid: ({ value }: { value: unknown }) =>
      `--k must be a whole number from 1 to 100 (got ${value}).`,
    sinceInvalid: ({ text }: { text: string }) =>
      `"${text}" is neither a duration nor an ISO 8601 time: use e.g. --since 7d, --since 24h or --since 2026-11-01.`,
    backupSourceEmpty: ({ dataDir }: { dataDir: string }) =>
      `There is nothing to back up: ${dataDir} holds no ragent database. Check RAGENT_DATA_DIR.`,
    backupTargetTaken: ({ target, taken }: { target: string; taken: readonly string[] }) =>
      `${target} already holds ${taken.join(', ')}. Back up into a new or empty directory.`,
    conversationThreadMissing: () => 'A conversation needs a thread id.',
    conversationScopesMissing: () => 'A conversation needs at least one document scope to search.',
    conversationTextMissing: () => 'The message is empty: please write a question.',
    documentIdAmbiguous: ({ wanted, matches, scope }: { wanted: string; matches: number; scope: string }) =>
      `"${wanted}" matches ${matches} documents in ${scope}. Give more characters of the id.`,
    ocrLanguagesEmpty: () => 'RAGENT_OCR_LANGS names no language.',
    reindexUnsupported: () =>
      'This index cannot re-index from its stored text. Ingest the files again with `ragent ingest --force`.',
    evaluationLineNotJson: ({ line, source }: { line: number; source: string }) =>
      `Line ${line} of ${source} is not valid JSON. Fix it and run again.`,
    evaluationLineShape: ({ line, source }: { line: number; source: string }) =>
      `Line ${line} of ${source} needs {"question": "...", "evidence": ["..."], "doc": "file.pdf"} ` +
      '(evidence and doc are optional).',
    denseVectorsMissingOrUneven: ({ name }: { name: string }) =>
      `Some chunks of ${name} have no or other-sized dense vectors. Ingest the file again.`,
    denseVectorMissing: ({ name }: { name: string }) =>
      `Some chunks of ${name} have no dense vector. Ingest the file again.`,
  },

  // ── Storage: the data directory's disk.
  DISK_FULL: {
    saving: () =>
      "The server's disk is full, so I could not save this. Tell the operator (ragent's data directory needs free space), then try again.",
    starting: ({ dataDir }: { dataDir: string }) =>
      `The disk holding ragent's data directory (${dataDir}) is full, so its databases cannot be opened. Free space there (old backups, logs), then start ragent again.`,
  },
  DATA_NOT_WRITABLE: () =>
    "The server's data directory is read-only or not writable, so I could not save this. Tell the operator (ragent must be able to write its data directory), then try again.",

  // ── Internal: a bug or an unexpected failure: the details are in the log.
  INTERNAL: {
    backupIntegrity: ({ file, result }: { file: string; result: string }) =>
      `The backup ${file} failed its integrity check (${result}).`,
    /** `whatFailed`: one of errorMessageOpenings, or the caller's own opening sentence. */
    unexpected: ({ whatFailed }: { whatFailed: string }) => `${whatFailed} The details are in the log.`,
    answerWithoutResult: () => 'The answer ended without a result. Please ask again.',
    graphWithoutContext: () => 'The answer graph ran without its turn context. Please ask again.',
    /** A stop gave up on a job before its thread showed a status (logged; the next start tells it). */
    noStatusToReplace: () => 'The job has no status in its thread to replace yet.',
    pdfWorkerFailed: () => 'A PDF extraction worker failed. The details are in the log.',
    pdfWorkerExited: ({ code }: { code: number | null }) =>
      `A PDF extraction worker stopped early (exit code ${code}).`,
    readerFailed: ({ name }: { name: string }) =>
      `Reading ${name} failed unexpectedly. The details are in the log.`,
    readerThreadFailed: ({ name }: { name: string }) =>
      `A reader thread for ${name} failed. The details are in the log.`,
    readerThreadExited: ({ name, code }: { name: string; code: number | null }) =>
      `A reader thread for ${name} stopped early (exit code ${code}).`,
  },
} as const satisfies ErrorCatalogue;

export type ErrorMessages = typeof errorMessages;

/** Sentences added to another error's sentence by a caller that knows more of what happened. */
export const errorMessageAdditions = {
  /** Ollama cannot embed, but search works without vectors. */
  embeddingsCanBeOff: ({ message }: { message: string }) =>
    `${message} Or set RAGENT_EMBEDDINGS=none to search with BM25 only.`,
  /** Qdrant failed before a move's commit. */
  nothingMoved: ({ message, name, from }: { message: string; name: string; from: string }) =>
    `${message} Nothing was moved: ${name} is still in ${from} only.`,
} as const;

/** What failed, in the words that open an unexpected (INTERNAL) error's sentence (see toRagentError). */
export const errorMessageOpenings = {
  somethingWentWrong: () => 'Something went wrong on our side.',
  answeringFailed: () => 'Answering failed unexpectedly.',
  ingestingFailed: ({ name }: { name: string }) => `Could not ingest ${name}.`,
  readingFailed: ({ name }: { name: string }) => `Could not read ${name}.`,
} as const;
