/**
 * The errors the map engine shows to a client, whatever protocol carries
 * them. Domain code (operations, query engine, documents, renderer, sources)
 * throws {@link InvalidRequestError} when the request is at fault; each
 * protocol face maps it once to its own form (SOAP `soap:Client`, ArcGIS REST
 * `{"error": {"code": 400, ...}}`). Every other exception is the server's
 * fault: built-in classes such as `RangeError` never mean "the client's
 * fault", so corrupt stored data can never be blamed on the request.
 *
 * @module
 */

/** Machine-readable facts about a refused request (the parts of it at fault). */
export type RequestFacts = Record<string, string | number | boolean>;

/**
 * The request cannot be served as sent; `message` tells the user what to change.
 *
 * @example
 * ```ts
 * import { InvalidRequestError } from "./errors.ts";
 * throw new InvalidRequestError("Map 'Roads' does not exist. Use GetMapName to list maps.", {
 *   MapName: "Roads",
 * });
 * ```
 */
export class InvalidRequestError extends Error {
  /** Facts about the refused parts (SOAP writes them into the fault detail). */
  readonly facts: RequestFacts;
  /** Further sentences for the client (ArcGIS REST `details`); by default the facts as `name: value`. */
  readonly details: string[];

  /** Creates the error; `message` should be a sentence the user can act on. */
  constructor(message: string, facts: RequestFacts = {}, details?: string[]) {
    super(message);
    this.name = "InvalidRequestError";
    this.facts = facts;
    this.details = details ?? Object.entries(facts).map(([k, v]) => `${k}: ${v}`);
  }
}

/**
 * The server cannot take the request now (a full queue, a busy pool); a
 * server error whose message is safe and useful to show as it is.
 *
 * @example
 * ```ts
 * import { ServerBusyError } from "./errors.ts";
 * throw new ServerBusyError("The server is busy rendering other requests; try again in a moment.");
 * ```
 */
export class ServerBusyError extends Error {
  /** Creates the error with a message the client may read. */
  constructor(message: string) {
    super(message);
    this.name = "ServerBusyError";
  }
}
