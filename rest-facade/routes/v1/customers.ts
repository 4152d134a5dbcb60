// Customer write routes of /v1.
import { Router, type Request } from "express";
import { AppError } from "../../../core/shared/errors.ts";
import type { CoreClient } from "../../core-client.ts";
import { ops } from "../../operations.ts";
import { stringField } from "../../params.ts";
import { toCustomerEmail, toCustomerUpdate, type CustomerUpdateSelection } from "../../serializers/customer.ts";

/**
 * Body fields of the customer edit that have no GraphQL argument on purpose (they cannot be edited).
 * Refused rather than dropped, so a client never believes it changed them.
 */
const NOT_EDITABLE = ["doc", "external_id"] as const;

export function customerRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  r.post("/customers/:externalId", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const locked = NOT_EDITABLE.find((field) => body[field] != null);
    if (locked) throw new AppError("field_not_editable", { error: `${locked} não pode ser alterado`, extra: { field: locked } });
    const variables = {
      externalId: req.params.externalId,
      name: stringField(body, "name"),
      email: stringField(body, "email"),
      phone: stringField(body, "phone"),
    };
    const data = await core.request<{ updateCustomer: CustomerUpdateSelection }>(ops.updateCustomer, variables, headers(req));
    res.json(toCustomerUpdate(data.updateCustomer));
  });
  r.post("/customers/:externalId/email", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const email = stringField(body, "email");
    const data = await core.request<{ updateCustomerEmail: { email: string; notice: string | null } }>(
      ops.updateCustomerEmail,
      { externalId: req.params.externalId, email },
      headers(req),
    );
    res.json(toCustomerEmail(data.updateCustomerEmail));
  });
  return r;
}
