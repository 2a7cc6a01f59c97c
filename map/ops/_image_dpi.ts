/**
 * ImageDPI of an ImageDisplay, read one way by every operation that takes
 * one (ExportMapImage, legends, scale bars, Identify, QueryFeatureIDs with
 * a map extent). 0 or absent means the default 96, as .NET clients send
 * it; anything else must be a positive number up to {@link MAX_IMAGE_DPI}:
 * a negative, NaN or infinite DPI is the client's mistake and gets a
 * `soap:Client` fault rather than a silent 96.
 *
 * @module
 */
import { DEFAULT_DPI } from "../geo/display.ts";
import { InvalidRequestError, member, type RequestMember, say } from "../errors.ts";

/** Highest ImageDPI accepted (symbols at more would be huge and slow to draw). */
export const MAX_IMAGE_DPI = 2400;

/**
 * The DPI an ImageDisplay (or a CenterAndScale MapArea) asks for; `within`
 * names the member holding it in the error, `element` the DPI member.
 *
 * @example
 * ```ts
 * imageDpi(0, "exportImage"); // 96
 * ```
 */
export function imageDpi(
  value: number | undefined,
  within: RequestMember,
  element: RequestMember = "imageDpi",
): number {
  const at = member(element, { within });
  if (value === undefined || value === 0) return DEFAULT_DPI;
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidRequestError(
      say`${at} must be a positive number of dots per inch, or 0 for the default; got ${
        String(value)
      }.`,
    );
  }
  if (value > MAX_IMAGE_DPI) {
    throw new InvalidRequestError(
      say`${at} ${value} is more than this server draws (at most ${MAX_IMAGE_DPI}); ask for a lower DPI.`,
    );
  }
  return value;
}
