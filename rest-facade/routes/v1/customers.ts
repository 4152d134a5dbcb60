// Customer write routes of /v1.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";
import { ops } from "../../operations.ts";
import { stringField } from "../../params.ts";

export function customerRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  r.post("/customers/:externalId/email", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const email = stringField(body, "email");
    const data = await core.request<{ updateCustomerEmail: { payload: unknown } }>(
      ops.updateCustomerEmail,
      { externalId: req.params.externalId, email },
      headers(req),
    );
    res.json(data.updateCustomerEmail.payload);
  });
  return r;
}
