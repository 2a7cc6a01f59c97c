import assert from "node:assert/strict";
import { openCatalog } from "./catalog.ts";
import { importFiles } from "./import.ts";
import { WriterBusyError } from "./_store.ts";
import { sampleVacancy, tempDir, writeJson } from "../tests/_data_fixtures.ts";
import { DatabaseSync } from "node:sqlite";

Deno.test("import: a full database reports SQLite's 'database or disk is full', not a failed rollback", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/full.db`;
    await importFiles(path, [await writeJson(dir, "one.json", [sampleVacancy(1)])]);
    const file = await writeJson(
      dir,
      "many.json",
      Array.from({ length: 400 }, (_, i) => sampleVacancy(i + 2)),
    );
    const catalog = openCatalog(path);
    try {
      // A deterministic "disk full": the file may grow by two pages only.
      const { page_count } = catalog.db.prepare("PRAGMA page_count").get() as {
        page_count: number;
      };
      catalog.db.exec(`PRAGMA max_page_count = ${page_count + 2}`);
      await assert.rejects(importFiles(catalog, [file]), (err: Error) => {
        assert.match(err.message, /database or disk is full/);
        return true;
      });
      assert.equal(catalog.db.isTransaction, false, "no transaction is left open");
      assert.equal(catalog.count("vacancies"), 1, "nothing of the failed import was written");
      // The connection stays usable once there is room again.
      catalog.db.exec("PRAGMA max_page_count = 1073741823");
      assert.equal((await importFiles(catalog, [file])).inserted, 400);
    } finally {
      catalog.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("import: an import while another holds the write lock is rejected with WriterBusyError", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/busy.db`;
    openCatalog(path).close();
    const other = new DatabaseSync(path);
    other.exec("BEGIN IMMEDIATE");
    const catalog = openCatalog(path);
    try {
      catalog.db.exec("PRAGMA busy_timeout = 50");
      const file = await writeJson(dir, "v.json", [sampleVacancy(1)]);
      await assert.rejects(importFiles(catalog, [file]), (err: Error) => {
        assert.ok(err instanceof WriterBusyError, String(err));
        assert.match(err.message, /^another import is running .*busy\.db; nothing was written/);
        return true;
      });
      other.exec("ROLLBACK");
      assert.equal((await importFiles(catalog, [file])).inserted, 1);
    } finally {
      other.close();
      catalog.close();
    }
  } finally {
    await cleanup();
  }
});
