-- The dispatchers' claims walk the pending rows in due order and stop at their batch; PostgreSQL picks
-- that plan only when its statistics know how many rows are pending. With the default thresholds (10 %
-- of the table) a backlog that builds up in a burst is planned as a handful of rows: every claim then
-- reads and sorts the whole backlog (about 4 ms per claim at 6,000 pending, several claims per
-- delivery). Re-analyze these outbox tables after 2 % of their rows (at least 200) changed instead.
ALTER TABLE "webhook_deliveries" SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 200);
ALTER TABLE "email_messages" SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 200);
