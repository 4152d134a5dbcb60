// GraphiQL from the service's own assets: Yoga's default page loads its code from a CDN with no
// integrity check (a blank page offline, and the operator pastes the operator token into it). The
// bundle, its stylesheet and Monaco's workers come from @graphql-yoga/render-graphiql (the build
// Yoga's own page uses) and are served under /graphql/assets/<version>/. The page runs no inline
// script: its options travel as JSON in a non-executed <script type="application/json">, and a CSP
// allows scripts, workers and connections to this origin only.
import type { GraphiQLOptions, Plugin } from "graphql-yoga";
import renderGraphiqlPackage from "@graphql-yoga/render-graphiql/package.json" with { type: "json" };
import { renderToString } from "preact-render-to-string";

export const GRAPHIQL_ASSETS = `/graphql/assets/${renderGraphiqlPackage.version}`;

/**
 * 'unsafe-inline' styles only: GraphiQL and Monaco set style attributes and inject <style> elements.
 * Fonts and a few images are data: URIs inside the stylesheet.
 */
export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Runs before the bundle: Monaco asks for its workers by label; they are plain same-origin scripts. */
const ENV_JS = `(function () {
  var base = document.currentScript.src.replace(/[^/]*$/, "");
  var workers = { editorWorkerService: "editor.worker.js", json: "json.worker.js", graphql: "graphql.worker.js" };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) { return base + (workers[label] || workers.editorWorkerService); },
  };
})();
`;

/** Runs after the bundle: renders with the options the page carries as JSON. */
const BOOT_JS = `(function () {
  var options = JSON.parse(document.getElementById("graphiql-options").textContent);
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), options);
})();
`;

interface Asset {
  type: string;
  body: Uint8Array<ArrayBuffer>;
}

let assets: Promise<Map<string, Asset>> | undefined;

/** Loaded on the first GraphiQL request: megabytes of strings that an API-only process never needs. */
function loadAssets(): Promise<Map<string, Asset>> {
  assets ??= import("@graphql-yoga/render-graphiql/graphiql").then((g) => {
    const js = "text/javascript; charset=utf-8";
    const enc = (s: string) => new TextEncoder().encode(s);
    const favicon = /^data:([^;]+);base64,(.*)$/.exec(g.favicon);
    return new Map<string, Asset>([
      ["graphiql.css", { type: "text/css; charset=utf-8", body: enc(g.css) }],
      ["yoga-graphiql.js", { type: js, body: enc(g.js) }],
      ["editor.worker.js", { type: js, body: enc(g.editorWorkerService) }],
      ["json.worker.js", { type: js, body: enc(g.jsonWorker) }],
      ["graphql.worker.js", { type: js, body: enc(g.graphqlWorker) }],
      ["env.js", { type: js, body: enc(ENV_JS) }],
      ["boot.js", { type: js, body: enc(BOOT_JS) }],
      ...(favicon ? [["favicon.ico", { type: favicon[1]!, body: Buffer.from(favicon[2]!, "base64") }] as [string, Asset]] : []),
    ]);
  });
  return assets;
}

export function GraphiQLPage({ options }: { options: GraphiQLOptions }) {
  // `<` escaped so no string in the options can close the JSON block.
  const json = JSON.stringify(options ?? {}).replace(/</g, "\\u003c");
  const a = GRAPHIQL_ASSETS;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{options?.title ?? "GraphiQL"}</title>
        <link rel="icon" href={`${a}/favicon.ico`} />
        <link rel="stylesheet" href={`${a}/graphiql.css`} />
      </head>
      <body id="body" class="no-focus-outline">
        <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
        <div id="root"></div>
        {/* Data, not code: a JSON script block never runs, and the renderer would entity-encode its quotes. */}
        <script id="graphiql-options" type="application/json" dangerouslySetInnerHTML={{ __html: json }} />
        <script src={`${a}/env.js`}></script>
        <script src={`${a}/yoga-graphiql.js`}></script>
        <script src={`${a}/boot.js`}></script>
      </body>
    </html>
  );
}

export function renderGraphiQLPage(opts: GraphiQLOptions): string {
  return `<!doctype html>\n${renderToString(<GraphiQLPage options={opts} />)}\n`;
}

/** Serves the assets and puts the CSP and the usual hardening headers on the GraphiQL page. */
export function graphiqlAssets(): Plugin {
  return {
    async onRequest({ url, request, fetchAPI, endResponse }) {
      if (!url.pathname.startsWith("/graphql/assets/")) return;
      const name = url.pathname.startsWith(`${GRAPHIQL_ASSETS}/`) ? url.pathname.slice(GRAPHIQL_ASSETS.length + 1) : "";
      const asset = request.method === "GET" || request.method === "HEAD" ? (await loadAssets()).get(name) : undefined;
      if (!asset) {
        endResponse(new fetchAPI.Response(JSON.stringify({ error: "route not found", code: "route_not_found" }), { status: 404, headers: { "content-type": "application/json; charset=utf-8" } }));
        return;
      }
      endResponse(
        new fetchAPI.Response(request.method === "HEAD" ? null : asset.body, {
          status: 200,
          headers: {
            "content-type": asset.type,
            "content-length": String(asset.body.byteLength),
            // The path carries the package version: a new release is a new URL.
            "cache-control": "public, max-age=86400, immutable",
            "x-content-type-options": "nosniff",
            "cross-origin-resource-policy": "same-origin",
          },
        }),
      );
    },
    onResponse({ response }) {
      if (!response.headers.get("content-type")?.startsWith("text/html")) return;
      response.headers.set("content-security-policy", GRAPHIQL_CSP);
      response.headers.set("x-content-type-options", "nosniff");
      response.headers.set("x-frame-options", "DENY");
      response.headers.set("referrer-policy", "no-referrer");
      response.headers.set("cache-control", "no-store");
    },
  };
}
