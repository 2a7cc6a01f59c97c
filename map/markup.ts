/**
 * The one way text reaches an HTML page of a face (ArcGIS REST, OGC API): the `markup`
 * tagged template escapes every value it interpolates unless the value is
 * already {@link Html} (built by `markup` itself), so a reflected parameter,
 * path segment, field value or error message can never become markup.
 *
 * @module
 */

/** Markup known to be safe: only {@link markup} makes it. */
export class Html {
  /** Wraps markup; use {@link markup} rather than calling this with outside text. */
  constructor(readonly text: string) {}
  /** The markup. */
  toString(): string {
    return this.text;
  }
}

/** What {@link markup} interpolates: markup as it is, text escaped, lists joined, nothing for null. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

/**
 * Text with `&`, `<`, `>`, `"` and `'` escaped, safe in element content
 * and in quoted attribute values.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./markup.ts";
 * escapeHtml(`<a href="x">`); // "&#60;a href=&#34;x&#34;&#62;"
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function piece(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(piece).join("");
  return escapeHtml(String(value));
}

/**
 * Markup from a template: every interpolated value is escaped unless it
 * is {@link Html}; arrays are joined; `null`, `undefined` and `false` add
 * nothing. Attribute values in the template must be double-quoted.
 *
 * @example
 * ```ts
 * import { markup } from "./markup.ts";
 * markup`<td title="${"a\"b"}">${"<b>"}</td>`.text; // '<td title="a&#34;b">&#60;b&#62;</td>'
 * ```
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1];
  return new Html(out);
}
