// Rendered API docs at /docs, served locally from swagger-ui-dist (no CDN, no inline script).
import fs from "node:fs";
import express, { Router, type Request, type Response } from "express";
import { createRequire } from "node:module";
import path from "node:path";

/** The hand-written OpenAPI 3.1 document (also served at /v1/openapi.json). */
export const openApiDocument: Record<string, unknown> = JSON.parse(
  fs.readFileSync(new URL("./openapi.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

const SPEC_URL = "/v1/openapi.json";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Recurring-Billing Integration API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(SPEC_URL)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
`;

export interface DocsRouterOptions {
  /** Also answer GET /v1/openapi.json with the document (default true). Mount before the /v1 auth middleware. */
  serveDocument?: boolean;
}

export function docsRouter(options: DocsRouterOptions = {}): Router {
  const router = Router();
  // The package's folder only: importing the package evaluates its whole browser bundle (about 30 MB of
  // resident memory in every process) for files that are only served.
  const assetsDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

  router.use("/docs/assets", express.static(assetsDir, { index: false, fallthrough: false, maxAge: "1d" }));

  router.get("/docs/init.js", (_req: Request, res: Response) => {
    res.type("application/javascript").set("Cache-Control", "no-cache").send(INIT);
  });

  router.get("/docs", (_req: Request, res: Response) => {
    res.type("html").set("Cache-Control", "no-cache").send(PAGE);
  });

  if (options.serveDocument !== false) {
    router.get(SPEC_URL, (_req: Request, res: Response) => {
      res.set("Cache-Control", "no-cache").json(openApiDocument);
    });
  }

  return router;
}
