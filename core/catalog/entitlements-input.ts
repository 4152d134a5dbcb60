// Plan entitlements are a flat key-to-value map of scalars (booleans, numbers, strings).
import { z } from "zod";
import { AppError } from "../shared/errors.ts";

export const entitlementsSchema = z.record(z.string().min(1).max(100), z.union([z.boolean(), z.number().finite(), z.string().max(500), z.null()]));

export function parseEntitlements(value: unknown): Record<string, unknown> {
  const parsed = entitlementsSchema.safeParse(value);
  if (!parsed.success) throw new AppError("invalid_argument", { error: "entitlements must be an object of scalar values" });
  return parsed.data;
}
