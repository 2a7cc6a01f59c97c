/**
 * Percent-decoding of one URL path segment (a service name, a file name),
 * and the one message every face gives for an escape that is not UTF-8.
 *
 * @module
 */

/** What a client is told when a path holds an escape that is not UTF-8 (`%FF`). */
export const PERCENT_ESCAPE_MESSAGE =
  "The request path contains an invalid percent-escape: escapes must encode UTF-8 (e.g. %C3%A9, not %FF).";

/**
 * `part` percent-decoded as UTF-8, or undefined when one of its escapes is
 * not UTF-8.
 *
 * @example
 * ```ts
 * decodePathPart("%D0%9C%D0%BE%D1%8F"); // "Моя"
 * decodePathPart("%FF"); // undefined
 * ```
 */
export function decodePathPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
