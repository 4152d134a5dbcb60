// The up-front access check of root fields (schema/root-field-access.ts), which decides before an
// Idempotency-Key replay or a /v1 refusal, reads every root field's declared scopes and agrees with
// what execution answers field by field (the read-only table of test/security/read-only-account.test.ts).
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../schema/context.ts";
import { declaredScopes, rootFieldRefusal } from "../../schema/root-field-access.ts";
import { ALLOWED_WHEN_READ_ONLY } from "../../schema/scopes.ts";
import { schema } from "../../schema/schema.ts";

const tenant = (scope: "READ" | "WRITE", readOnly = false): Actor => ({ kind: "tenant", tenantId: "tn_x", keyId: "key_x", scope, readOnly, mode: "SANDBOX", clockAt: null });
const refusal = (kind: "query" | "mutation", field: string, actor: Actor) => rootFieldRefusal(schema, parse(`${kind} { ${field} }`), null, actor)?.key ?? null;

describe("root field access, decided up front", () => {
  it("reads the declared scopes of every Query and Mutation field (an unreadable one would be refused)", () => {
    for (const type of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(type.getFields())) expect(declaredScopes(field), `${type.name}.${field.name}`).not.toBe("unknown");
    }
  });

  it("answers as scope-auth and the read-only rule: operator_only, insufficient_scope, account_locked", () => {
    const mutations = Object.values(schema.getMutationType()!.getFields());
    // The panel's own fields (sign-in before a session, a member's account): neither the operator nor a key may call them.
    const panelOnly = (scopes: Record<string, unknown>) => Object.keys(scopes).every((s) => ["panel", "user", "owner", "teamAdmin", "developer"].includes(s));
    for (const field of mutations) {
      const scopes = declaredScopes(field) as Record<string, unknown>;
      if (panelOnly(scopes)) {
        expect(refusal("mutation", field.name, { kind: "operator" }), field.name).toBe("insufficient_scope");
        expect(refusal("mutation", field.name, tenant("WRITE")), field.name).toBe("insufficient_scope");
        continue;
      }
      // The operator's, or also a member's whose role allows it (the key mutations): a key hears operator_only.
      const operatorOnly = scopes.operator === true && Object.keys(scopes).every((s) => s === "operator" || ["owner", "teamAdmin", "developer"].includes(s));
      expect(refusal("mutation", field.name, { kind: "operator" }), field.name).toBeNull();
      expect(refusal("mutation", field.name, tenant("READ")), field.name).toBe(operatorOnly ? "operator_only" : "insufficient_scope");
      expect(refusal("mutation", field.name, tenant("WRITE")), field.name).toBe(operatorOnly ? "operator_only" : null);
      const locked = refusal("mutation", field.name, tenant("WRITE", true));
      expect(locked, field.name).toBe(operatorOnly ? "operator_only" : ALLOWED_WHEN_READ_ONLY.has(field.name) ? null : "account_locked");
    }
    expect(refusal("mutation", "__typename", tenant("READ", true))).toBeNull();
    // A viewer in the panel, refused a key mutation open to the operator and developers, hears about their role.
    const viewer: Actor = { ...(tenant("READ") as Extract<Actor, { kind: "tenant" }>), keyId: "", user: { id: "usr_x", sessionId: "pss_x", email: "v@example.com", role: "VIEWER", twoFactorOn: false, owesTwoFactor: false, client: { address: "", userAgent: "" } } };
    expect(refusal("mutation", "createApiKey", viewer)).toBe("role_forbidden");
    expect(refusal("query", "viewer", tenant("READ", true))).toBeNull();
  });
});
