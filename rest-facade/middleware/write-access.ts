// Scope and read-only checks of /v1 write routes, before the body is read and before any
// Idempotency-Key replay: a stored answer must never reach a key that could not have made the request.
// The GraphQL core checks the same rules again (schema/builder.ts authScopes); the answers are the same
// AppErrors, so a request hears the same bytes whichever layer refuses it.
import type { RequestHandler } from "express";
import { AppError } from "../../core/shared/errors.ts";
import { documentedOperation } from "../openapi/routes.ts";

export function writeAccess(): RequestHandler {
  return (req, _res, next) => {
    const op = documentedOperation(req.method, req.baseUrl + req.path);
    if (!op || op.requiredScope !== "write" || !req.caller) return next();
    // Scope outranks the lock, as in schema/scopes.ts: a read key on a locked account hears insufficient_scope.
    if (req.caller.scope !== "WRITE") throw new AppError("insufficient_scope");
    if (req.caller.tenant.readOnly && !op.allowedWhenReadOnly) throw new AppError("account_locked");
    next();
  };
}
