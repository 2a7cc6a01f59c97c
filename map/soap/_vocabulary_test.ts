import assert from "node:assert/strict";
import { InvalidRequestError, member, say } from "../errors.ts";
import { soapWord } from "./_vocabulary.ts";

Deno.test("SOAP faults name request members by their element paths, as before members were neutral", () => {
  const cases: [InvalidRequestError, string][] = [
    [
      new InvalidRequestError(say`${member("mapSpatialReference")} 1 is not supported.`),
      "MapDescription/SpatialReference 1 is not supported.",
    ],
    [
      new InvalidRequestError(say`${member("imageSize", { within: "exportImage" })} must be.`),
      "ImageDescription/ImageDisplay/ImageWidth and ImageHeight must be.",
    ],
    [
      new InvalidRequestError(say`${member("imageDpi", { within: "mapImage" })} 9`),
      "MapImageDisplay/ImageDPI 9",
    ],
    [new InvalidRequestError(say`${member("dpi", { within: "mapArea" })}`), "MapArea/DPI"],
    [
      new InvalidRequestError(say`Invalid ${member("layerDefinition")} for layer ${3} (Cities): x`),
      "Invalid LayerDescription/DefinitionExpression for layer 3 (Cities): x",
    ],
    [
      new InvalidRequestError(say`Invalid ${member("whereClause")} for layer ${0}`),
      "Invalid QueryFilter/WhereClause for layer 0",
    ],
    [new InvalidRequestError(say`${member("outFields")}: layer`), "SubFields: layer"],
  ];
  for (const [err, soap] of cases) assert.equal(err.wordedIn(soapWord), soap);
  // Values are written as they are, never read as members.
  const text = "${member}";
  assert.equal(new InvalidRequestError(say`got "${text}".`).wordedIn(soapWord), 'got "${member}".');
});
