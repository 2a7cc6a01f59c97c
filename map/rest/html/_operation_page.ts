/**
 * The page of an operation (export, query, identify, find) in the HTML
 * Services Directory: ArcGIS Server's form, one row per parameter, filled
 * with the values of the current request, submitting to the same URL (GET,
 * or POST with the second button), and below it the answer of the
 * submitted request shown as HTML, or its error.
 *
 * A request counts as submitted when any of the form's parameters is
 * given; the operation then runs exactly as for `f=json`.
 *
 * @module
 */
import type { RestCall, RestEndpoint } from "../endpoint.ts";
import { errorBody, JSON_FORMATS } from "../reply.ts";
import { type Html, markup } from "../../markup.ts";
import { type Crumb, directoryPage, type Links } from "./page.ts";
import { errorBox, type RestErrorBody } from "./_error_page.ts";

/** One parameter of an operation's form. */
export interface FormField {
  /** The REST parameter. */
  name: string;
  /** The label ArcGIS's form gives it. */
  label: string;
  /** A text box (default), a text area, True/False radio buttons, or a list. */
  kind?: "text" | "textarea" | "boolean" | "select";
  /** The values of a list (the first is the default). */
  options?: readonly string[];
  /** The default of a True/False parameter. */
  default?: boolean;
  /** The form the value takes, shown beside it. */
  hint?: string;
}

/** The answer of a submitted request: its JSON, or its ArcGIS error. */
export type Outcome =
  | { value: unknown }
  | { error: RestErrorBody };

/** What one operation page shows. */
export interface OperationPage {
  /** The heading (`Query: Cities (ID: 0)`). */
  title: string;
  crumbs: readonly Crumb[];
  /** The operation's REST path (already encoded), where the form submits. */
  path: string;
  /** The label of the submit buttons (`Query`, `Export Map Image`). */
  action: string;
  fields: readonly FormField[];
  /** The answer as HTML. */
  results(value: unknown): Html;
}

function fieldInput(call: RestCall, f: FormField): Html {
  const value = call.params.string(f.name) ?? "";
  switch (f.kind ?? "text") {
    case "textarea":
      return markup`<textarea name="${f.name}" id="${f.name}" rows="3">${value}</textarea>`;
    case "boolean": {
      const given = value.trim().toLowerCase();
      const on = given === "true" ? true : given === "false" ? false : f.default ?? false;
      const yes = on ? " checked" : "", no = on ? "" : " checked";
      return markup`<label><input type="radio" name="${f.name}" value="true"${yes}> True</label> <label><input type="radio" name="${f.name}" value="false"${no}> False</label>`;
    }
    case "select": {
      const options = f.options ?? [];
      const chosen = options.find((o) => o.toLowerCase() === value.trim().toLowerCase());
      // A value not in the list is still shown (and sent again) as it was given.
      const all = chosen === undefined && value !== "" ? [...options, value] : options;
      const selected = chosen ?? (value !== "" ? value : options[0]);
      const items = all.map((o) =>
        markup`<option value="${o}"${o === selected ? " selected" : ""}>${o}</option>`
      );
      return markup`<select name="${f.name}" id="${f.name}">${items}</select>`;
    }
    default:
      return markup`<input type="text" name="${f.name}" id="${f.name}" value="${value}">`;
  }
}

/** The formats an endpoint answers besides html, for the Format radio buttons. */
function formats(endpoint: RestEndpoint): string[] {
  return [...JSON_FORMATS.filter((f) => f !== "html"), ...(endpoint.formats ?? [])];
}

const FORMAT_LABELS: Readonly<Record<string, string>> = {
  html: "HTML",
  json: "JSON",
  pjson: "PJSON",
  geojson: "geoJSON",
  image: "Image",
  kmz: "KMZ",
};

function form(call: RestCall, endpoint: RestEndpoint, links: Links, page: OperationPage): Html {
  const rows = page.fields.map((f) => {
    // Radio buttons carry their own labels.
    const label = f.kind === "boolean"
      ? markup`${f.label}:`
      : markup`<label for="${f.name}">${f.label}:</label>`;
    const hint = f.hint ? markup` <span class="hint">${f.hint}</span>` : "";
    return markup`<tr><td class="label">${label}</td><td>${fieldInput(call, f)}${hint}</td></tr>\n`;
  });
  const current = formats(endpoint).includes(call.format) ? call.format : "html";
  const radios = ["html", ...formats(endpoint)].map((f) => {
    const checked = f === current ? " checked" : "";
    const label = FORMAT_LABELS[f] ?? f;
    return markup`<label><input type="radio" name="f" value="${f}"${checked}> ${label}</label> `;
  });
  const mapName = links.mapName === undefined
    ? ""
    : markup`<input type="hidden" name="mapName" value="${links.mapName}">`;
  const action = `/arcgis/rest${page.path}`;
  return markup`<form method="get" action="${action}">${mapName}
<table class="form">
${rows}<tr><td class="label">Format:</td><td>${radios}</td></tr>
<tr><td></td><td><button type="submit">${page.action} (GET)</button> <button type="submit" formmethod="post">${page.action} (POST)</button></td></tr>
</table>
</form>\n`;
}

/**
 * Runs the call as `f=json` would when the form was submitted: its value,
 * or the ArcGIS error of bad input (worded in the endpoint's parameter
 * names); a failure of the server's own is thrown on, to be logged.
 *
 * @example
 * ```ts ignore
 * const outcome = await submittedOutcome(call, QUERY_ENDPOINT, fields);
 * ```
 */
export async function submittedOutcome(
  call: RestCall,
  endpoint: RestEndpoint,
  fields: readonly FormField[],
): Promise<Outcome | null> {
  if (!fields.some((f) => call.params.has(f.name))) return null;
  try {
    return { value: await endpoint.handle({ ...call, format: "json" }) };
  } catch (err) {
    const { body, server } = errorBody(err, endpoint.words);
    if (server) throw err;
    return { error: body.error };
  }
}

/**
 * The whole page of an operation: form, then results or error.
 *
 * @example
 * ```ts ignore
 * await operationPage(call, FIND_ENDPOINT, links, { title: "Find: S", path, action: "Find", fields, crumbs, results });
 * ```
 */
export async function operationPage(
  call: RestCall,
  endpoint: RestEndpoint,
  links: Links,
  page: OperationPage,
): Promise<string> {
  const outcome = await submittedOutcome(call, endpoint, page.fields);
  const given = Object.fromEntries(page.fields.map((f) => [f.name, call.params.string(f.name)]));
  let results: Html | string = "";
  if (outcome && "error" in outcome) {
    results = errorBox(outcome.error);
  } else if (outcome) {
    results = markup`<hr>${page.results(outcome.value)}`;
  }
  return directoryPage({
    title: page.title,
    crumbs: page.crumbs,
    jsonHref: links.href(page.path, { ...given, f: "pjson" }),
    body: markup`${form(call, endpoint, links, page)}${results}`,
  });
}
