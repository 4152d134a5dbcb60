-- Every change that can change a customer's GET /v1/entitlements answer queues a notification in its
-- own transaction (NOTIFY is transactional: sent at commit, never for a rollback), whoever writes the
-- row (Prisma, set-wise SQL of the billing run, a future path). Each instance's entitlements cache
-- drops what the payload names: "<tenant id> <customer id>", or "<tenant id> *" for the whole tenant
-- (a plan's entitlements, an offer's interval). Identical payloads in one transaction arrive once.
CREATE FUNCTION "billing_entitlements_subscription_notify"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('billing_entitlements_changed', OLD."tenant_id" || ' ' || OLD."customer_id");
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('billing_entitlements_changed', NEW."tenant_id" || ' ' || NEW."customer_id");
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "billing_entitlements_customer_notify"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('billing_entitlements_changed', OLD."tenant_id" || ' ' || OLD."id");
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('billing_entitlements_changed', NEW."tenant_id" || ' ' || NEW."id");
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "billing_entitlements_tenant_notify"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('billing_entitlements_changed', (CASE WHEN TG_OP = 'DELETE' THEN OLD."tenant_id" ELSE NEW."tenant_id" END) || ' *');
  RETURN NULL;
END
$fn$;

-- The answer reads: customers (by external_id or email), their subscriptions that are not canceled
-- (id, status, plan, offer, current period end), the offer's interval and the plan's entitlements.
CREATE TRIGGER "subscriptions_entitlements_insert_delete" AFTER INSERT OR DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "billing_entitlements_subscription_notify"();
CREATE TRIGGER "subscriptions_entitlements_update" AFTER UPDATE ON "subscriptions"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."plan_id" IS DISTINCT FROM NEW."plan_id"
    OR OLD."offer_id" IS DISTINCT FROM NEW."offer_id" OR OLD."current_period_end" IS DISTINCT FROM NEW."current_period_end"
    OR OLD."customer_id" IS DISTINCT FROM NEW."customer_id" OR OLD."tenant_id" IS DISTINCT FROM NEW."tenant_id")
  EXECUTE FUNCTION "billing_entitlements_subscription_notify"();

CREATE TRIGGER "customers_entitlements_insert_delete" AFTER INSERT OR DELETE ON "customers"
  FOR EACH ROW EXECUTE FUNCTION "billing_entitlements_customer_notify"();
CREATE TRIGGER "customers_entitlements_update" AFTER UPDATE ON "customers"
  FOR EACH ROW WHEN (OLD."external_id" IS DISTINCT FROM NEW."external_id" OR OLD."email" IS DISTINCT FROM NEW."email"
    OR OLD."tenant_id" IS DISTINCT FROM NEW."tenant_id")
  EXECUTE FUNCTION "billing_entitlements_customer_notify"();

CREATE TRIGGER "plans_entitlements_update" AFTER UPDATE ON "plans"
  FOR EACH ROW WHEN (OLD."entitlements" IS DISTINCT FROM NEW."entitlements" OR OLD."tenant_id" IS DISTINCT FROM NEW."tenant_id")
  EXECUTE FUNCTION "billing_entitlements_tenant_notify"();
CREATE TRIGGER "plans_entitlements_delete" AFTER DELETE ON "plans"
  FOR EACH ROW EXECUTE FUNCTION "billing_entitlements_tenant_notify"();

CREATE TRIGGER "offers_entitlements_update" AFTER UPDATE ON "offers"
  FOR EACH ROW WHEN (OLD."interval" IS DISTINCT FROM NEW."interval" OR OLD."tenant_id" IS DISTINCT FROM NEW."tenant_id")
  EXECUTE FUNCTION "billing_entitlements_tenant_notify"();
CREATE TRIGGER "offers_entitlements_delete" AFTER DELETE ON "offers"
  FOR EACH ROW EXECUTE FUNCTION "billing_entitlements_tenant_notify"();
