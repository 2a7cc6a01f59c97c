import assert from "node:assert/strict";
import { openCatalog, ReaderPool } from "../data/mod.ts";
import { catalogApiData } from "./catalog_data.ts";
import { validators } from "./_conditional.ts";
import type { PageInfo } from "./_api_data.ts";
import { demoDb, tempDir } from "../tests/_data_fixtures.ts";

Deno.test("catalogApiData: pages with their count of pages, last page resolved, Last-Modified formatted once", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 120, agencies: 3, competitions: 4 });
    const catalog = openCatalog(path, { readonly: true });
    const readers = new ReaderPool({ path, size: 1 });
    try {
      for (const r of [undefined, readers]) {
        const data = catalogApiData(catalog, r);
        const req = { filters: {}, search: [], ordering: [], pageSize: 25 };
        const count = catalog.count("vacancies");
        const pages = Math.ceil(count / 25);
        // The envelope is asked for with the page's place in its list.
        const seen: PageInfo[] = [];
        const envelope = (at: PageInfo) => {
          seen.push(at);
          return { head: `[${at.page},[`, tail: "]]" };
        };
        const first = await data.list("vacancy", { ...req, page: 1 }, envelope);
        assert.deepEqual([first?.count, first?.page, first?.pages], [count, 1, pages]);
        assert.deepEqual(seen, [{ count, page: 1, pages }]);
        const last = await data.list("vacancy", { ...req, page: "last" }, envelope);
        const lastBody = JSON.parse(new TextDecoder().decode(last!.body));
        assert.deepEqual([last?.page, lastBody[0], lastBody[1].length], [
          pages,
          pages,
          count - (pages - 1) * 25,
        ]);
        assert.equal(await data.list("vacancy", { ...req, page: pages + 1 }, envelope), null);
        // Terms as the HTTP layer splits them find what the raw value finds.
        const searched = await data.list(
          "vacancy",
          { ...req, search: ["специалист"], page: 1 },
          envelope,
        );
        assert.equal(searched?.count, catalog.count("vacancies", { search: "специалист" }));
        assert.equal(data.lastModifiedHttp!(), data.lastModified().toUTCString());
        assert.equal(validators(data, "[1]").lastModified, data.lastModified().toUTCString());
      }
    } finally {
      readers.close();
      catalog.close();
    }
  } finally {
    await cleanup();
  }
});
