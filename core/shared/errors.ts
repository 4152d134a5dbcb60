// The one error catalogue. Every failure the service answers is one of these keys; two translators
// turn it into a GraphQL error (schema/errors.ts) or an HTTP status and body (http/error-map.ts).
// Status codes are decided here and nowhere else.

interface CatalogEntry {
  status: number;
  error: string;
  /** Stable code sent in the body; omitted when the contract defines none for the case. */
  code?: string;
}

export const ERROR_CATALOG = {
  unauthorized: { status: 401, error: "missing, invalid or revoked API key", code: "unauthorized" },
  insufficient_scope: { status: 403, error: "this route needs a key with write scope", code: "insufficient_scope" },
  account_locked: { status: 403, error: "the account is in read-only mode", code: "account_locked" },
  operator_only: { status: 403, error: "operator token required", code: "operator_only" },
  not_found: { status: 404, error: "not found", code: "not_found" },
  route_not_found: { status: 404, error: "route not found", code: "route_not_found" },
  invalid_limit: { status: 400, error: "limit must be an integer from 1 to 500", code: "invalid_limit" },
  invalid_cursor: { status: 400, error: "after is not a valid cursor", code: "invalid_cursor" },
  invalid_status: { status: 400, error: "status holds an unknown value", code: "invalid_status" },
  missing_customer_key: { status: 400, error: "external_id or email is required", code: "missing_customer_key" },
  invalid_parameter: { status: 400, error: "invalid parameter", code: "invalid_parameter" },
  invalid_body: { status: 400, error: "the request body is not valid", code: "invalid_body" },
  /** An inbound gateway notice refused (forged, stale, replayed, no webhook secret): changes nothing. */
  webhook_refused: { status: 400, error: "the gateway notice was refused", code: "webhook_refused" },
  unsupported_media_type: {
    status: 415,
    error: "send application/json, application/x-www-form-urlencoded or multipart/form-data",
    code: "unsupported_media_type",
  },
  payload_too_large: { status: 413, error: "the request body is too large", code: "payload_too_large" },
  idempotency_key_reused: {
    status: 422,
    error: "this Idempotency-Key was used with a different request",
    code: "idempotency_key_reused",
  },
  idempotency_key_in_use: {
    status: 409,
    error: "a request with this Idempotency-Key is still in progress",
    code: "idempotency_key_in_use",
  },
  invalid_idempotency_key: { status: 400, error: "Idempotency-Key must be 1 to 255 printable characters", code: "invalid_idempotency_key" },
  rate_limited: { status: 429, error: "too many requests; retry after the Retry-After delay", code: "rate_limited" },
  invalid_argument: { status: 422, error: "invalid argument", code: "invalid_argument" },
  conflict: { status: 409, error: "state conflict", code: "conflict" },
  sandbox_only: { status: 422, error: "only SANDBOX tenants can do this", code: "sandbox_only" },
  email_taken: { status: 422, error: "já existe um cliente com esse e-mail neste tenant", code: "email_taken" },
  invalid_email: { status: 422, error: "e-mail inválido", code: "invalid_email" },
  /** Customer edits (POST /v1/customers/{external_id}): the contract's pt-BR messages, kept exactly. */
  invalid_phone: { status: 422, error: "telefone inválido", code: "invalid_phone" },
  phone_required: { status: 422, error: "informe o celular do cliente", code: "phone_required" },
  invalid_name: { status: 422, error: "nome inválido (de 2 a 200 caracteres)", code: "invalid_name" },
  /**
   * `doc` or `external_id` in a customer edit's body: they cannot be edited. Refused from the body's shape
   * alone (like invalid_body), before any lookup, so 400 and not 422. The body adds `field`.
   */
  field_not_editable: { status: 400, error: "este campo não pode ser alterado", code: "field_not_editable" },
  /** Hosted checkout and /pay: a refused form field. The body is {error, field} (no code: the contract's shape). */
  invalid_field: { status: 422, error: "invalid field" },
  /** Hosted checkout and /pay: a browser POST from another site (Sec-Fetch-Site / Origin), i.e. a forged form. */
  cross_site_request: {
    status: 403,
    error: "este formulário só pode ser enviado pela própria página de pagamento",
    code: "cross_site_request",
  },
  /** Subscription lifecycle (cancel, cancel/undo, reschedule). */
  reason_too_long: { status: 400, error: "reason must be at most 300 characters", code: "reason_too_long" },
  pix_payable: { status: 422, error: "a payable Pix QR is open; cancel after it is paid or expires", code: "pix_payable" },
  cancel_not_allowed: { status: 422, error: "the current status does not allow this cancellation", code: "invalid_state" },
  nothing_scheduled: { status: 422, error: "no cancellation is scheduled", code: "nothing_scheduled" },
  data_invalida: { status: 400, error: "data inválida", code: "data_invalida" },
  data_passada: { status: 400, error: "a data precisa estar no futuro", code: "data_passada" },
  fatura_em_voo: { status: 409, error: "há uma cobrança ou Pix em aberto neste ciclo", code: "fatura_em_voo" },
  reschedule_status: { status: 422, error: "o status da assinatura não permite reagendar", code: "status" },
  /** An id in the body that names no record of the tenant (renewal-link offer_id): 400, not 404, per the contract. */
  invalid_id: { status: 400, error: "unknown id", code: "invalid_id" },
  /** /pay/{token}: the link expired (its 7 days passed, or it was replaced). */
  link_expired: { status: 410, error: "este link expirou", code: "link_expired" },
  /** /pay/{token}: the link was already used (single use) or what it pays is already paid. */
  link_used: { status: 410, error: "este link já foi utilizado", code: "link_used" },
  /**
   * A LIVE tenant without legal name and CNPJ: its hosted pages take no payment, and an operator cannot
   * switch a tenant to LIVE before its profile names the seller (Decreto 7.962/2013).
   */
  seller_incomplete: {
    status: 403,
    error: "este vendedor ainda não informou sua razão social e seu CNPJ; ele não pode receber pagamentos",
    code: "seller_incomplete",
  },
  /** A refund refused by a rule or by the gateway: the contract's body is {level: 'error', message}. */
  refund_refused: { status: 422, error: "refund refused" },
  /** A refund that hits an invoice that funded prepaid runway: {error, requires_confirmation: 'runway'}. */
  refund_needs_confirmation: {
    status: 422,
    error: "este reembolso atinge uma fatura que pagou um período ainda não iniciado; reenvie com confirm_runway: true",
  },
  /** The payment gateway refused to make the Pix (its definitive no, e.g. a payer it does not take); the message says why. */
  pix_refused: { status: 422, error: "o gateway de pagamento recusou o Pix", code: "pix_refused" },
  /** GET /v1/orders/{id}/payment-link on an order with no pending Pix. */
  no_pending_order_pix: { status: 409, error: "pedido sem Pix pendente para reabrir", code: "conflict" },
  /** createGatewayAccount / updateGatewayAccountCredentials: the provider's live check refused the credentials (its reason, never the secret). */
  gateway_credentials_invalid: { status: 422, error: "the gateway refused the credentials", code: "gateway_credentials_invalid" },
  /** Saturation (no database connection freed up in time): nothing was written; retry after Retry-After. */
  overloaded: { status: 503, error: "service temporarily overloaded; retry shortly", code: "unavailable" },
  /**
   * A payment gateway answered 5xx, timed out or could not be reached while a request waited on it (a Pix
   * to show, a card to save). Any charge it may have made is settled by reconciliation, never made twice.
   */
  gateway_unavailable: { status: 503, error: "payment gateway temporarily unavailable; retry shortly", code: "unavailable" },
  /** The /v1 facade could not reach the GraphQL core (GRAPHQL_URL) or it did not answer in time. */
  core_unavailable: { status: 503, error: "service temporarily unavailable; retry shortly", code: "unavailable" },
  /** Panel sign-in: the same answer for an unknown e-mail and a wrong password. */
  invalid_credentials: { status: 401, error: "e-mail ou senha incorretos", code: "invalid_credentials" },
  /** Panel sign-in or two-factor set-up: a wrong, reused or missing two-factor code. */
  invalid_code: { status: 401, error: "código de verificação inválido", code: "invalid_code" },
  /** Panel sign-in: too many wrong passwords or codes for this account; it waits. */
  sign_in_locked: { status: 429, error: "muitas tentativas de entrada; aguarde alguns minutos e tente novamente", code: "sign_in_locked" },
  /** An invitation or password-reset link that expired, was used already, or never existed. */
  team_link_invalid: { status: 410, error: "este link expirou ou já foi utilizado", code: "team_link_invalid" },
  weak_password: { status: 422, error: "a senha precisa ter ao menos 12 caracteres e não ser fácil de adivinhar", code: "weak_password" },
  /** A panel user whose role does not allow this action. */
  role_forbidden: { status: 403, error: "o seu papel na equipe não permite esta ação", code: "role_forbidden" },
  internal: { status: 500, error: "internal error", code: "internal" },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorKey = keyof typeof ERROR_CATALOG;

export type ErrorBody = { error: string; code?: string } & Record<string, unknown>;

export class AppError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly body: ErrorBody;

  /**
   * `error` replaces the catalogue's message; `extra` adds the fields some routes define (accepted,
   * status…). A body the contract shapes otherwise (refund refusals) is `extra` alone, with `bare`.
   */
  constructor(key: ErrorKey, opts: { error?: string; extra?: Record<string, unknown>; bare?: boolean } = {}) {
    const entry: CatalogEntry = ERROR_CATALOG[key];
    const message = opts.error ?? entry.error;
    super(message);
    this.name = "AppError";
    this.key = key;
    this.status = entry.status;
    this.body = opts.bare ? ({ ...opts.extra } as ErrorBody) : { error: message, ...(entry.code ? { code: entry.code } : {}), ...opts.extra };
  }
}

/** The refund refusal body of the contract: {level: 'error', message}. */
export function refundRefused(message: string): AppError {
  return new AppError("refund_refused", { error: message, extra: { level: "error", message }, bare: true });
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** The single 404 for a record of another tenant, an unknown id or a malformed id: byte-identical on purpose. */
export function notFound(resource: string): AppError {
  return new AppError("not_found", { error: `${resource} not found` });
}

/**
 * Infrastructure failures that are not bugs: Prisma's P2028 "unable to start a transaction in the
 * given time" means every connection stayed busy past maxWait, so the request did nothing. It is a
 * 503 with Retry-After, never a 500.
 */
export function infrastructureError(err: unknown): AppError | null {
  const e = err as { code?: unknown; name?: unknown } | null;
  if (e && e.code === "P2028") return new AppError("overloaded");
  // core/gateways/adapter.ts's GatewayUnavailable and its CredentialsUnavailable, by name (no import of the gateway layer here).
  if (e && (e.name === "GatewayUnavailable" || e.name === "CredentialsUnavailable")) return new AppError("gateway_unavailable");
  return null;
}
