// The one logger. Anything that could carry a key, a secret or card data is redacted by path.
import pino from "pino";

export const REDACT_PATHS = [
  "req.headers.authorization",
  "headers.authorization",
  "authorization",
  "*.authorization",
  "key",
  "*.key",
  "secret",
  "*.secret",
  "card_number",
  "*.card_number",
  "card_cvc",
  "*.card_cvc",
  "adminToken",
  "*.adminToken",
  // Runtime.secrets (service_secrets keys), should a runtime or its config ever be logged.
  "secrets",
  "*.secrets",
  "campaignLinkKey",
  "*.campaignLinkKey",
  // Gateway account credentials, as a whole and by the usual provider field names.
  "credentials",
  "*.credentials",
  "*.*.credentials",
  "secretKey",
  "*.secretKey",
  "webhookSecret",
  "*.webhookSecret",
  "apiKey",
  "*.apiKey",
  "accessToken",
  "*.accessToken",
  "gatewayCredentialKeys",
  "*.gatewayCredentialKeys",
];

export function createLogger(level = process.env.LOG_LEVEL ?? "info") {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } });
}
