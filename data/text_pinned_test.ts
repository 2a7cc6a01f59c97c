/**
 * The search index stores what `_text.ts` made of each record when it was
 * written (FTS5 bodies, `fts_term`, the bitmap index's terms), while queries
 * are stemmed by the running program. If the two ever differ (a change to
 * tokens, folding or entity decoding, or another `snowball-stemmers`
 * version in `deno.lock`), searches silently miss records indexed before.
 * These pinned outputs fail first: whoever changes them must also add a
 * migration that re-indexes both search indexes and rebuilds the bitmaps
 * (as migrations 2 and 3 in `_migrations.ts` do), then update the pins.
 */
import assert from "node:assert/strict";
import { fieldStems, searchStems } from "./_text.ts";

const REINDEX = "The search index's text processing changed: add a migration that re-indexes " +
  "(see data/_migrations.ts, migrations 2 and 3), then update these pins.";

Deno.test("indexed stems are pinned (a change needs a re-index migration)", () => {
  const cases: [raw: string, html: boolean, stems: string[]][] = [
    [
      "Ведущий специалист-эксперт отдела финансового обеспечения",
      false,
      ["ведущ", "специалист", "эксперт", "отдел", "финансов", "обеспечен"],
    ],
    [
      "Главный специалист Управления делами; ёлка, Ёж",
      false,
      ["главн", "специалист", "управлен", "дел", "елк", "еж"],
    ],
    [
      "<p>Знание <b>Конституции</b> Российской&nbsp;Федерации &laquo;О&raquo; &#1040;&#x411;</p>" +
      "<ul><li>Опыт работы&mdash;не менее 2 лет</li></ul>",
      true,
      [
        "знан",
        "конституц",
        "российск",
        "федерац",
        "о",
        "аб",
        "оп",
        "работ",
        "не",
        "мен",
        "2",
        "лет",
      ],
    ],
    [
      "Software engineers running the Databases, 1C:Предприятие 8.3",
      false,
      ["softwar", "engin", "run", "the", "databas", "1c", "предприят", "8", "3"],
    ],
    [
      "Юристы, юриста, юристов; программист программисты программирование",
      false,
      ["юрист", "программист", "программирован"],
    ],
  ];
  for (const [raw, html, want] of cases) assert.deepEqual(fieldStems(raw, html), want, REINDEX);
});

Deno.test("search values are stemmed as the index was (pinned)", () => {
  assert.deepEqual(
    searchStems("специалисты, Программиста  ЁЛКИ 1С"),
    ["специалист", "программист", "елк", "1с"],
    REINDEX,
  );
});
