// The entitlements bench's ceiling, in a process of its own: bare Express answering fixed bytes (the
// service's own answer, from CEILING_BODY) on PORT. Prints "listening" once it serves.
import express from "express";

const body: unknown = JSON.parse(process.env.CEILING_BODY ?? "{}");
const app = express();
app.disable("x-powered-by");
app.get("/v1/entitlements", (_req, res) => void res.json(body));
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log("listening"));
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
