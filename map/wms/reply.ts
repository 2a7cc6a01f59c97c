/**
 * What a WMS operation answers: a status, a content type and a body
 * (text or bytes); the HTTP layer sends it as it is.
 *
 * @module
 */

/** A WMS answer. */
export interface WmsReply {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}
