/**
 * What a WFS operation answers: a status, a content type and a body; the
 * routes make it an HTTP response.
 *
 * @module
 */

/** One answer of the WFS face. */
export interface WfsReply {
  status: number;
  contentType: string;
  body: string;
}

/** The XML content type of capabilities, schemas and GML. */
export const XML = "text/xml; charset=utf-8";
