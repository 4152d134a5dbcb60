// The typed graph as an internal tool uses it: a customer's subscriptions with their last
// payment, fewer fields when fewer are asked, keyset connections, an event's data through fragments,
// failed invoices, and GraphQL validation (400) for unknown fields and wrong types, never a 500.
import fs from "node:fs";
import { buildSchema, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLOutputType } from "graphql";
import { describe, expect, it } from "vitest";
import { CARDS, advanceClock, subscribe } from "../helpers/billing.ts";
import { get, gql, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

/** The GraphiQL guide's queries (docs/guides/graphql.md), verbatim: they must stay valid and under the document limits. */
const GUIDE = {
  customerSubscriptions: `query CustomerSubscriptions($externalId: String!) {
  customer(externalId: $externalId) {
    name
    email
    subscriptions {
      id
      status
      planName
      interval
      currentPeriodEnd
      nextChargeAmountCents
      paymentMethod { brand last4 }
      pendingOffer { planName effectiveAt }
      lastPayment { amountCents status method paidAt failureCode }
    }
  }
}`,
  failedInvoices: `query FailedInvoicesOfTheWeek($from: DateTime!, $to: DateTime!, $after: String) {
  invoices(failed: true, dueFrom: $from, dueTo: $to, first: 100, after: $after) {
    edges {
      node {
        id
        status
        dueAt
        amountCents
        attemptCount
        nextAttemptAt
        subscription { id status customer { externalId email } }
        payments { status failureCode amountCents createdAt }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`,
  exhaustedDeliveries: `query ExhaustedDeliveries($after: String) {
  exhaustedWebhookDeliveries(first: 50, after: $after) {
    edges {
      node {
        id
        attemptCount
        lastStatusCode
        lastError
        endpoint { url active }
        event {
          id
          type
          createdAt
          data {
            __typename
            ... on SubscriptionEventData { id status customer { externalId } }
            ... on OrderEventData { orderId customer { externalId } }
          }
        }
        attempts { attemptNo startedAt statusCode latencyMs error }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`,
};

describe("typed graph: the printed schema", () => {
  const schema = buildSchema(fs.readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));
  const fields = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith("__") && (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)))
    .flatMap((t) => Object.values((t as { getFields(): Record<string, { name: string; description?: string | null; type: unknown; args?: readonly { name: string; description?: string | null }[] }> }).getFields()).map((f) => ({ owner: t.name, f })));

  it("documents every type, field and argument", () => {
    const types = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith("__") && !t.description).map((t) => t.name);
    const undocumented = fields.flatMap(({ owner, f }) => [
      ...(f.description ? [] : [`${owner}.${f.name}`]),
      ...(f.args ?? []).filter((a) => !a.description).map((a) => `${owner}.${f.name}(${a.name})`),
    ]);
    expect([...types, ...undocumented]).toEqual([]);
  });

  it("has no JSON tunnel: no payload, listItem or envelope field, no JSON-typed query result", () => {
    const tunnels = fields
      .filter(({ owner, f }) => getNamedType(f.type as GraphQLOutputType).name === "JSON" && (["payload", "listItem", "envelope"].includes(f.name) || owner === "Query" || owner === "Mutation"))
      .map(({ owner, f }) => `${owner}.${f.name}`);
    expect(tunnels).toEqual([]);
  });
});

describe("typed graph for internal tools", { timeout: 120_000 }, () => {
  it("answers a customer's subscriptions with lastPayment { amountCents status }, typed and documented", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, { utm_source: "news" });
    const ext = (await get(`/v1/subscriptions/${sub.subscription_id}`, t.readKey)).body.customer.external_id as string;
    const data = await op(
      `query($e: String!) { customer(externalId: $e) { externalId subscriptions { id status nextChargeAmountCents
         lastPayment { amountCents status method card { last4 } } tracking { utmSource } } } }`,
      { e: ext },
      t.readKey,
    );
    expect(data.customer).toEqual({
      externalId: ext,
      subscriptions: [
        {
          id: sub.subscription_id,
          status: "ACTIVE",
          nextChargeAmountCents: 4990,
          lastPayment: { amountCents: 4990, status: "PAID", method: "CARD", card: { last4: "4242" } },
          tracking: { utmSource: "news" },
        },
      ],
    });
    // Every field of the subscription type says what it is.
    const intro = await op(`{ __type(name: "Subscription") { fields { name description } } }`, {}, t.readKey);
    const undocumented = intro.__type.fields.filter((f: { description: string | null }) => !f.description);
    expect(undocumented).toEqual([]);
    expect(intro.__type.fields.map((f: { name: string }) => f.name)).not.toContain("payload");
  });

  it("answers only the fields asked for", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const data = await op(`query($id: String!) { subscription(id: $id) { id } }`, { id: sub.subscription_id }, t.readKey);
    expect(data).toEqual({ subscription: { id: sub.subscription_id } });
  });

  it("pages subscriptions and a subscription's payments as keyset connections", async () => {
    const t = await newTenant();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await subscribe(t.monthlyOfferId)).subscription_id);
    const page = (after: string | null) =>
      op(
        `query($after: String) { subscriptions(first: 2, after: $after) { edges { cursor node { id payments(first: 5) { edges { node { id amountCents } } pageInfo { hasNextPage } } } } pageInfo { hasNextPage endCursor } } }`,
        { after },
        t.readKey,
      );
    const first = (await page(null)).subscriptions;
    expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(made.slice(0, 2));
    expect(first.edges[0].cursor).toBe(made[0]);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: made[1] });
    expect(first.edges[0].node.payments.edges).toHaveLength(1);
    expect(first.edges[0].node.payments.edges[0].node.amountCents).toBe(4990);
    const second = (await page(first.pageInfo.endCursor)).subscriptions;
    expect(second.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(made.slice(2));
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it("reads an event's typed data through fragments, and the week's failed invoices", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00Z");
    const ok = await subscribe(t.monthlyOfferId);
    // Accepted at checkout, declined on the renewal of 2027-05-01.
    const failing = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await advanceClock(t, "2027-05-03T09:00:00Z");
    const data = await op(
      `{ events(first: 100) { edges { node { type data { __typename
          ... on SubscriptionEventData { id status lastPayment { amountCents status } }
          ... on OrderEventData { orderId } } } } } }`,
      {},
      t.readKey,
    );
    const nodes = data.events.edges.map((e: { node: unknown }) => e.node);
    const failed = nodes.find((n: { type: string }) => n.type === "invoice.payment_failed");
    expect(failed.data).toMatchObject({ __typename: "SubscriptionEventData", id: failing.subscription_id, status: "PAST_DUE" });
    const renewed = nodes.find((n: { type: string; data: { id: string } }) => n.type === "invoice.paid" && n.data.id === ok.subscription_id);
    expect(renewed.data).toEqual({ __typename: "SubscriptionEventData", id: ok.subscription_id, status: "ACTIVE", lastPayment: { amountCents: 4990, status: "PAID" } });

    const week = await op(
      `{ invoices(failed: true, dueFrom: "2027-04-28T00:00:00Z", dueTo: "2027-05-05T00:00:00Z") {
          edges { node { subscriptionId status amountCents payments { status failureCode } } } } }`,
      {},
      t.readKey,
    );
    expect(week.invoices.edges.map((e: { node: { subscriptionId: string } }) => e.node.subscriptionId)).toEqual([failing.subscription_id]);
    expect(week.invoices.edges[0].node.payments.some((p: { status: string }) => p.status === "FAILED")).toBe(true);

    // The GraphiQL guide's queries run as written.
    const guide = await gql(GUIDE.failedInvoices, { from: "2027-04-28T00:00:00Z", to: "2027-05-05T00:00:00Z" }, t.readKey);
    expect(guide.status).toBe(200);
    expect(guide.data.invoices.edges[0].node.subscription).toMatchObject({ id: failing.subscription_id, status: "PAST_DUE" });
    const ext = guide.data.invoices.edges[0].node.subscription.customer.externalId;
    const mine = await gql(GUIDE.customerSubscriptions, { externalId: ext }, t.readKey);
    expect(mine.status).toBe(200);
    expect(mine.data.customer.subscriptions[0]).toMatchObject({ id: failing.subscription_id, lastPayment: { amountCents: 4990 } });
    const exhausted = await gql(GUIDE.exhaustedDeliveries, {}, t.readKey);
    expect(exhausted.status).toBe(200);
    expect(exhausted.data.exhaustedWebhookDeliveries.edges).toEqual([]);
  });

  it("answers an unknown field or a wrong type with a 400 validation error, never a 500", async () => {
    const t = await newTenant();
    const unknown = await gql(`{ subscriptions { edges { node { id payload } } } }`, {}, t.readKey);
    expect(unknown.status).toBe(400);
    expect(unknown.errors?.[0]?.message).toMatch(/Cannot query field "payload"/);
    const wrongType = await gql(`{ subscriptions(first: "ten") { edges { node { id } } } }`, {}, t.readKey);
    expect(wrongType.status).toBe(400);
    const wrongVar = await gql(`query($f: Int) { subscriptions(first: $f) { edges { node { id } } } }`, { f: "ten" }, t.readKey);
    expect(wrongVar.status).toBe(400);
    const badFragment = await gql(`{ events { edges { node { data { ... on Subscription { id } } } } } }`, {}, t.readKey);
    expect(badFragment.status).toBe(400);
  });
});
