/**
 * zod schemas of the recruitment records, in the seed's exact field order.
 *
 * The same schemas validate imported files, demo data and (through
 * `z.toJSONSchema`) produce the OpenAPI document, so the three never drift.
 * Parsing with zod returns objects whose keys follow the schema's shape order,
 * which is what serialization relies on.
 *
 * @module
 */
import { z } from "zod";
import {
  calendarDate,
  coordinateText,
  latitude,
  longitude,
  salaryAmount,
  timestamp as timestampRule,
} from "./values.ts";

/** `YYYY-MM-DDTHH:MM:SS.ffffff`: local time, exactly six fraction digits, no zone. */
export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
/** `YYYY-MM-DD`. */
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A decimal with exactly two fraction digits, as Django's DecimalField renders it. */
export const MONEY_RE = /^-?\d+\.\d{2}$/;
/** A decimal-degrees coordinate written as a string, e.g. `55.755826`. */
export const COORD_RE = /^-?\d{1,3}(\.\d+)?$/;

function timestamp(what: string) {
  return z.string().regex(TIMESTAMP_RE, "expected a timestamp YYYY-MM-DDTHH:MM:SS.ffffff")
    .refine(timestampRule.test, timestampRule.message)
    .describe(`${what}: local date-time with microseconds, no zone (YYYY-MM-DDTHH:MM:SS.ffffff).`);
}

function date(what: string) {
  return z.string().regex(DATE_RE, "expected a date YYYY-MM-DD")
    .refine(calendarDate.test, calendarDate.message).describe(
      `${what} (YYYY-MM-DD).`,
    );
}

function id(what: string) {
  return z.number().int().describe(`Identifier of the ${what}.`);
}

function text(what: string) {
  return z.string().describe(what);
}

function html(what: string) {
  return z.string().describe(`${what} HTML fragment, byte-for-byte as published.`);
}

function money(what: string) {
  return z.string().regex(MONEY_RE, "expected a decimal string with two fraction digits")
    .refine(salaryAmount.test, salaryAmount.message)
    .nullable().describe(`${what}: decimal string with two fraction digits, or null.`);
}

function coordinate(range: typeof latitude) {
  const rule = coordinateText(range);
  return z.string().regex(COORD_RE, "expected decimal degrees").or(z.literal(""))
    .refine(rule.test, rule.message);
}

/** A university that cooperates with an agency. */
export const University = z.object({
  id: id("university"),
  created_at: timestamp("Creation time"),
  updated_at: timestamp("Last update time"),
  name: text("Name of the university."),
  url: text("Web address of the university."),
}).describe("University cooperating with an agency.");

/** The type of an agency (`type_of`). */
export const AgencyType = z.object({
  id: id("agency type"),
  title: text("Name of the agency type."),
}).describe("Type of an agency.");

/** An agency (state body) that announces vacancies and competitions. */
export const Agency = z.object({
  id: id("agency"),
  universities: z.array(University).describe("Universities of the agency, ordered by id."),
  title: text("Name of the agency."),
  genitive_name: text("Name of the agency in the genitive case; may be empty."),
  address: text("Postal address; may be empty."),
  email_additional_recipients: text("Additional e-mail recipients; may be empty."),
  email_internship: text("E-mail address or comma-separated list for internships; may be empty."),
  inn: text("Taxpayer number (INN), digits."),
  type_of: AgencyType,
  is_from_upgo: z.boolean().describe("Whether the agency came from the UPGO registry."),
  code: z.number().int().describe("Agency code."),
}).describe("Agency that announces vacancies and competitions.");

/** Group of positions (`главная`, `ведущая`, ...). */
export const GroupOfPositions = z.object({
  id: id("group of positions"),
  title: text("Name of the group of positions."),
  code: z.number().int().describe("Code of the group of positions."),
}).describe("Group of civil-service positions.");

/** Approval status of a record. */
export const Status = z.object({
  id: id("status"),
  title: text("Name of the status."),
}).describe("Approval status of a record.");

/** Work-experience requirement category. */
export const Experience = z.object({
  id: id("experience category"),
  title: text("Statement of the work-experience requirement."),
}).describe("Work-experience requirement category.");

/** Type of a competition (`Резерв`). */
export const CompetitionType = z.object({
  id: id("competition type"),
  title: text("Name of the competition type."),
}).describe("Type of a competition.");

/** Industry (embedded in vacancies). */
export const Industry = z.object({
  id: id("industry"),
  title: text("Name of the industry."),
  code: z.number().int().describe("Industry code."),
}).describe("Industry of a vacancy.");

/** A vacancy. Field order is the seed's. */
export const Vacancy = z.object({
  id: id("vacancy"),
  agency: Agency,
  groups_of_positions: GroupOfPositions,
  industries: z.array(Industry).describe("Industries of the vacancy, ordered by id."),
  created_by: z.null().describe("Author; always null in the published API."),
  url: z.string().regex(/^\/vakansii\/\d+\/$/, "expected a path /vakansii/<id>/")
    .describe("Site-relative path of the vacancy page, /vakansii/<id>/."),
  created_at: timestamp("Creation time"),
  updated_at: timestamp("Last update time"),
  is_public: z.boolean().describe("Whether the record is public."),
  is_removed: z.boolean().describe("Whether the record is removed."),
  title: text("Title of the position."),
  status: Status,
  experience: Experience,
  experience_upgo: text("Work-experience requirement text."),
  experience_text: text("Additional work-experience text; may be empty."),
  education: text("Education requirement."),
  professions: html("Professions and specialities,"),
  explanation_requirements: text("Explanation of the requirements; may be empty."),
  job_responsibilities: html("Job responsibilities,"),
  requirements_for_knowledge: html("Required knowledge,"),
  requirements_for_skills: html("Required skills,"),
  additional_info: html("Additional information,"),
  contact_fio: text("Full name of the contact person."),
  contact_email: text("E-mail of the contact person."),
  contact_phone: text("Phone of the contact person."),
  publish_date: date("Publication date"),
  tip_requirements: text("Moderator tip on requirements; empty in published records."),
  tip_experience: text("Moderator tip on experience; empty in published records."),
  tip_education: text("Moderator tip on education; empty in published records."),
  tip_job_responsibilities: text("Moderator tip on responsibilities; empty when published."),
  tip_requirements_for_knowledge: text("Moderator tip on knowledge; empty when published."),
  tip_requirements_for_skills: text("Moderator tip on skills; empty when published."),
  comment_rejection: text("Rejection comment; may be empty."),
  code: z.number().int().describe("Vacancy code."),
  salary_from: money("Lower salary bound"),
  salary_to: money("Upper salary bound"),
  tip_salary: text("Moderator tip on salary; empty in published records."),
  tip_competition: text("Moderator tip on the competition; empty in published records."),
  tip_vacancy_info: text("Moderator tip on vacancy info; empty in published records."),
  publish_on_other_sites: z.boolean().describe("Whether the vacancy may be republished."),
}).describe("Civil-service vacancy.");

/** A competition (selection for a personnel reserve). Field order is our documented decision. */
export const Competition = z.object({
  id: id("competition"),
  agency: Agency,
  groups_of_positions: GroupOfPositions,
  industries: z.array(z.number().int()).describe(
    "Identifiers of the industries, ascending (not embedded objects).",
  ),
  competition_type: CompetitionType,
  created_by: z.null().describe("Author; always null in the published API."),
  created_at: timestamp("Creation time"),
  updated_at: timestamp("Last update time"),
  is_public: z.boolean().describe("Whether the record is public."),
  is_removed: z.boolean().describe("Whether the record is removed."),
  title: text("Title of the competition."),
  status: Status,
  experience: Experience,
  experience_upgo: text("Work-experience requirement text."),
  experience_text: text("Additional work-experience text; may be empty."),
  experience_addition_info: text("Additional information on experience."),
  education: text("Education requirement."),
  professions: html("Professions and specialities,"),
  explanation_requirements: text("Explanation of the requirements; may be empty."),
  job_responsibilities: html("Job responsibilities,"),
  requirements_for_knowledge: html("Required knowledge,"),
  requirements_for_skills: html("Required skills,"),
  additional_info: html("Additional information,"),
  contact_fio: text("Full name of the contact person."),
  contact_email: text("E-mail of the contact person."),
  contact_phone: text("Phone of the contact person."),
  publish_date: date("Publication date"),
  document_reception_address: html("Address where documents are received,"),
  document_reception_map_latitude: coordinate(latitude).describe(
    "Latitude of the reception address, decimal degrees (-90 to 90), or empty.",
  ),
  document_reception_map_longitude: coordinate(longitude).describe(
    "Longitude of the reception address, decimal degrees (-180 to 180), or empty.",
  ),
  document_reception_time: html("Reception hours,"),
  document_reception_deadline: html("Reception deadline,"),
  document_reception_finished: date("Date the document reception ends"),
  document_reception_estimated_date: date("Estimated date of the competition"),
  document_reception_public_result_date: date("Date the results are published"),
  document_reception_announced_date: date("Date the competition was announced"),
  competition_procedure: html("Competition procedure,"),
  competition_result: text("Result of the competition; may be empty."),
  site_link: text("Link to the agency's page; may be empty."),
  tip_requirements: text("Moderator tip on requirements; empty in published records."),
  tip_experience: text("Moderator tip on experience; empty in published records."),
  tip_education: text("Moderator tip on education; empty in published records."),
  tip_job_responsibilities: text("Moderator tip on responsibilities; empty when published."),
  tip_requirements_for_knowledge: text("Moderator tip on knowledge; empty when published."),
  tip_requirements_for_skills: text("Moderator tip on skills; empty when published."),
  tip_vacancy_info: text("Moderator tip on vacancy info; empty in published records."),
  tip_competition_status: text("Moderator tip on the status; empty in published records."),
  comment_rejection: text("Rejection comment; may be empty."),
  code: z.number().int().describe("Competition code."),
  vacancy_info: z.null().describe("Vacancy details; always null in the published API."),
  replies: z.null().describe("Replies; always null in the published API."),
}).describe("Competition for a personnel reserve.");

/** The paginated list envelope, for a given record schema. */
export function envelope<T extends z.ZodType>(item: T, name: string) {
  return z.object({
    count: z.number().int().describe("Total number of records matching the request."),
    next: z.string().nullable().describe("Absolute URL of the next page, null on the last."),
    previous: z.string().nullable().describe(
      "Absolute URL of the previous page, null on the first.",
    ),
    results: z.array(item).describe("Records of the current page."),
  }).describe(`Page of ${name}.`);
}

/** The error body of every API error. */
export const ErrorBody = z.object({
  detail: z.string().describe("Human-readable reason."),
}).describe("Error response.");

/** Plain TypeScript types of the records. */
export type University = z.infer<typeof University>;
/** Agency record. */
export type Agency = z.infer<typeof Agency>;
/** Vacancy record. */
export type Vacancy = z.infer<typeof Vacancy>;
/** Competition record. */
export type Competition = z.infer<typeof Competition>;
/** Industry reference object. */
export type Industry = z.infer<typeof Industry>;
