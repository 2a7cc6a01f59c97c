/**
 * Deterministic generation of demo records (seeded PRNG, never Math.random).
 * Produces plain objects in the schemas' field order; validation and storage
 * happen in `demo.ts` through the import path.
 *
 * @module
 */
import type { Agency, Competition, University, Vacancy } from "./schemas.ts";
import * as W from "./_demo_words.ts";

/** A seeded PRNG (sfc32) with helpers. */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /** Seeds the generator; equal seeds give equal sequences. */
  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** `n` distinct elements, in the original order. */
  some<T>(xs: readonly T[], n: number): T[] {
    const idx = new Set<number>();
    while (idx.size < Math.min(n, xs.length)) idx.add(Math.floor(this.next() * xs.length));
    return [...idx].sort((a, b) => a - b).map((i) => xs[i]);
  }
}

const DAY_MS = 86_400_000;
/** Demo dates start here (UTC midnight). */
const EPOCH = Date.UTC(2023, 0, 9);

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function timestampOf(rng: Rng, ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + "." + pad(rng.int(0, 999_999), 6);
}

function genitive(title: string): string {
  for (const [head, gen] of W.GENITIVE_HEADS) {
    if (title.startsWith(head + " ") || title === head) return gen + title.slice(head.length);
  }
  return title;
}

function digits(rng: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String(rng.int(0, 9));
  return s;
}

/** Reference objects shared by the generated records. */
export const STATUS_APPROVED = { id: 3, title: "Согласовано" };
/** Experience category of every demo record. */
export const EXPERIENCE_NONE = { id: 1, title: "Без предъявления требований к стажу" };
/** Competition type of every demo competition. */
export const TYPE_RESERVE = { id: 1, title: "Резерв" };

/** Generates `n` agencies with ids 1..n (titles cycle through the list, numbered past it). */
export function generateAgencies(rng: Rng, n: number): Agency[] {
  const universities: University[] = W.UNIVERSITIES.map(([name, url], i) => {
    const created = EPOCH - rng.int(200, 900) * DAY_MS + rng.int(0, DAY_MS - 1);
    return {
      id: i + 1,
      created_at: timestampOf(rng, created),
      updated_at: timestampOf(rng, created + rng.int(0, 150) * DAY_MS),
      name,
      url,
    };
  });
  const out: Agency[] = [];
  for (let i = 0; i < n; i++) {
    const [baseTitle, domain] = W.AGENCIES[i % W.AGENCIES.length];
    const round = Math.floor(i / W.AGENCIES.length);
    const title = round === 0 ? baseTitle : `${baseTitle} (межрегиональное управление №${round})`;
    const street = rng.pick(W.CITIES[0].streets);
    const emails = rng.chance(0.3)
      ? `praktika@${domain}, kadry@${domain}`
      : rng.chance(0.85)
      ? `praktika@${domain}`
      : "";
    out.push({
      id: i + 1,
      universities: rng.chance(0.3) ? [] : rng.some(universities, rng.int(1, 3)),
      title,
      genitive_name: rng.chance(0.1) ? "" : genitive(title),
      address: rng.chance(0.05)
        ? ""
        : `${rng.int(101000, 129999)}, г. Москва, ${street}, д. ${rng.int(1, 40)}${
          rng.chance(0.3) ? `, стр. ${rng.int(1, 5)}` : ""
        }`,
      email_additional_recipients: rng.chance(0.6) ? "" : `hr@${domain}`,
      email_internship: emails,
      inn: "77" + digits(rng, 8),
      type_of: { id: 1, title: "Федеральный орган исполнительной власти" },
      is_from_upgo: rng.chance(0.5),
      code: 1000 + i + 1,
    });
  }
  return out;
}

function person(rng: Rng): { fio: string; login: string } {
  const female = rng.chance(0.6);
  const surname = rng.pick(W.SURNAMES);
  const name = rng.pick(female ? W.FEMALE_NAMES : W.MALE_NAMES);
  const patr = rng.pick(W.PATRONYMICS)[female ? 1 : 0];
  const fio = `${female ? surname + "а" : surname} ${name} ${patr}`;
  const translit = TRANSLIT_SURNAMES[W.SURNAMES.indexOf(surname)] + (female ? "a" : "");
  return { fio, login: translit };
}

const TRANSLIT_SURNAMES = [
  "ivanov",
  "smirnov",
  "kuznetsov",
  "popov",
  "sokolov",
  "lebedev",
  "kozlov",
  "novikov",
  "morozov",
  "petrov",
  "volkov",
  "solovyov",
  "vasilyev",
  "zaytsev",
  "pavlov",
  "semyonov",
  "golubev",
  "vinogradov",
  "bogdanov",
  "vorobyov",
];

function listHtml(rng: Rng, items: readonly string[], prefix: string): string {
  const chosen = rng.some(items, rng.int(2, 4));
  if (rng.chance(0.5)) {
    return `<ul>${chosen.map((s) => `<li>${prefix}${s};</li>`).join("")}</ul>`;
  }
  return chosen.map((s) => `<p style="text-align: justify;">${prefix}${s};</p>`).join("\r\n");
}

/** Everything a vacancy and a competition share, in both schemas' order. */
interface Common {
  agency: Agency;
  group: { id: number; title: string; code: number };
  created_at: string;
  updated_at: string;
  is_public: boolean;
  is_removed: boolean;
  title: string;
  publishMs: number;
  contact: { fio: string; email: string; phone: string };
}

function common(rng: Rng, agencies: readonly Agency[], id: number, days: number): Common {
  const agency = rng.pick(agencies);
  const [position, groupId] = rng.pick(W.POSITIONS);
  const g = W.GROUPS[groupId - 1];
  const publishMs = EPOCH + rng.int(0, days) * DAY_MS;
  const createdMs = publishMs - rng.int(1, 20) * DAY_MS - rng.int(0, DAY_MS - 1);
  const updatedMs = createdMs + rng.int(0, 25) * DAY_MS + rng.int(0, DAY_MS - 1);
  const unpublished = id % 53 === 0;
  const domain = W.AGENCIES[(agency.id - 1) % W.AGENCIES.length][1];
  const p = person(rng);
  const city = W.CITIES[0];
  return {
    agency,
    group: { id: g[0], title: g[1], code: g[2] },
    created_at: timestampOf(rng, createdMs),
    updated_at: timestampOf(rng, updatedMs),
    is_public: !(unpublished && id % 2 === 0),
    is_removed: unpublished && id % 2 === 1,
    title: `${position.endsWith(" отдела") ? position : position + " отдела"} ${
      rng.pick(W.DEPARTMENTS)
    }`,
    publishMs,
    contact: {
      fio: p.fio,
      email: `${p.login}@${domain}`,
      phone: `+7 (${city.phoneCode}) ${rng.int(200, 999)}-${pad(rng.int(0, 99), 2)}-${
        pad(rng.int(0, 99), 2)
      }${rng.chance(0.4) ? ` доб. ${rng.int(1000, 9999)}` : ""}`,
    },
  };
}

function duties(rng: Rng, id: number): string {
  const html = listHtml(rng, W.DUTIES, "");
  // A rare line separator inside text: DRF escapes it, so must we.
  return id % 97 === 0 ? html.replace("</", "\u2028</") : html;
}

/** Generates one vacancy. `days` is the spread of publish dates. */
export function generateVacancy(
  rng: Rng,
  agencies: readonly Agency[],
  id: number,
  days = 700,
): Vacancy {
  const c = common(rng, agencies, id, days);
  let salaryFrom: string | null = null;
  let salaryTo: string | null = null;
  if (!rng.chance(0.25)) {
    const from = rng.int(35, 180) * 1000 + (rng.chance(0.2) ? rng.int(1, 99) * 10 + 0.5 : 0);
    salaryFrom = from.toFixed(2);
    salaryTo = rng.chance(0.2) ? null : (from + rng.int(5, 90) * 1000).toFixed(2);
    if (rng.chance(0.05)) salaryFrom = null;
  }
  return {
    id,
    agency: c.agency,
    groups_of_positions: c.group,
    industries: rng.some(W.INDUSTRIES, rng.int(0, 3)).map(([iid, title, code]) => ({
      id: iid,
      title,
      code,
    })),
    created_by: null,
    url: `/vakansii/${id}/`,
    created_at: c.created_at,
    updated_at: c.updated_at,
    is_public: c.is_public,
    is_removed: c.is_removed,
    title: c.title,
    status: STATUS_APPROVED,
    experience: EXPERIENCE_NONE,
    experience_upgo: rng.pick(W.EXPERIENCE_UPGO),
    experience_text: rng.chance(0.8)
      ? ""
      : "Опыт работы в органах государственной власти приветствуется.",
    education: rng.pick(W.EDUCATION),
    professions: `<p>${rng.some(W.PROFESSIONS, rng.int(1, 3)).join(", ")}</p>`,
    explanation_requirements: rng.chance(0.85)
      ? ""
      : "Требования установлены приказом по ведомству.",
    job_responsibilities: duties(rng, id),
    requirements_for_knowledge: listHtml(rng, W.KNOWLEDGE, "знание "),
    requirements_for_skills: listHtml(rng, W.SKILLS, "навыки "),
    additional_info: rng.chance(0.15)
      ? ""
      : `<p style="margin-left: 0cm;">${rng.some(W.ADDITIONAL, rng.int(1, 3)).join("&nbsp;")}</p>`,
    contact_fio: c.contact.fio,
    contact_email: c.contact.email,
    contact_phone: c.contact.phone,
    publish_date: dateOf(c.publishMs),
    tip_requirements: "",
    tip_experience: "",
    tip_education: "",
    tip_job_responsibilities: "",
    tip_requirements_for_knowledge: "",
    tip_requirements_for_skills: "",
    comment_rejection: c.is_public ? "" : "Вакансия снята с публикации.",
    code: 100000 + id,
    salary_from: salaryFrom,
    salary_to: salaryTo,
    tip_salary: "",
    tip_competition: "",
    tip_vacancy_info: "",
    publish_on_other_sites: rng.chance(0.7),
  };
}

/** Generates one competition with reception coordinates in a real Russian city. */
export function generateCompetition(
  rng: Rng,
  agencies: readonly Agency[],
  id: number,
  days = 700,
): Competition {
  const c = common(rng, agencies, id, days);
  const city = rng.pick(W.CITIES);
  // About ±2 km of jitter around the centre.
  const lat = city.lat + (rng.next() - 0.5) * 0.036;
  const lon = city.lon + (rng.next() - 0.5) * 0.036 / Math.cos(city.lat * Math.PI / 180);
  const finishedMs = c.publishMs + rng.int(14, 30) * DAY_MS;
  const estimatedMs = finishedMs + rng.int(20, 45) * DAY_MS;
  const address = `${city.postcode}, г.&nbsp;${city.name}, ${rng.pick(city.streets)}, д.&nbsp;${
    rng.int(1, 60)
  }, каб.&nbsp;${rng.int(100, 650)}`;
  return {
    id,
    agency: c.agency,
    groups_of_positions: c.group,
    industries: rng.some(W.INDUSTRIES, rng.int(0, 3)).map(([iid]) => iid),
    competition_type: TYPE_RESERVE,
    created_by: null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    is_public: c.is_public,
    is_removed: c.is_removed,
    title: `Конкурс на включение в кадровый резерв: ${c.title[0].toLowerCase()}${c.title.slice(1)}`,
    status: STATUS_APPROVED,
    experience: EXPERIENCE_NONE,
    experience_upgo: rng.pick(W.EXPERIENCE_UPGO),
    experience_text: rng.chance(0.8)
      ? ""
      : "Опыт работы в органах государственной власти приветствуется.",
    experience_addition_info: rng.chance(0.5)
      ? ""
      : "Стаж исчисляется в соответствии с Указом Президента Российской Федерации.",
    education: rng.pick(W.EDUCATION),
    professions: `<p>${rng.some(W.PROFESSIONS, rng.int(1, 3)).join(", ")}</p>`,
    explanation_requirements: "",
    job_responsibilities: duties(rng, id),
    requirements_for_knowledge: listHtml(rng, W.KNOWLEDGE, "знание "),
    requirements_for_skills: listHtml(rng, W.SKILLS, "навыки "),
    additional_info: rng.chance(0.2) ? "" : `<p>${rng.pick(W.ADDITIONAL)}</p>`,
    contact_fio: c.contact.fio,
    contact_email: c.contact.email,
    contact_phone: c.contact.phone,
    publish_date: dateOf(c.publishMs),
    document_reception_address: `<p style="text-align: left;">${address}</p>`,
    document_reception_map_latitude: lat.toFixed(6),
    document_reception_map_longitude: lon.toFixed(6),
    document_reception_time:
      "<p>Понедельник&nbsp;&mdash; четверг с&nbsp;10:00 до&nbsp;17:00, пятница с&nbsp;10:00 до&nbsp;15:45 (по местному времени)</p>",
    document_reception_deadline: `<p>до 18:00 ${
      dateOf(finishedMs).split("-").reverse().join(".")
    }</p>`,
    document_reception_finished: dateOf(finishedMs),
    document_reception_estimated_date: dateOf(estimatedMs),
    document_reception_public_result_date: dateOf(estimatedMs + 7 * DAY_MS),
    document_reception_announced_date: dateOf(c.publishMs),
    competition_procedure:
      "<p>Конкурс проводится в&nbsp;два этапа: приём документов и&nbsp;&laquo;собеседование&raquo; с&nbsp;конкурсной комиссией &mdash; тестирование и&nbsp;индивидуальное собеседование.</p>",
    competition_result: rng.chance(0.9) ? "" : "Конкурс состоялся.",
    site_link: rng.chance(0.3)
      ? ""
      : `https://${W.AGENCIES[(c.agency.id - 1) % W.AGENCIES.length][1]}/vacancies/${id}`,
    tip_requirements: "",
    tip_experience: "",
    tip_education: "",
    tip_job_responsibilities: "",
    tip_requirements_for_knowledge: "",
    tip_requirements_for_skills: "",
    tip_vacancy_info: "",
    tip_competition_status: "",
    comment_rejection: c.is_public ? "" : "Конкурс отменён.",
    code: 200000 + id,
    vacancy_info: null,
    replies: null,
  };
}
