// docs/reference/errors.md is generated from the error catalogue; a catalogue change without
// `npm run docs:errors` leaves the page stale, and this fails.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../core/shared/errors.ts";
import { ERRORS_PAGE, renderErrorsReference } from "../../docs/generate-errors.ts";

describe("docs/reference/errors.md", () => {
  it("is what `npm run docs:errors` prints from core/shared/errors.ts (run it after changing the catalogue)", () => {
    expect(fs.readFileSync(ERRORS_PAGE, "utf8")).toBe(renderErrorsReference());
  });

  it("lists every key of the catalogue with its status", () => {
    const page = renderErrorsReference();
    for (const [key, entry] of Object.entries(ERROR_CATALOG)) {
      expect(page).toMatch(new RegExp(`^\\| ${entry.status} \\| [^\\n]*\\| \`${key}\` \\|`, "m"));
    }
  });
});
