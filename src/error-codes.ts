/**
 * Every error code a `RagentError` can carry, grouped by area. Codes are stable: they appear in logs,
 * JSON output and tests. Apart from `errors.ts` so the catalogue of their sentences
 * (`error-messages-en.ts`) and the error class can both use them without depending on each other.
 */

export const errorCodes = [
  // ── Configuration and the network: settings that do not parse, outside services that cannot be reached.
  'CONFIG_INVALID',
  /** A platform or other outside service could not be reached over the network. */
  'NETWORK_UNREACHABLE',

  // ── Model servers: Ollama or an OpenAI-compatible server, for chat and embeddings.
  'OLLAMA_UNREACHABLE',
  'OLLAMA_MODEL_MISSING',
  'OLLAMA_FAILED',
  'OPENAI_UNREACHABLE',
  'OPENAI_MODEL_MISSING',
  'OPENAI_FAILED',
  /** The model server refused our credentials (OPENAI_API_KEY, OLLAMA_API_KEY / OLLAMA_HEADERS). */
  'MODEL_AUTH_FAILED',
  /** The model server kept answering 429 after the retries. */
  'MODEL_RATE_LIMITED',
  /** The model server refuses tool calling or JSON-schema output. */
  'MODEL_FEATURE_UNSUPPORTED',
  'MODEL_OUTPUT_INVALID',

  // ── Index and search: the chunk index, embedded SQLite or Qdrant.
  'QDRANT_UNREACHABLE',
  'QDRANT_FAILED',
  'INDEX_MODEL_MISMATCH',
  /** The index was written by another version of ragent's storage format. */
  'INDEX_SCHEMA_MISMATCH',
  'INDEX_NOT_WRITABLE',

  // ── Database and replicas: PostgreSQL when DATABASE_URL is set.
  'DATABASE_UNREACHABLE',
  'DATABASE_AUTH_FAILED',
  'DATABASE_MISSING',
  'DATABASE_SCHEMA_OLD',
  'DATABASE_LOST',
  'DATABASE_FAILED',

  // ── Files and formats: a file that is empty, too large, of an unread type, or damaged.
  'FILE_EMPTY',
  'FILE_TOO_LARGE',
  'FILE_UNSUPPORTED',
  'PDF_CORRUPT',
  'PDF_ENCRYPTED',
  'PDF_NO_TEXT',
  /** A password-protected Word, PowerPoint, Excel or OpenDocument file. */
  'OFFICE_ENCRYPTED',
  /** An Office file (DOCX, PPTX, XLSX, ODT, ODP, ODS) whose zip or XML cannot be read. */
  'OFFICE_CORRUPT',
  /** XML with a document type declaration (entity expansion, external entities): never read. */
  'XML_DOCTYPE_REFUSED',
  /** An image (PNG, JPEG, TIFF) whose header cannot be read. */
  'IMAGE_CORRUPT',

  // ── OCR: reading the text of images and scans.
  /** An image (PNG, JPEG, TIFF) in which OCR found no text. */
  'IMAGE_NO_TEXT',
  /** An image declaring more pixels than RAGENT_OCR_MAX_MEGAPIXELS (checked from its header, before decoding). */
  'IMAGE_TOO_LARGE',
  /** An image to ingest while OCR is switched off (RAGENT_OCR=off). */
  'OCR_OFF',
  /** A language of RAGENT_OCR_LANGS whose @tesseract.js-data package is not installed. */
  'OCR_LANGUAGE_MISSING',
  /** Recognising one page took longer than RAGENT_OCR_PAGE_SECONDS. */
  'OCR_PAGE_TIMEOUT',
  /** The OCR engine failed on a page (the image could not be decoded, or the engine stopped). */
  'OCR_FAILED',

  // ── Ingest limits: the bounds every reader of outside input keeps.
  'INGEST_TOO_MANY_PAGES',
  'INGEST_TEXT_TOO_LARGE',
  'INGEST_CONTENT_TOO_LARGE',
  'INGEST_TOO_MANY_CHUNKS',
  'INGEST_TIMEOUT',
  'INGEST_OUT_OF_MEMORY',
  'INGEST_CANCELLED',
  /** An Office file whose entries would unpack past RAGENT_MAX_UNZIPPED_MB. */
  'ZIP_TOO_LARGE',
  /** An Office file with more entries than RAGENT_MAX_ZIP_ENTRIES. */
  'ZIP_TOO_MANY_ENTRIES',
  /** A sheet of a spreadsheet with more rows than RAGENT_MAX_ROWS. */
  'SHEET_TOO_MANY_ROWS',

  // ── Documents and sets: documents, verified answers, scopes, channel links and who may change them.
  'DOCUMENT_NOT_FOUND',
  /** `ragent answers remove` with an id no verified answer has. */
  'VERIFIED_ANSWER_NOT_FOUND',
  /** A move into a set that already has a document of that name (or those bytes): nothing is replaced. */
  'DOCUMENT_NAME_TAKEN',
  /** A document replaced or removed while it was being re-indexed: the newer state is kept. */
  'DOCUMENT_CHANGED',
  /** A move that would leave its workspace/server, or stay where it is. */
  'MOVE_REFUSED',
  'SCOPE_EMPTY',
  /** A scope outside the ones a front door (the MCP server) was started with. */
  'SCOPE_NOT_ALLOWED',
  'PERMISSION_DENIED',
  /** A channel link that would cross workspaces/servers, or link a channel to itself. */
  'LINK_REFUSED',

  // ── Web fetching and downloads: files from a chat, pages and files from the web.
  'DOWNLOAD_FAILED',
  /** A URL that is not an http(s) address (or cannot be read as one). */
  'FETCH_INVALID_URL',
  /** A chat asked for a private, loopback or link-local address (RAGENT_FETCH_ALLOW lists exceptions). */
  'FETCH_ADDRESS_REFUSED',
  /** More than 5 redirects. */
  'FETCH_TOO_MANY_REDIRECTS',
  /** A page or file larger than RAGENT_FETCH_MAX_MB. */
  'FETCH_TOO_LARGE',
  /** No whole answer within RAGENT_FETCH_TIMEOUT_S. */
  'FETCH_TIMEOUT',
  /** A page of a type ragent cannot read (an image, a video, an unknown binary). */
  'FETCH_UNSUPPORTED_TYPE',
  /** The server answered with an error status, or could not be reached. */
  'FETCH_FAILED',
  /** robots.txt of the site does not let ragent read that page. */
  'FETCH_ROBOTS_DISALLOWED',

  // ── Answering: a turn that cannot be answered.
  'ANSWER_TIMEOUT',
  'SHUTTING_DOWN',

  // ── Input: commands, options and files of questions that cannot be used as given.
  'INVALID_INPUT',

  // ── Storage: the data directory's disk.
  /** The server's disk is full (SQLITE_FULL, ENOSPC): nothing can be saved until the operator frees space. */
  'DISK_FULL',
  /** The data directory cannot be written (read-only file system or database, permissions). */
  'DATA_NOT_WRITABLE',

  // ── Internal: a bug or an unexpected failure: the details are in the log.
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];
