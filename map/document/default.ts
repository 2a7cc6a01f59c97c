/**
 * The embedded default service, served when no `--maps` folder is given:
 * the live competitions layer over Natural Earth countries, once in WGS 84
 * (`Layers`) and once in Web Mercator (`WebMercator`, sources projected on
 * the fly).
 *
 * @module
 */
import type { LayerSpecInput, MapDocumentInput } from "./schema.ts";

const COMPETITIONS_LAYER: LayerSpecInput = {
  id: 0,
  name: "Конкурсы",
  description: "Опубликованные конкурсы на замещение должностей государственной службы " +
    "в местах приёма документов",
  source: { type: "competitions" },
  displayField: "title",
  hyperlinkField: "site_link",
  renderer: {
    type: "uniqueValue",
    field: "type",
    values: [
      {
        value: "Резерв",
        label: "Конкурс в кадровый резерв",
        symbol: {
          type: "simple-marker",
          style: "circle",
          color: [230, 120, 20, 230],
          size: 7,
          outline: { color: [255, 255, 255, 255], width: 0.75 },
        },
      },
    ],
    default: {
      label: "Конкурс на вакантную должность",
      symbol: {
        type: "simple-marker",
        style: "circle",
        color: [215, 25, 28, 230],
        size: 7,
        outline: { color: [255, 255, 255, 255], width: 0.75 },
      },
    },
  },
  labels: {
    field: "agency",
    color: [90, 20, 20, 255],
    sizePt: 7,
    halo: { color: [255, 255, 255, 255], sizePt: 1 },
    minScale: 2_000_000,
  },
};

const COUNTRIES_LAYER: LayerSpecInput = {
  id: 1,
  name: "Страны",
  description: "Границы государств, Natural Earth 1:50m (world-atlas)",
  copyright: "Natural Earth",
  source: { type: "world-atlas", scale: "50m", object: "countries" },
  aliases: { id: "Идентификатор", name: "Название", iso_n3: "Код ISO 3166-1" },
  displayField: "name",
  renderer: {
    type: "simple",
    label: "Страна",
    symbol: {
      type: "simple-fill",
      style: "solid",
      color: [244, 241, 230, 255],
      outline: { type: "simple-line", style: "solid", color: [150, 150, 150, 255], width: 0.5 },
    },
  },
  labels: {
    field: "name",
    color: [90, 90, 90, 255],
    sizePt: 8,
    halo: { color: [255, 255, 255, 255], sizePt: 1 },
    minScale: 60_000_000,
  },
};

/** The default map document (validated by the same schema as any other). */
export const DEFAULT_DOCUMENT: MapDocumentInput = {
  name: "Recruitment",
  description: "Конкурсы на государственную службу на карте мира",
  copyright: "Natural Earth; данные конкурсов: каталог вакансий государственной службы",
  documentInfo: {
    Title: "Recruitment",
    Subject: "Конкурсы на замещение должностей государственной службы",
    Category: "Recruitment",
    Keywords: "конкурсы,вакансии,государственная служба",
  },
  defaultMap: "Layers",
  maps: [
    {
      name: "Layers",
      description: "Конкурсы и страны в географических координатах (WGS 84)",
      wkid: 4326,
      fullExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
      initialExtent: { xmin: 19, ymin: 40, xmax: 180, ymax: 78 },
      backgroundColor: [205, 225, 240],
      layers: [COMPETITIONS_LAYER, COUNTRIES_LAYER],
    },
    {
      name: "WebMercator",
      description: "Те же слои в проекции Web Mercator (EPSG:3857)",
      wkid: 3857,
      fullExtent: {
        xmin: -20037508.342789244,
        ymin: -20037508.342789244,
        xmax: 20037508.342789244,
        ymax: 20037508.342789244,
      },
      initialExtent: { xmin: 2115070.33, ymin: 4865942.28, xmax: 20037508.34, ymax: 14368684.28 },
      backgroundColor: [205, 225, 240],
      tiling: { minLevel: 0, maxLevel: 19, format: "PNG32" },
      layers: [COMPETITIONS_LAYER, COUNTRIES_LAYER],
    },
  ],
};
