// Saturation is not a bug: Prisma's P2028 (no connection freed up within maxWait) answers 503 with
// Retry-After on /v1 and on the hosted checkout, through the one error catalogue.
import express from "express";
import { describe, expect, it } from "vitest";
import { toGraphQLError } from "../../../schema/errors.ts";
import { errorHandler, toHttp } from "../../../http/error-map.ts";

const p2028 = Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028", name: "PrismaClientKnownRequestError" });

describe("overload errors", () => {
  it("maps P2028 to 503 unavailable, and anything else unknown stays a 500", () => {
    expect(toHttp(p2028)).toEqual({ status: 503, body: { error: "service temporarily overloaded; retry shortly", code: "unavailable" } });
    expect(toHttp(Object.assign(new Error("x"), { code: "P2002" })).status).toBe(500);
  });

  it("carries the 503 through GraphQL extensions", () => {
    const gql = toGraphQLError(p2028);
    expect(gql.extensions).toMatchObject({ code: "overloaded", status: 503, body: { code: "unavailable" } });
  });

  it("answers Retry-After on the REST error handler", async () => {
    const app = express();
    app.get("/x", () => {
      throw p2028;
    });
    app.use(errorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/x`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ error: "service temporarily overloaded; retry shortly", code: "unavailable" });
    } finally {
      server.close();
    }
  });
});
