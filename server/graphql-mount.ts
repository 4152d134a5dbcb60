// The Yoga mount: /graphql on the process's app, behind /v1's body cap. Yoga itself (the schema, the
// entry gate, the limits) is schema/yoga.ts; this is only how HTTP reaches it.
import express, { type Express, type RequestHandler } from "express";
import { AppError } from "../core/shared/errors.ts";
import { GRAPHQL_BODY_LIMIT, type Yoga } from "../schema/yoga.ts";

/**
 * /graphql bodies: /v1's 100 kB cap, answered 413 with the contract's body. A declared length over
 * the cap is refused before a byte is read; a chunked body is counted while read and cut at the cap.
 * Either way the connection is closed rather than drained, so the rest is never read. Yoga takes the
 * Buffer as the body (and keeps its own cap as a second line).
 */
function graphqlBodyCap(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const refuse = () => {
      res.set("connection", "close");
      next(new AppError("payload_too_large"));
    };
    if (Number(req.get("content-length") ?? 0) > GRAPHQL_BODY_LIMIT) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GRAPHQL_BODY_LIMIT) return void chunks.push(chunk);
      req.off("data", onData).off("end", onEnd).pause();
      refuse();
    };
    const onEnd = () => {
      // An empty body stays unread for Yoga (which answers it), not an empty Buffer it would skip.
      if (size > 0) req.body = Buffer.concat(chunks, size);
      next();
    };
    req.on("data", onData).once("end", onEnd).once("error", next);
  };
}

export function mountGraphQL(app: Express, yoga: Yoga): void {
  app.use(yoga.graphqlEndpoint, graphqlBodyCap(), yoga as unknown as express.RequestHandler);
}
