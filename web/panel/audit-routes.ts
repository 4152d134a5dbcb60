// The audit log page: a GET form of filters, read through the core's auditEntries.
import type { Router } from "express";
import { refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import type { Member } from "./panel-layout.tsx";
import { auditPage, type AuditFilters, type AuditRow } from "./audit-pages.tsx";

type AuditData = { me: Member; auditEntries: { entries: AuditRow[]; nextCursor: string | null }; auditActions: string[] };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const text = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : "");

/** A day of the date input as the instant it starts in Brasília (UTC-3 all year since 2019). */
const dayStart = (day: string, plusDays = 0) => {
  const at = new Date(`${day}T00:00:00-03:00`);
  return Number.isNaN(at.getTime()) ? null : new Date(at.getTime() + plusDays * 86_400_000).toISOString();
};

export function auditRoutes(router: Router, kit: PanelKit): void {
  router.get("/panel/audit", wrap(async (req, res) => {
    const q = req.query;
    const filters: AuditFilters = {
      actor: text(q.actor, 200).trim(),
      action: text(q.action, 100).trim(),
      from: DATE.test(text(q.from, 10)) ? text(q.from, 10) : "",
      to: DATE.test(text(q.to, 10)) ? text(q.to, 10) : "",
    };
    const variables = {
      actor: filters.actor || null,
      action: filters.action || null,
      from: filters.from ? dayStart(filters.from) : null,
      // "Até" includes its whole day: the range ends where the next day starts.
      to: filters.to ? dayStart(filters.to, 1) : null,
      after: text(q.after, 100) || null,
    };
    try {
      const s = await kit.signedIn<AuditData>(req, res, "panel-audit", variables);
      if (!s) return;
      send(res, 200, auditPage({ member: s.me, csrf: s.csrf, entries: s.auditEntries.entries, actions: s.auditActions, filters, next: s.auditEntries.nextCursor }));
    } catch (err) {
      // A refused filter (a range that ends before it starts, a stale cursor): the page without results.
      const r = refusal(err);
      if (!r || r.status >= 500 || r.status === 403) throw err;
      const s = await kit.signedIn<{ me: Member }>(req, res);
      if (s) send(res, r.status, auditPage({ member: s.me, csrf: s.csrf, entries: [], actions: [], filters, next: null, error: r.error }));
    }
  }));
}
