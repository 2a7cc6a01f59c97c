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
 * A request member named in neutral terms. Domain code names the member at
 * fault; each protocol face words it in its own vocabulary (SOAP: the
 * element path, `QueryFilter/WhereClause`; ArcGIS REST: the parameter,
 * `where`), so no face rewrites another's wording.
 */
export type RequestMember =
  /** The spatial reference of the map the request describes. */
  | "mapSpatialReference"
  /** The spatial reference results are written in. */
  | "outputSpatialReference"
  /** The attribute filter of a query. */
  | "whereClause"
  /** The sort order of a query. */
  | "orderBy"
  /** The request for distinct rows. */
  | "distinct"
  /** The fields a query returns. */
  | "outFields"
  /** A layer's definition expression set by the request. */
  | "layerDefinition"
  /** The DE-9IM pattern of an `esriSpatialRelRelation` filter. */
  | "relationDescription"
  /** The text a Find looks for. */
  | "searchText"
  /** The fields a Find searches. */
  | "searchFields"
  /** The layers a search is limited to. */
  | "layerIds"
  /** The search distance of an Identify, in pixels. */
  | "tolerance"
  /** The image an export draws (holds a size and a DPI). */
  | "exportImage"
  /** The image a client shows (Identify, queries with a map extent). */
  | "mapImage"
  /** The display a scale bar is drawn for. */
  | "mapDisplay"
  /** The area of the map a request asks for (holds a DPI). */
  | "mapArea"
  /** An image's width and height together. */
  | "imageSize"
  /** An image's dots per inch. */
  | "imageDpi"
  /** A map area's dots per inch. */
  | "dpi";

/** A request member inside a message; `within` the member holding it. */
export interface MemberRef {
  readonly member: RequestMember;
  readonly within?: RequestMember;
}

/** Words a request member in one protocol's vocabulary. */
export type Vocabulary = (ref: MemberRef) => string;

/** A message whose request members are named, not yet worded. */
export type Phrase = readonly (string | MemberRef)[];

/**
 * Names a request member in a {@link say} message.
 *
 * @example
 * ```ts
 * import { member, say } from "./errors.ts";
 * say`${member("imageDpi", { within: "exportImage" })} must be positive.`;
 * ```
 */
export function member(
  name: RequestMember,
  opts: { within?: RequestMember } = {},
): MemberRef {
  return { member: name, ...opts };
}

/**
 * A message naming request members: interpolated {@link member} refs are
 * worded by each face; any other value is written as it is.
 *
 * @example
 * ```ts
 * import { InvalidRequestError, member, say } from "./errors.ts";
 * throw new InvalidRequestError(say`${member("whereClause")} is not valid: "x =".`);
 * ```
 */
export function say(
  strings: TemplateStringsArray,
  ...values: (string | number | MemberRef)[]
): Phrase {
  const out: (string | MemberRef)[] = [strings[0]];
  values.forEach((v, i) => {
    out.push(typeof v === "object" ? v : String(v), strings[i + 1]);
  });
  return out;
}

/** Plain-words naming, for logs and for code that reads `message`. */
function neutralWord(ref: MemberRef): string {
  return ref.within ? `${ref.within}.${ref.member}` : ref.member;
}

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
  /** The message with its request members named, for each face to word. */
  readonly phrase: Phrase;

  /** Creates the error; `message` should be a sentence the user can act on. */
  constructor(message: string | Phrase, facts: RequestFacts = {}, details?: string[]) {
    const phrase = typeof message === "string" ? [message] : message;
    super(wordPhrase(phrase, neutralWord));
    this.name = "InvalidRequestError";
    this.phrase = phrase;
    this.facts = facts;
    this.details = details ?? Object.entries(facts).map(([k, v]) => `${k}: ${v}`);
  }

  /**
   * The message with request members worded in a face's vocabulary.
   *
   * @example
   * ```ts
   * import { InvalidRequestError, member, say } from "./errors.ts";
   * const e = new InvalidRequestError(say`Bad ${member("whereClause")}.`);
   * e.wordedIn((ref) => ref.member === "whereClause" ? "where" : ref.member); // "Bad where."
   * ```
   */
  wordedIn(vocabulary: Vocabulary): string {
    return wordPhrase(this.phrase, vocabulary);
  }
}

function wordPhrase(phrase: Phrase, vocabulary: Vocabulary): string {
  return phrase.map((p) => typeof p === "string" ? p : vocabulary(p)).join("");
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

/**
 * A layer's data cannot be read now (its database is down or refuses the
 * statement): the server's fault, local to the layers that need it, with a
 * message safe to show (SOAP `soap:Server` Fault, ArcGIS REST error 500).
 *
 * @example
 * ```ts
 * import { DataUnavailableError } from "./errors.ts";
 * throw new DataUnavailableError("The layer's PostgreSQL data cannot be read now: connect ECONNREFUSED.");
 * ```
 */
export class DataUnavailableError extends ServerBusyError {
  /** Creates the error with a message the client may read. */
  constructor(message: string) {
    super(message);
    this.name = "DataUnavailableError";
  }
}
