// Applies core idempotency to every POST carrying Idempotency-Key: replays, or records the answer.
// Runs after authentication, the scope and read-only checks (write-access.ts) and body parsing, so a
// replay only ever reaches the API key that made the request, and only while it may still make it.
import type { RequestHandler } from "express";
import { beginIdempotentRequest, finishIdempotentRequest } from "../../core/idempotency/idempotent-request.ts";
import type { Runtime } from "../../core/runtime.ts";

export function idempotency(runtime: Runtime): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (req.method !== "POST" || key === undefined || !req.caller) return next();
    const start = await beginIdempotentRequest(runtime.db.prisma, runtime.wallClock, {
      tenantId: req.caller.tenantId,
      apiKeyId: req.caller.keyId,
      key,
      method: req.method,
      path: req.baseUrl + req.path,
      body: req.body,
    });
    if (start.kind === "replay") {
      res.status(start.status).set("Idempotent-Replayed", "true").type("application/json").send(start.body);
      return;
    }
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const text = JSON.stringify(body);
      // Store before answering, so an immediate retry replays instead of hearing "in use".
      finishIdempotentRequest(runtime.db.prisma, start.id, res.statusCode, text)
        .catch((err) => req.log?.error({ err }, "idempotency record failed"))
        .finally(() => send(body));
      return res;
    };
    next();
  };
}
