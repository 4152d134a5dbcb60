import fs from "node:fs";
import { isObjectType, isInputObjectType, isEnumType } from "graphql";
import { describe, expect, it } from "vitest";
import { printedSchema, SCHEMA_FILE } from "../../schema/print-schema.ts";
import { schema } from "../../schema/schema.ts";

describe("schema/schema.graphql", () => {
  it("matches the code (run npm run schema:print after changing the schema)", () => {
    expect(fs.readFileSync(SCHEMA_FILE, "utf8")).toBe(printedSchema());
  });

  it("describes every type, field and argument", () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith("__")) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of "args" in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type)) for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });

  it("has the operator mutations of service-contract section 2 with their fixed names", () => {
    const fields = Object.keys(schema.getMutationType()!.getFields());
    for (const name of [
      "createTenant", "createApiKey", "revokeApiKey", "setTenantReadOnly", "setTenantSuspended", "setRenewalsPaused",
      "createWebhookEndpoint", "rotateWebhookSecret", "createProduct", "createPlan", "updatePlanEntitlements",
      "createOffer", "createOneTimeOffer", "createCoupon", "createRenewalCampaign",
    ]) expect(fields).toContain(name);
  });
});
