// petstore-playground-mock: the stateful, validating mock of any OpenAPI description, and the
// Petstore's, for Node, browsers and bundled apps.
import type {
  ApiMock as WasmApiMock,
  ApiMockOptions as WasmApiMockOptions,
  ApiMockStorage,
  PetstoreMock as WasmPetstoreMock,
  PetstoreMockOptions as WasmPetstoreMockOptions,
} from "../wasm/mock.js";

export type {
  ApiMockResource,
  ApiMockStorage,
  MockAnswer,
  MockNotice,
  MockRequest,
  PetstoreMockAnswer,
  PetstoreMockNotice,
  PetstoreMockRequest,
} from "../wasm/mock.js";

/**
 * A description as `open` takes it: a path (Node) or URL (a `file:`, `http:` or `https:` one in
 * Node; relative to the page in a browser), its JSON or YAML text, its bytes, or the object.
 * A description kept in many files is bundled: the files its `$ref`s name are read too.
 */
export type Description = string | URL | Uint8Array | object;

/** Options of `ApiMock`: the module's, plus `file` in Node. */
export interface ApiMockOptions extends WasmApiMockOptions {
  /**
   * Node only: keep the state in this file (created when missing; its directory must exist).
   * Every change is written and synced to it before it is answered, so a crash loses no answered
   * change; a change that cannot be written is undone and answered 503 (`state_not_saved`). A
   * file that holds something else than this description's saved state is refused, not replaced.
   * Without `file` (or `storage`), Node keeps the state in memory; a page keeps it in localStorage.
   */
  file?: string | URL;
}

/** Options of `PetstoreMock`: the module's, plus `file` in Node (see `ApiMockOptions.file`). */
export interface PetstoreMockOptions extends WasmPetstoreMockOptions {
  file?: string | URL;
}

/**
 * The stateful mock of an OpenAPI 3.x or Swagger 2.0 description: resources inferred from the
 * paths, requests checked against the description, answers from its examples or data generated
 * from its schemas.
 */
export declare class ApiMock extends WasmApiMock {
  /**
   * The mock of `description` (JSON text, bytes or an object). In a browser the WebAssembly
   * module must be loaded first (`await ready()`); `ApiMock.open` does that. Throws a
   * `TypeError` saying why when the description or the options cannot be used.
   */
  constructor(description: string | Uint8Array | object, options?: ApiMockOptions);
  /**
   * Reads `description` (a path, a URL, text, bytes or an object; YAML or JSON; kept in one file
   * or many) and opens its mock. Rejects with the reason, naming the file (and the reference
   * that could not be followed) when it cannot be read.
   */
  static open(description: Description, options?: ApiMockOptions): Promise<ApiMock>;
}

/** The Petstore's stateful mock, with its business rules and its demo data. */
export declare class PetstoreMock extends WasmPetstoreMock {
  /** In a browser the WebAssembly module must be loaded first (`await ready()`). */
  constructor(options?: PetstoreMockOptions);
  /** Loads the module when needed and opens the mock. */
  static open(options?: PetstoreMockOptions): Promise<PetstoreMock>;
}

/** Loads the WebAssembly module (in a browser: fetches and compiles it, once; in Node it is loaded at import). */
export declare function ready(): Promise<void>;

/**
 * Node only: a `storage` that keeps the state in one file, as the `file` option does (written
 * to `FILE.tmp`, synced, renamed over `FILE`, the directory synced). Throws in a browser.
 */
export declare function fileStorage(file: string | URL): ApiMockStorage & { readonly name: string };
